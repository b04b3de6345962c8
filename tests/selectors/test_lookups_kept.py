"""A question's benchmark and region, kept as read for the freshness window: one query, then
the same objects (not an unpickled copy each time), forgotten on a write in this process."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks import freshness
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer import lookups
from tests.selectors.test_price_performance import run_with

pytestmark = pytest.mark.django_db


def test_the_benchmark_in_its_region_is_read_once_in_the_window_and_kept_as_it_is(settings):
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    freshness.forget()
    run_with("c5.large", [100.0])
    query = PricePerformanceQuery(benchmark="openssl:sha256", region="us-east-1")
    assert lookups.cached_benchmark_in_region("openssl:sha256", "us-east-1") is None

    with CaptureQueriesContext(connection) as first:
        read = lookups.benchmark_in_region(query)
    with CaptureQueriesContext(connection) as again:
        kept = lookups.benchmark_in_region(query)
    assert (len(first), len(again)) == (1, 0)
    # The object itself, as the view's look-up before validating finds it too: no copy is
    # unpickled for each (a benchmark's noise is up to 360 kB).
    assert kept is read
    assert lookups.cached_benchmark_in_region("openssl:sha256", "us-east-1") is read
    assert read.benchmark.key == "openssl:sha256" and read.region.code == "us-east-1"

    # A write in this process forgets it (every write of results or prices says so).
    freshness.data_changed()
    assert lookups.cached_benchmark_in_region("openssl:sha256", "us-east-1") is None
    with CaptureQueriesContext(connection) as after:
        fresh = lookups.benchmark_in_region(query)
    assert len(after) == 1 and fresh is not read

    # Without a window, every question reads them.
    settings.PRICEBENCH_FRESHNESS_SECONDS = 0
    assert lookups.cached_benchmark_in_region("openssl:sha256", "us-east-1") is None
    with CaptureQueriesContext(connection) as unkept:
        lookups.benchmark_in_region(query)
    assert len(unkept) == 1


def test_the_written_out_read_gives_the_orms_benchmark_and_region():
    """On PostgreSQL the read is one statement written out (`_written_benchmark_in_region`):
    every field of the benchmark and region as the ORM's read gives it, its JSON included;
    an unknown name still answers the lookup's error naming the closest."""
    assert connection.vendor == "postgresql"
    run_with("c5.large", [100.0, 104.0], key="stress-ng:cpu", params={"workers": 1})
    lookups.Benchmark.objects.filter(key="stress-ng:cpu").update(
        noise={"relative": 0.02, "by": {"a|b": [1, 2.5, None]}}, families=["c5"]
    )
    through_orm = lookups._orm_benchmark_in_region("stress-ng:cpu", "us-east-1")
    with CaptureQueriesContext(connection) as captured:
        written = lookups._read_benchmark_in_region("stress-ng:cpu", "us-east-1")
    assert len(captured) == 1
    fields = [field.attname for field in lookups.Benchmark._meta.concrete_fields]
    assert [getattr(written.benchmark, name) for name in fields] == [
        getattr(through_orm.benchmark, name) for name in fields
    ]
    assert written.benchmark.noise == {"relative": 0.02, "by": {"a|b": [1, 2.5, None]}}
    assert written.benchmark.params == {"workers": [1]}
    assert written.benchmark.get_deferred_fields() == set()
    assert not written.benchmark._state.adding
    assert [getattr(written.region, name) for name in lookups.REGION_FIELDS] == [
        getattr(through_orm.region, name) for name in lookups.REGION_FIELDS
    ]
    for benchmark, region, field in [
        ("stress-ng:cpux", "us-east-1", "benchmark"),
        ("stress-ng:cpu", "us-east-9", "region"),
    ]:
        with pytest.raises(lookups.DomainError) as error:
            lookups._read_benchmark_in_region(benchmark, region)
        assert error.value.field == field


def test_large_values_past_their_bound_go_once_an_answer_is_sent(settings, client):
    """What a process keeps of questions' rows is let go after each response is sent (Django's
    request_finished), the least recently used first, not in the middle of the next answer;
    outside requests it never holds more than LARGE_KEYS_AT_MOST."""
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    freshness.forget()
    bound, most = freshness.LARGE_KEYS, freshness.LARGE_KEYS_AT_MOST
    for number in range(bound + 3):
        freshness.keep(f"rows:{number}", [number], large=True)
    assert freshness.kept("rows:0", large=True) == [0]  # used again: now the most recent
    for number in range(bound + 3, most + 5):
        freshness.keep(f"rows:{number}", [number], large=True)
    assert len(freshness._LARGE) == most
    assert freshness.kept("rows:1", large=True) is None  # the least recently used went first

    assert client.get("/healthz").status_code == 200
    assert len(freshness._LARGE) == bound
    assert list(freshness._LARGE) == [
        f"rows:{number}" for number in range(most + 5 - bound, most + 5)
    ]
    freshness.forget()
