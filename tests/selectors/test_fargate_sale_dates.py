"""Fargate task sizes are priced only from the day AWS first sold them (reference.py)."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks.models import FargateRate, InstanceType, Region
from benchmarks.questions.purchase import Purchase
from benchmarks.reference import (
    FARGATE_ARM64,
    FARGATE_LARGE_TASKS,
    FARGATE_LAUNCH,
    fargate_first_sold,
    fargate_not_sold,
    fargate_unsold,
)
from benchmarks.selectors.costs.cheapest_regions import cheapest_region
from benchmarks.selectors.costs.price_periods import PriceQuote
from benchmarks.selectors.costs.prices import hourly_prices
from benchmarks.services import statistics

S1 = {
    "benchmark": "openssl:aes-128-gcm",
    "region": "us-east-1",
    "block_size": 8192,
    "processes": 1,
    "at": "2017-12-13",
    "price_dates": "exact",
}


def test_each_size_is_first_sold_on_the_latest_day_of_what_it_needs():
    assert FARGATE_LAUNCH.first_sold == datetime.date(2017, 11, 29)
    assert fargate_first_sold(Decimal("4"), "x86_64") is FARGATE_LAUNCH
    assert fargate_first_sold(Decimal("8"), "x86_64") is FARGATE_LARGE_TASKS
    assert fargate_first_sold(Decimal("0.25"), "arm64") is FARGATE_ARM64
    assert fargate_first_sold(Decimal("16"), "arm64") is FARGATE_LARGE_TASKS
    assert FARGATE_ARM64.first_sold == datetime.date(2021, 11, 23)
    # The one date rule: sold from its first day on, not the day before.
    assert fargate_unsold(Decimal(16), "arm64", datetime.date(2022, 9, 15)) is FARGATE_LARGE_TASKS
    assert fargate_unsold(Decimal(16), "arm64", datetime.date(2022, 9, 16)) is None
    assert fargate_unsold(Decimal(1), "arm64", datetime.date(2021, 11, 22)) is FARGATE_ARM64
    assert FARGATE_LARGE_TASKS.first_sold == datetime.date(2022, 9, 16)
    assert (
        fargate_not_sold("fargate-8vcpu-16gb", Decimal(8), "x86_64", datetime.date(2022, 9, 16))
        is None
    )
    assert fargate_not_sold(
        "fargate-8vcpu-16gb", Decimal(8), "x86_64", datetime.date(2022, 9, 15)
    ) == (
        "fargate-8vcpu-16gb was first sold on 2022-09-16 (Fargate's 8 and 16 vCPU task sizes), "
        "after 2022-09-15"
    )


def _rates(architecture: str, since: datetime.date) -> None:
    region = Region.objects.get(code="us-east-1")
    for component, usd in (("vcpu", "0.04"), ("memory_gb", "0.004")):
        FargateRate.objects.create(
            region=region,
            architecture=architecture,
            component=component,
            usd_per_unit_hour=Decimal(usd),
            effective_from=since,
            source="test",
        )


def _on_demand(size: InstanceType, day: datetime.date) -> PriceQuote:
    """The size's on-demand price quote in us-east-1 on `day`."""
    region = Region.objects.get(code="us-east-1")
    return hourly_prices(
        instance_types=[size], region=region, purchase_option="on_demand", day=day
    )[size.pk]


@pytest.mark.django_db
def test_an_arm64_size_is_not_priced_in_2020_even_from_a_rate_in_force_then():
    # A rate dated before the launch (a file's first period, say) does not sell the size.
    _rates("arm64", datetime.date(2017, 11, 29))
    size = InstanceType.objects.get(name="fargate-1vcpu-2gb-arm64")
    quote = _on_demand(size, datetime.date(2020, 6, 1))
    assert quote.usd_per_hour is None
    assert quote.note == (
        "fargate-1vcpu-2gb-arm64 was first sold on 2021-11-23 (Fargate's arm64 (Graviton2) "
        "tasks), after 2020-06-01"
    )
    assert cheapest_region(size, Purchase.of("on_demand"), datetime.date(2020, 6, 1)) is None
    sold = _on_demand(size, datetime.date(2022, 1, 1))
    assert sold.usd_per_hour == Decimal("0.04") + 2 * Decimal("0.004") and sold.in_force
    assert cheapest_region(size, Purchase.of("on_demand"), datetime.date(2022, 1, 1)) == "us-east-1"


