"""bench/common.py's bulk path, small: what bench/api.py and bench/page.py measure at a million
results must be the statistics the ingest keeps, or their figures describe another product."""

import importlib.util
import io
import signal
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.models import Result, Run, SeriesStatistics

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("reference_data")]

BENCH = Path(__file__).resolve().parent.parent / "bench" / "common.py"


@pytest.fixture(scope="module")
def common():
    """bench/common.py (the bench folder is not a package), without its SIGTERM handler."""
    handler = signal.getsignal(signal.SIGTERM)
    spec = importlib.util.spec_from_file_location("bench_common", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    signal.signal(signal.SIGTERM, handler)
    return module


def kept() -> list[tuple]:
    return sorted(
        SeriesStatistics.objects.values_list(
            "series__instance_type__name", "measured_in", "runs", "results", "median",
            "minimum", "maximum", "first_quartile", "third_quartile", "cpu_models", "regions",
        )
    )  # fmt: skip


def test_the_bulk_path_keeps_the_statistics_the_ingest_keeps(common):
    names = common.type_names(12, families=3)
    common.create_fleet(names)
    assert common.add_results(names, 4) == 48
    assert common.add_results(names, 3, first_run=4) == 36
    assert Run.objects.filter(source="bench").count() == 84 == Result.objects.count()

    question = {"benchmark": common.BENCHMARK, "region": "ap-northeast-1"}
    before, answer = kept(), APIClient().get("/api/v1/price-performance/", question).json()
    assert len(answer["results"]) == 12
    assert {row["runs"] for row in answer["results"]} == {7}
    assert {tuple(row["measured_in"]) for row in answer["results"]} == {
        ("ap-northeast-1", "us-east-1")
    }

    call_command("rebuild_stats", stdout=io.StringIO())
    assert kept() == before
    assert APIClient().get("/api/v1/price-performance/", question).json() == answer


@pytest.mark.usefixtures("django_db_blocker")
def test_the_checkout_comparison_runs_small_against_this_very_checkout():
    import subprocess
    import sys

    script = BENCH.parent / "checkouts.py"
    done = subprocess.run(
        [sys.executable, str(script), "--baseline", str(BENCH.parent.parent), "--rounds", "1",
         "--types", "12", "--runs", "2", "--cold", "3", "--warm", "3"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "12 types, 24 results" in done.stdout
    assert done.stdout.count("ratio") == 2


@pytest.fixture(scope="module")
def ten_million(common):
    """bench/ten_million.py, loaded like bench/common.py (it imports its neighbours)."""
    import sys

    sys.path.insert(0, str(BENCH.parent))
    handler = signal.getsignal(signal.SIGTERM)
    try:
        spec = importlib.util.spec_from_file_location(
            "bench_ten_million", BENCH.parent / "ten_million.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        signal.signal(signal.SIGTERM, handler)
        sys.path.remove(str(BENCH.parent))
    return module


def test_the_ten_million_bench_loads_what_the_ingest_keeps_and_asks_real_pages(ten_million):
    """Its load, small: runs and results copied in, statistics rebuilt, all of it consistent,
    and the pages it times answer in the queries the targets allow."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.models import BenchmarkCoverage, InstanceType
    from benchmarks.services import statistics

    breadth = ten_million.SyntheticBreadth(types=6)
    breadth.prepare()
    type_ids, per_type, asked = breadth.type_ids, breadth.per_run, breadth.asked
    assert per_type == 198 and len(asked) == per_type and len(set(asked)) == per_type
    question = asked[0]
    # A first size that measures 4 of the 6 types: rebuilding drops the others' series...
    runs = ten_million.load(breadth, 4 * per_type, 0)
    assert runs == 4 and Result.objects.count() == 4 * per_type
    # ... and the next size measures them again, every series of every type.
    runs = ten_million.load(breadth, 12 * per_type, runs)
    assert runs == 12 and Result.objects.count() == 12 * per_type
    assert statistics.check_statistics().clean
    assert BenchmarkCoverage.objects.count() == 6 * len(breadth.benchmark_keys)
    breadth.drop_staging()

    client = Client()
    name = InstanceType.objects.get(pk=type_ids[0]).name
    for path, most in (
        (f"/instance-types/{name}/", 10),
        (f"/api/v1/price-performance/?{question}", 6),
        (f"/api/v1/price-performance/?{asked[-1]}", 6),
        ("/benchmarks/", 2),
        ("/api/v1/runs/", 6),
    ):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(path)
        assert response.status_code == 200, (path, response.content[:300])
        assert len(captured) <= most, (path, len(captured))
    # The host's speed printed beside the figures: a fixed piece of work, timed.
    assert 0 < ten_million.common.host_speed(rounds=3) < 1_000


def test_the_ten_million_bench_replicates_the_demos_breadth(ten_million, tmp_path):
    """The demo breadth, small: the first part of the demo as make run loads it, copied in and
    replicated past one pass; the kept statistics are the ingest's, and its series are the
    demo's own (every copied benchmark and type that holds results)."""
    import sqlite3

    from django.test import Client

    from benchmarks.models import Series
    from benchmarks.services import statistics
    from tests import sqlite_demo

    sqlite_demo.load(tmp_path)
    source = sqlite3.connect(tmp_path / "demo.sqlite3")
    (demo_results,) = source.execute("SELECT count(*) FROM benchmarks_result").fetchone()
    (demo_series,) = source.execute(
        "SELECT count(DISTINCT series_id) FROM benchmarks_result"
    ).fetchone()
    breadth = ten_million.DemoBreadth(tmp_path / "demo.sqlite3", seed=3, questions=30)
    breadth.prepare()
    assert len(breadth.asked) == 30
    # One pass and a half: the demo's own values, then each run again a week earlier.
    wanted = demo_results + demo_results // 2
    runs = ten_million.load(breadth, wanted, 0)
    assert Result.objects.count() >= wanted and runs > len(breadth.order)
    assert Series.objects.count() == demo_series
    assert statistics.check_statistics().clean
    client = Client()
    for question in breadth.asked[:3]:
        response = client.get(f"/api/v1/price-performance/?{question}")
        assert response.status_code == 200, (question, response.content[:300])
