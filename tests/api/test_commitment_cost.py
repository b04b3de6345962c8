"""`GET /api/v1/commitment-cost/`: 1 month, 1 year and 3 years of one type in one region,
every way it is priced, with each commitment's break-even month; real m5.large prices."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Price, Region
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db

URL = "/api/v1/commitment-cost/"
M5_ITEM = "GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"


@pytest.fixture
def m5_prices(shared_data):
    """The real m5.large item: 1 on-demand and 12 reserved prices in us-east-1."""
    path = shared_data / "pricing" / "aws-responses" / M5_ITEM
    assert price_services.import_price_list_file(path=path).stored == 13


def get(**params):
    return APIClient().get(URL, {"at": "2021-06-01", **params})


def row(body, option, term=None, payment=None, offering_class=None):
    (found,) = [
        row
        for row in body["results"]
        if (row["purchase_option"], row["term"], row["payment"], row["offering_class"])
        == (option, term, payment, offering_class)
    ]
    return found


def costs(row) -> dict:
    return {cost["period"]: cost for cost in row["costs"]}


def test_it_answers_on_demand_first_and_every_reserved_term(m5_prices):
    body = get(instance_type="m5.large", region="us-east-1").json()
    assert body["hours_per_month"] == 730
    assert len(body["results"]) == 13
    assert body["results"][0]["purchase_option"] == "on_demand"
    assert body["note"] is None


def test_on_demand_costs_its_hourly_price_times_the_hours(m5_prices):
    on_demand = costs(row(get(instance_type="m5.large", region="us-east-1").json(), "on_demand"))
    assert [cost["hours"] for cost in on_demand.values()] == [730, 8760, 26280]
    assert on_demand["1m"]["total_usd"] == pytest.approx(0.096 * 730, abs=0.01)
    assert on_demand["3y"]["upfront_usd"] == 0


def test_one_year_all_upfront_pays_its_fee_each_year_and_breaks_even_in_month_eight(m5_prices):
    body = get(instance_type="m5.large", region="us-east-1").json()
    reserved = row(body, "reserved", "1y", "all_upfront", "standard")
    assert reserved["break_even_month"] == 8
    by_period = costs(reserved)
    assert (by_period["1m"]["upfront_usd"], by_period["1m"]["hourly_usd"]) == (494, 0)
    assert by_period["3y"]["total_usd"] == 3 * 494


def test_three_years_partial_upfront_splits_its_cost_into_both_parts(m5_prices):
    body = get(instance_type="m5.large", region="us-east-1").json()
    reserved = row(body, "reserved", "3y", "partial_upfront", "standard")
    three_years = costs(reserved)["3y"]
    assert three_years["upfront_usd"] == 505
    assert three_years["hourly_usd"] == pytest.approx(0.019 * 26_280, abs=0.01)
    assert three_years["total_usd"] == pytest.approx(505 + 0.019 * 26_280, abs=0.01)
    # A month of it is cheap to run but binds the buyer to the whole term.
    assert costs(reserved)["1m"]["committed_usd"] == three_years["total_usd"]
    # 505 / ((0.096 - 0.019) x 730) = 8.98 months: the ninth month is the first at or below.
    assert reserved["break_even_month"] == 9


def test_no_upfront_breaks_even_in_its_first_month(m5_prices):
    body = get(instance_type="m5.large", region="us-east-1").json()
    assert row(body, "reserved", "1y", "no_upfront", "convertible")["break_even_month"] == 1
    assert row(body, "on_demand")["break_even_month"] is None


def test_spot_is_priced_by_the_median_of_its_zones_with_nothing_upfront(m5_prices):
    instance_type = InstanceType.objects.get(name="m5.large")
    region = Region.objects.get(code="us-east-1")
    for zone, usd in (("us-east-1a", "0.03"), ("us-east-1b", "0.04"), ("us-east-1c", "0.05")):
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="spot",
            availability_zone=zone,
            usd_per_hour=Decimal(usd),
            effective_from=datetime.date(2021, 1, 1),
            source="test",
        )
    spot = row(get(instance_type="m5.large", region="us-east-1").json(), "spot")
    assert spot["usd_per_hour"] == 0.04
    assert spot["spot_zone"] == "median"
    assert costs(spot)["1y"]["total_usd"] == pytest.approx(0.04 * 8760)
    assert spot["break_even_month"] is None


def test_a_type_without_prices_in_the_region_says_so(m5_prices):
    body = get(instance_type="m5.large", region="eu-west-1").json()
    assert body["results"] == []
    assert "no price known for m5.large in eu-west-1" in body["note"]


def test_an_unknown_type_or_region_is_a_400_naming_it(m5_prices):
    response = get(instance_type="m5.huge", region="us-east-1")
    assert response.status_code == 400
    assert "m5.huge" in str(response.json())
    response = get(instance_type="m5.large", region="us-east-9")
    assert response.status_code == 400
    assert "us-east-9" in str(response.json())
    missing = get()
    assert missing.status_code == 400
    assert {"instance_type", "region"} <= set(missing.json())


def test_part_time_use_bills_on_demand_for_the_hours_used_and_a_commitment_for_every_hour(
    m5_prices,
):
    body = get(instance_type="m5.large", region="us-east-1", hours_per_month=200).json()
    assert body["hours_per_month"] == 200
    on_demand = costs(row(body, "on_demand"))
    assert [cost["hours_used"] for cost in on_demand.values()] == [200, 2400, 7200]
    assert on_demand["1m"]["total_usd"] == pytest.approx(0.096 * 200, abs=0.01)
    assert on_demand["1y"]["committed_usd"] == on_demand["1y"]["total_usd"]
    reserved = row(body, "reserved", "1y", "all_upfront", "standard")
    # The fee is the same, used or not: 494 > 0.096 x 200 x 12, never paid back in its year.
    assert costs(reserved)["1y"]["total_usd"] == 494
    assert reserved["break_even_month"] is None
    # No upfront still bills its 730 hours a month.
    no_upfront = row(body, "reserved", "1y", "no_upfront", "standard")
    assert costs(no_upfront)["1m"]["hourly_usd"] == pytest.approx(
        no_upfront["hourly_usd"] * 730, abs=0.01
    )
    # At 600 hours a month: 494 / (0.096 x 600) = 8.6 months, so month 9.
    busier = get(instance_type="m5.large", region="us-east-1", hours_per_month=600).json()
    assert row(busier, "reserved", "1y", "all_upfront", "standard")["break_even_month"] == 9


@pytest.mark.parametrize("hours", ["0", "731", "half"])
def test_hours_of_use_outside_a_month_are_a_400_naming_them(m5_prices, hours):
    response = get(instance_type="m5.large", region="us-east-1", hours_per_month=hours)
    assert response.status_code == 400
    assert list(response.json()) == ["hours_per_month"]


@pytest.mark.parametrize("count", [10, 1000])
def test_it_answers_in_three_queries_whatever_the_number_of_prices(count):
    instance_type = InstanceType.objects.create(name="m5.large")
    region = Region.objects.get(code="us-east-1")
    Price.objects.bulk_create(
        Price(
            instance_type=instance_type,
            region=region,
            purchase_option="spot",
            availability_zone=f"zone-{index % 6}",
            usd_per_hour=Decimal("0.03"),
            effective_from=datetime.date(2000, 1, 1) + datetime.timedelta(days=index),
            effective_to=datetime.date(2000, 1, 2) + datetime.timedelta(days=index),
            source="test",
        )
        for index in range(count)
    )
    with CaptureQueriesContext(connection) as captured:
        response = get(instance_type="m5.large", region="us-east-1")
    assert response.status_code == 200
    assert [row["purchase_option"] for row in response.json()["results"]] == ["spot"]
    assert len(captured) <= 3, [query["sql"][:120] for query in captured]


def test_the_api_root_lists_it():
    assert APIClient().get("/api/v1/").json()["commitment-cost"].endswith(URL)
