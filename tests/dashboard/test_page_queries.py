"""The pages of issue 56 at fixed numbers of queries on the demo, also once the freshness
window has run out (docs/performance.md, "The pages at the full demo's size")."""

import time

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmarks import freshness

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]


def _queries(client, path: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return [query["sql"] for query in captured.captured_queries]


def _window_run_out(monkeypatch) -> None:
    """As a page asked again a few seconds later: the lookups and the reads kept for the
    freshness window gone, those kept with their data's stamp still there."""
    caches["lookups"].clear()
    later = time.monotonic() + settings.PRICEBENCH_FRESHNESS_SECONDS + 1
    monkeypatch.setattr(freshness.time, "monotonic", lambda: later)


def test_the_comparison_page_takes_at_most_ten_queries_once_the_window_has_run_out(
    client, monkeypatch
):
    _queries(client, "/")
    _window_run_out(monkeypatch)
    queries = _queries(client, "/")
    assert len(queries) <= 10, [sql[:100] for sql in queries]
    # Fargate's rates of every way of paying in one query (the five families side by side).
    assert sum('FROM "benchmarks_fargaterate"' in sql for sql in queries) <= 2


def test_the_comparison_page_decodes_the_noise_of_its_own_benchmark_only(client):
    queries = _queries(client, "/")
    # Every benchmark is read for the menus; its kept noise only under the asked one's key.
    menus = [sql for sql in queries if 'FROM "benchmarks_benchmark"' in sql]
    assert menus and all('"benchmarks_benchmark"."noise",' not in sql for sql in menus)
    assert any('THEN "benchmarks_benchmark"."noise"' in sql for sql in menus)


def test_an_instance_type_page_takes_at_most_eight_queries_after_another(client):
    _queries(client, "/instance-types/c7g.large/")
    queries = _queries(client, "/instance-types/c7a.large/")
    # The type, its prices, ranks and runs; the similar types' (types, statistics, prices):
    # the benchmarks' families are kept, not read by every page.
    assert len(queries) <= 8, [sql[:100] for sql in queries]
    assert not any('FROM "benchmarks_benchmark"' in sql for sql in queries)


def test_benchmarks_index_counts_the_coverage_once_while_no_statistics_change(client):
    first = _queries(client, "/benchmarks/")
    assert len(first) <= 3
    assert any('FROM "benchmarks_benchmarkcoverage"' in sql for sql in first)
    again = _queries(client, "/benchmarks/")
    assert len(again) <= 2
    assert not any('FROM "benchmarks_benchmarkcoverage"' in sql for sql in again)


def test_the_compare_page_reads_each_benchmarks_noise_on_one_row(client):
    queries = _queries(client, "/compare/?types=c7g.xlarge,c7a.xlarge,c7i.xlarge")
    rows = [sql for sql in queries if 'FROM "benchmarks_seriesstatistics"' in sql]
    assert len(rows) == 1 and len(queries) <= 8
    # Taken out of the benchmark's kept noise on its first row only (a window's), not on
    # every statistics row of the three types.
    assert "ROW_NUMBER() OVER" in rows[0] and "CASE WHEN" in rows[0]
