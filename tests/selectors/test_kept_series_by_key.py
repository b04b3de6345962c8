"""The commonest question's statistics read in one statement written out
(`kept_series.read_by_key`): the same rows as the ORM's read, in one query, once the
region's machines are kept."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks import freshness
from benchmarks.models import Benchmark, InstanceType, Region
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer import kept_series
from benchmarks.selectors.answer.lookups import benchmark_in_region
from tests.selectors.test_price_performance import run_with

pytestmark = pytest.mark.django_db

KEY = "stress-ng:cpu"


@pytest.fixture
def fleet():
    """AWS types (two variants of one, several runs of another, one of each parameter set)
    and a Hetzner type the AWS region never prices."""
    for index, name in enumerate(["m5.large", "c5.large", "a1.medium", "t3.micro"]):
        for workers in (1, 2):
            run_with(name, [100.0 + index, 90.0 * workers], key=KEY, params={"workers": workers})
    run_with("c5.large", [120.0], key=KEY, params={"workers": 1}, variant="base")
    run_with("c5.large", [80.0, 130.0], key=KEY, params={"workers": 1}, region="us-west-2")
    InstanceType.objects.filter(name="t3.micro").update(cpu_allocation="burstable")
    run_with("cx22", [50.0], key=KEY, params={"workers": 1}, region=None)
    InstanceType.objects.filter(name="cx22").update(vendor="hcloud")
    return benchmark_in_region(PricePerformanceQuery(benchmark=KEY, region="us-east-1"))


@pytest.mark.parametrize("extras", [(), kept_series.EXTRAS[:2], kept_series.EXTRAS])
def test_the_written_out_read_gives_the_orms_rows_in_one_query(settings, fleet, extras):
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    freshness.forget()
    benchmark, region = Benchmark.objects.get(key=KEY), Region.objects.get(code="us-east-1")
    query = PricePerformanceQuery(benchmark=KEY, region="us-east-1", params={"workers": 1})
    scope = kept_series.statistics_in_scope(benchmark, query, {"workers": 1}, vendor="aws")
    key = kept_series.exact_params_key(benchmark, {"workers": 1})
    # Not before the region's machines are kept: the ORM's read keeps them.
    assert kept_series.read_by_key(benchmark, key, extras, region=region) is None
    through_orm = kept_series.read_kept_series(scope, extras, region=region)
    with CaptureQueriesContext(connection) as captured:
        written_out = kept_series.read_by_key(benchmark, key, extras, region=region)
    assert len(captured) == 1
    assert written_out == through_orm
    assert [(row.machine.name, row.variant) for row in written_out] == [
        ("a1.medium", ""),
        ("c5.large", ""),
        ("c5.large", "base"),
        ("m5.large", ""),
        ("t3.micro", ""),
    ]
    # Every column in its place (the tuple's own order), the JSON texts decoded.
    c5 = written_out[1]
    assert (c5.params, c5.runs, c5.results, c5.minimum, c5.maximum) == (
        {"workers": 1}, 2, 4, 80.0, 130.0,
    )  # fmt: skip
    assert c5.regions == sorted(c5.regions) and set(c5.regions) == {"us-east-1", "us-west-2"}
    assert written_out[4].machine.allocation == "burstable"


def test_a_question_of_another_parameter_set_reads_its_rows_in_one_query(settings, fleet):
    """The answer's own path: once a question kept the region's machines, another parameter
    set's rows come from the written-out read, the same as a reader without it gets."""
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    freshness.forget()
    benchmark, region = Benchmark.objects.get(key=KEY), Region.objects.get(code="us-east-1")

    def rows(workers):
        query = PricePerformanceQuery(
            benchmark=KEY, region="us-east-1", params={"workers": workers}
        )
        with CaptureQueriesContext(connection) as captured:
            found = kept_series.question_rows(benchmark, query, {"workers": workers}, region=region)
        return found, [entry["sql"] for entry in captured.captured_queries]

    first, _ = rows(1)
    second, queries = rows(2)
    assert len(queries) == 1 and "CAST(s.cpu_models AS text)" in queries[0]
    freshness.forget()
    settings.PRICEBENCH_FRESHNESS_SECONDS = 0  # nothing kept: the ORM's read every time
    again, queries = rows(2)
    assert "CAST(s.cpu_models AS text)" not in queries[0]
    assert second == again and [row.params for row in second] == [{"workers": 2}] * 4
