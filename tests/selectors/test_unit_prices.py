"""Unit prices: a vCPU-hour and a GiB-hour on each type, checked by hand against the demo's
prices (benchmarks/demo/prices.csv and fargate_rates.csv)."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Price, Region
from benchmarks.questions.unit_prices import UnitPricesQuery
from benchmarks.selectors.costs.unit_prices import FARGATE_SPOT_MISSING, unit_prices

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]

TODAY = datetime.date(2026, 11, 24)
# The demo's prices start on this day (the catalogs' date).
DEMO_PRICES_FROM = datetime.date(2026, 7, 20)


def ask(**options):
    options.setdefault("region", "us-east-1")
    options.setdefault("at", TODAY)
    return unit_prices(query=UnitPricesQuery(**options))


def row_of(answer, name):
    return next(row for row in answer.results if row.instance_type == name)


def test_c7g_large_costs_its_hourly_price_over_two_vcpus_and_over_four_gib():
    row = row_of(ask(), "c7g.large")
    # $0.0725 an hour on demand in us-east-1; 2 vCPUs, 4 GiB.
    assert (row.usd_per_hour, row.vcpus, row.memory_gib) == (0.0725, 2.0, 4.0)
    assert row.usd_per_vcpu_hour == 0.03625
    assert row.usd_per_gib_hour == 0.018125
    assert (row.family, row.architecture) == ("c7g", "arm64")
    assert row.price_effective_from == DEMO_PRICES_FROM and row.price_note is None


def test_t2_nano_and_c7i_large_are_divided_the_same_way():
    answer = ask()
    nano, c7i = row_of(answer, "t2.nano"), row_of(answer, "c7i.large")
    assert (nano.usd_per_vcpu_hour, nano.usd_per_gib_hour) == (0.0058, 0.0116)  # 1 vCPU, 0.5 GiB
    assert (c7i.usd_per_vcpu_hour, c7i.usd_per_gib_hour) == (0.044625, 0.0223125)  # $0.08925


def test_a_burstable_types_vcpu_hour_is_also_given_at_what_it_sustains():
    answer = ask()
    nano = row_of(answer, "t2.nano")
    # $0.0058 a vCPU-hour, sustained at 5% of it: exactly $0.116 (floats: 0.11599999999999999).
    share = InstanceType.objects.get(name="t2.nano").baseline_share
    assert share == Decimal("0.05")
    expected = Decimal(str(nano.usd_per_vcpu_hour)) / share
    assert nano.usd_per_sustained_vcpu_hour == float(expected) == 0.116
    # Not burstable, or a Fargate task: none.
    assert row_of(answer, "c7i.large").usd_per_sustained_vcpu_hour is None
    assert row_of(answer, "fargate-1vcpu-2gb").usd_per_sustained_vcpu_hour is None
    # t2's cheapest sustained vCPU-hour is t2.small's ($0.023 at 20%), not t2.nano's.
    t2, c7i = answer.summary_of("t2", "x86_64"), answer.summary_of("c7i", "x86_64")
    assert (t2.usd_per_sustained_vcpu_hour, t2.sustained_vcpu_hour_instance_type) == (
        0.115,
        "t2.small",
    )
    assert (c7i.usd_per_sustained_vcpu_hour, c7i.sustained_vcpu_hour_instance_type) == (None, None)


def test_spot_is_the_median_of_the_regions_zones():
    row = row_of(ask(purchase_option="spot"), "c7g.large")
    # Five zones: 0.0398, 0.0356, 0.0361, 0.0303, 0.0331; the middle one is 0.0356.
    assert row.usd_per_hour == 0.0356
    assert row.usd_per_vcpu_hour == 0.0178 and row.usd_per_gib_hour == 0.0089
    assert row.price_note == "median of 5 availability zones"


def test_fargate_task_sizes_are_priced_from_the_rates_of_their_architecture():
    answer = ask()
    x86, arm = row_of(answer, "fargate-1vcpu-2gb"), row_of(answer, "fargate-1vcpu-2gb-arm64")
    # x86: $0.04048 per vCPU-hour + 2 x $0.004445 per GB-hour; arm64: 0.03238 + 2 x 0.00356.
    assert (x86.usd_per_hour, x86.usd_per_vcpu_hour, x86.usd_per_gib_hour) == (
        0.04937,
        0.04937,
        0.024685,
    )
    assert (arm.usd_per_hour, arm.usd_per_vcpu_hour, arm.usd_per_gib_hour) == (
        0.0395,
        0.0395,
        0.01975,
    )
    assert x86.price_effective_from == datetime.date(2019, 1, 7)
    assert arm.price_effective_from == datetime.date(2021, 11, 23)
    fargate = [row for row in answer.results if row.family == "fargate"]
    assert len(fargate) == 2 * 74  # every valid size, x86_64 and arm64
    rates = {
        rate.architecture: (rate.usd_per_vcpu_hour, rate.usd_per_gb_hour)
        for rate in answer.fargate_rates
    }
    # As stored, exactly: the task sizes are priced from them in Decimals.
    assert rates == {
        "x86_64": (Decimal("0.04048"), Decimal("0.004445")),
        "arm64": (Decimal("0.03238"), Decimal("0.00356")),
    }


def test_each_family_names_its_cheapest_vcpu_hour_and_gib_hour_per_architecture():
    answer = ask()
    fargate_x86 = answer.summary_of("fargate", "x86_64")
    # Every size with 2 GB per vCPU costs 0.04937 a vCPU-hour; the first listed is the smallest.
    assert (fargate_x86.usd_per_vcpu_hour, fargate_x86.vcpu_hour_instance_type) == (
        0.04937,
        "fargate-0.25vcpu-0.5gb",
    )
    # 8 GB per vCPU is the most memory per vCPU (0.25 vCPU with 2 GB, 0.5 with 4):
    # (0.25 x 0.04048 + 2 x 0.004445) / 2.
    assert fargate_x86.usd_per_gib_hour == 0.009505
    assert fargate_x86.gib_hour_instance_type == "fargate-0.25vcpu-2gb"
    t2 = answer.summary_of("t2", "x86_64")
    assert (t2.usd_per_vcpu_hour, t2.vcpu_hour_instance_type) == (0.0058, "t2.nano")
    assert [(row.family, row.architecture) for row in answer.summary][:2] == [
        ("fargate", "x86_64"),
        ("fargate", "arm64"),
    ]
    assert {row.family for row in answer.summary} == {"fargate", "t2", "c7g", "c7a", "c7i"}


def test_fargate_has_no_spot_rate_and_the_answer_says_so_instead_of_failing():
    answer = ask(purchase_option="spot")
    assert not [row for row in answer.results if row.family == "fargate"]
    assert [
        (m.family, m.instance_type, m.reason) for m in answer.missing if m.family == "fargate"
    ] == [("fargate", None, FARGATE_SPOT_MISSING)]
    # Five zones: 0.0373, 0.032, 0.0343, 0.03, 0.0317.
    assert row_of(answer, "c7i.large").usd_per_hour == 0.032


def test_a_day_before_every_ec2_price_says_which_price_it_used():
    answer = ask(at=datetime.date(2017, 12, 13))
    task = row_of(answer, "fargate-0.25vcpu-0.5gb")
    # Study S1's launch rates, in force that day: 0.25 x 0.0506 + 0.5 x 0.0127.
    assert (task.usd_per_hour, task.price_effective_from, task.price_note) == (
        0.019,
        datetime.date(2017, 11, 29),
        None,
    )
    # Fargate's arm64 sizes were first sold on 2021-11-23: not priced at a later rate, but
    # left out, and the answer says why.
    assert not any(row.instance_type.endswith("-arm64") for row in answer.results)
    assert (
        "fargate",
        None,
        "Fargate's arm64 (Graviton2) tasks were first sold on 2021-11-23, after 2017-12-13",
    ) in [(m.family, m.instance_type, m.reason) for m in answer.missing]
    c7g = row_of(answer, "c7g.large")
    assert c7g.price_effective_from == DEMO_PRICES_FROM
    assert c7g.price_note == (
        "no price in force on 2017-12-13; using the earliest price known, in force from 2026-07-20"
    )


def test_a_type_without_its_sizes_keeps_what_can_be_worked_out_and_is_listed_as_missing():
    for name, vcpus in (("zz1.large", 2), ("zz1.xlarge", None)):
        Price.objects.create(
            instance_type=InstanceType.objects.create(name=name, vcpus=vcpus),
            region=Region.objects.get(code="us-east-1"),
            purchase_option="on_demand",
            usd_per_hour=Decimal("0.1"),
            effective_from=datetime.date(2024, 1, 1),
            source="test",
        )
    answer = ask(families=("zz1",))
    row = row_of(answer, "zz1.large")
    assert (row.usd_per_vcpu_hour, row.usd_per_gib_hour, row.architecture) == (0.05, None, None)
    assert row_of(answer, "zz1.xlarge").usd_per_vcpu_hour is None
    assert [(m.instance_type, m.reason) for m in answer.missing] == [
        ("zz1.large", "no memory size known for zz1.large: no price per GiB-hour"),
        (
            "zz1.xlarge",
            "no vCPU count or memory size known for zz1.xlarge: no price per vCPU-hour or GiB-hour",
        ),
    ]
    summary = answer.summary_of("zz1", None)
    assert (summary.instance_types, summary.usd_per_vcpu_hour, summary.usd_per_gib_hour) == (
        2,
        0.05,
        None,
    )


def test_a_family_without_prices_is_listed_as_missing_not_refused():
    answer = ask(region="ap-northeast-1", families=("c7g", "zz9"))
    assert [row.family for row in answer.results] and {row.family for row in answer.results} == {
        "c7g"
    }
    assert [(m.family, m.reason) for m in answer.missing] == [
        ("zz9", "no on_demand price known for any zz9 type in ap-northeast-1")
    ]


def test_an_unknown_region_is_refused_naming_the_field():
    with pytest.raises(DomainError) as refused:
        ask(region="us-east-9")
    assert refused.value.field == "region" and "us-east-1" in refused.value.message
