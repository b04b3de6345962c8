"""The landing page's five side by side, on the demo: lines per family and architecture,
and how to measure the families without results."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.models import FargateRate, InstanceType, Price, Region
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.pages.comparison import comparison
from benchmarks.selectors.pages.five_families import agent_options, for_comparison, side_by_side
from dashboard.charts import family_options_chart
from tests.api.test_unit_prices import fleet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]

TODAY = datetime.date(2026, 11, 24)


def test_the_landing_section_lists_the_five_and_how_to_measure_those_without_results():
    region = Region.objects.get(code="us-east-1")
    section = side_by_side(
        region=region,
        at=TODAY,
        benchmark_key="openssl:aes-256-cbc",
        families_with_results=["t2", "c7g", "c7a", "c7i", "m5"],
    )
    assert [(line.family, line.architecture) for line in section.lines] == [
        ("fargate", "x86_64"),
        ("fargate", "arm64"),
        ("t2", "x86_64"),
        ("c7g", "arm64"),
        ("c7a", "x86_64"),
        ("c7i", "x86_64"),
    ]
    c7g = section.lines[3]
    assert (c7g.on_demand.usd_per_vcpu_hour, c7g.spot.usd_per_vcpu_hour) > (0, 0)
    assert section.lines[0].spot is None  # no Fargate Spot rate
    assert section.measured == ["t2", "c7g", "c7a", "c7i"]
    [fargate] = section.unmeasured
    assert fargate.how_to_measure.agent_options == "--algorithms aes-256-cbc"
    assert (fargate.how_to_measure.task_cpu, fargate.how_to_measure.task_memory) == (1024, 2048)
    assert fargate.how_to_measure.instance_type == "fargate-1vcpu-2gb"


def test_the_landing_section_suggests_each_families_cheapest_type_to_measure():
    section = side_by_side(
        region=Region.objects.get(code="us-east-1"),
        at=TODAY,
        benchmark_key="keycloak:oauth2-login",
        families_with_results=["c7g"],
    )
    suggested = {line.family: line.how_to_measure for line in section.unmeasured}
    assert suggested["t2"].instance_type == "t2.nano"
    assert suggested["c7a"].instance_type == "c7a.medium"
    assert suggested["t2"].agent_options is None  # the agent does not run Keycloak


def test_the_agent_options_follow_the_benchmarks_tool():
    assert agent_options("openssl:aes-128-gcm") == "--algorithms aes-128-gcm"
    assert agent_options("iperf3:tcp") == "--no-openssl --iperf3 IPERF3_SERVER"
    assert agent_options("sysbench:cpu") == "--no-openssl --sysbench"
    assert agent_options("fio:randread").startswith("--no-openssl --fio ")
    assert agent_options("keycloak:oauth2-login") is None


def test_the_comparison_pages_section_takes_its_region_day_and_benchmark():
    result = comparison(
        PricePerformanceQuery(
            benchmark="openssl:aes-128-gcm", region="ap-northeast-1", at=datetime.date(2018, 1, 5)
        )
    )
    section = for_comparison(result)
    assert (section.region.code, section.at, section.benchmark) == (
        "ap-northeast-1",
        datetime.date(2018, 1, 5),
        "openssl:aes-128-gcm",
    )
    # Study S1 measured Fargate with aes-128-gcm.
    assert "fargate" in section.measured


def test_a_refused_question_has_no_section():
    assert (
        for_comparison(comparison(PricePerformanceQuery(benchmark="no:such", region="us-east-1")))
        is None
    )


@pytest.mark.parametrize("count", [10, 1000])
def test_it_reads_in_two_queries_whatever_the_number_of_types(count, django_assert_max_num_queries):
    fleet(count)
    region = Region.objects.get(code="us-east-1")
    # EC2's prices of every way of paying together; Fargate's rates on demand, under a
    # Savings Plan and as Fargate Spot together.
    with django_assert_max_num_queries(2):
        section = side_by_side(
            region=region,
            at=TODAY,
            benchmark_key="openssl:aes-256-cbc",
            families_with_results=[],
            families=("fargate", "zz1"),
        )
    assert section.on_demand.summary_of("zz1", "x86_64").instance_types == count
    assert section.spot.summary_of("zz1", "x86_64").usd_per_vcpu_hour == 0.01  # median 0.02 / 2


def test_every_way_of_paying_the_families_vcpu_hour_is_charted_and_the_missing_named():
    region = Region.objects.get(code="us-east-1")
    c7g = InstanceType.objects.get(name="c7g.large")  # 2 vCPUs
    start = datetime.date(2024, 1, 1)
    for option, extra, usd in (
        ("reserved", {"offering_class": "standard"}, "0.046"),
        ("savings_plan", {"plan": "compute"}, "0.05"),
    ):
        Price.objects.create(
            instance_type=c7g, region=region, purchase_option=option, term="1y",
            payment="no_upfront", usd_per_hour=Decimal(usd), hourly_usd=Decimal(usd),
            upfront_usd=Decimal(0), effective_from=start, source="test", **extra,
        )  # fmt: skip
    for component, usd in (("vcpu", "0.0121"), ("memory_gb", "0.0013")):
        FargateRate.objects.create(
            region=region, architecture="x86_64", operating_system="linux",
            component=component, purchase_option="fargate_spot",
            usd_per_unit_hour=Decimal(usd), effective_from=start, source="test",
        )  # fmt: skip
    section = side_by_side(region=region, at=TODAY, benchmark_key=None, families_with_results=[])
    chart = family_options_chart(section)
    by_label = {series["label"]: series["values"] for series in chart["series"]}
    assert list(by_label) == [
        "on_demand",
        "spot",
        "reserved (1y, no_upfront, standard)",
        "savings_plan (compute, 1y, no_upfront)",
        "fargate_spot",
    ]
    assert chart["missing"] == []
    row = chart["labels"].index("c7g (arm64)")
    assert by_label["reserved (1y, no_upfront, standard)"][row] == pytest.approx(0.023)
    assert by_label["savings_plan (compute, 1y, no_upfront)"][row] == pytest.approx(0.025)
    # Reserved prices only for c7g: the other families' bars are missing, not zero.
    assert (
        by_label["reserved (1y, no_upfront, standard)"][chart["labels"].index("t2 (x86_64)")]
        is None
    )
    fargate = chart["labels"].index("fargate (x86_64)")
    assert by_label["fargate_spot"][fargate] is not None
    assert by_label["fargate_spot"][fargate] < by_label["on_demand"][fargate]
