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