@pytest.mark.django_db
def test_unit_prices_leave_out_the_sizes_not_sold_yet_and_say_why():
    _rates("x86_64", datetime.date(2017, 11, 29))
    _rates("arm64", datetime.date(2017, 11, 29))
    client = APIClient()
    url = "/api/v1/unit-prices/?region=us-east-1&families=fargate&at="
    body = client.get(url + "2017-12-13").json()
    names = {row["instance_type"] for row in body["results"]}
    assert "fargate-4vcpu-30gb" in names
    assert not any("-8vcpu-" in name or "-16vcpu-" in name or "arm64" in name for name in names)
    assert [missing["reason"] for missing in body["missing"]] == [
        "Fargate's arm64 (Graviton2) tasks were first sold on 2021-11-23, after 2017-12-13",
        "Fargate's 8 and 16 vCPU task sizes were first sold on 2022-09-16, after 2017-12-13",
    ]
    later = client.get(url + "2023-01-02").json()
    names = {row["instance_type"] for row in later["results"]}
    assert {"fargate-16vcpu-120gb", "fargate-16vcpu-32gb-arm64"} <= names
    assert later["missing"] == []


@pytest.mark.django_db
def test_the_instance_page_prices_a_size_from_the_day_it_was_first_sold():
    from benchmarks.selectors.pages.instance_types import instance_type_page

    _rates("x86_64", datetime.date(2017, 11, 29))
    large = instance_type_page("fargate-8vcpu-16gb")
    (line,) = large.lines
    assert [period.effective_from for period in line.periods] == [datetime.date(2022, 9, 16)]
    small = instance_type_page("fargate-4vcpu-8gb")
    assert small.lines[0].periods[0].effective_from == datetime.date(2017, 11, 29)


@pytest.fixture
def demo_client(demo_rolled_back):
    return APIClient()


@pytest.mark.django_db
def test_the_s1_question_lists_no_8_or_16_vcpu_size(demo_client):
    statistics.keep_noise()  # what the estimates stand on (FargateBasis)
    body = demo_client.get("/api/v1/price-performance/", S1).json()
    listed = [row["instance_type"] for row in [*body["results"], *body["unpriced"]]]
    assert any(name.startswith("fargate-4vcpu") for name in listed), listed
    assert not any(name.startswith(("fargate-8vcpu", "fargate-16vcpu")) for name in listed)
    # The same question in 2023 has them, estimated.
    later = demo_client.get("/api/v1/price-performance/", {**S1, "at": "2023-06-01"}).json()
    rows = {row["instance_type"]: row for row in later["results"]}
    assert rows["fargate-8vcpu-16gb"]["estimated"] and rows["fargate-16vcpu-32gb"]["estimated"]


@pytest.mark.django_db
def test_a_measured_size_not_sold_yet_is_listed_unpriced_with_the_reason(demo_client):
    from tests.selectors.test_price_performance import run_with

    run_with(
        "fargate-8vcpu-16gb",
        [9.0e9],
        key="openssl:aes-128-gcm",
        params={"block_size": 8192, "processes": 1},
    )
    body = demo_client.get("/api/v1/price-performance/", {**S1, "price_dates": "any"}).json()
    assert "fargate-8vcpu-16gb" not in {row["instance_type"] for row in body["results"]}
    (unpriced,) = [row for row in body["unpriced"] if row["instance_type"] == "fargate-8vcpu-16gb"]
    assert unpriced["reason"].startswith("fargate-8vcpu-16gb was first sold on 2022-09-16")
