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
