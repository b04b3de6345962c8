"""bench/demo_rows.py, small: the tables the ingest benches send against a loaded database
measure its own series again (issue 56), or the figures describe another workload."""

import importlib.util
import sys
from pathlib import Path

import pytest

from benchmarks.models import InstanceType, Result, Run, Series, SeriesStatistics
from benchmarks.services import runs as run_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("reference_data")]

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.fixture(scope="module")
def demo_rows():
    """bench/demo_rows.py (the bench folder is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_demo_rows", BENCH / "demo_rows.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_demo_rows"] = module
    spec.loader.exec_module(module)
    return module


def table(rows: list[tuple]) -> bytes:
    lines = ["benchmark,instance_type,region,value,unit,param.size,param.mode"]
    lines += [",".join(map(str, row)) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def test_a_demo_shaped_table_measures_the_databases_own_series_again(demo_rows):
    for name in ("c7g.large", "m5.large"):
        InstanceType.objects.get_or_create(name=name)
    run_services.record_run(
        content=table(
            [("tool:a", "c7g.large", "us-east-1", 10.0, "op/s", 1, "read"),
             ("tool:a", "c7g.large", "us-east-1", 20.0, "op/s", 2, "read"),
             ("tool:b", "m5.large", "ap-northeast-1", 5.0, "B/s", 1, "")]
        ),
        format="csv",
    )  # fmt: skip
    series = Series.objects.count()
    machines = demo_rows.machines_of(10)
    assert sorted((name, len(shapes)) for name, shapes in machines) == [
        ("c7g.large", 2),
        ("m5.large", 1),
    ]
    run, _ = run_services.record_run(content=demo_rows.csv_table(machines), format="csv")
    assert run.status == Run.Status.DONE, run.error
    # Every row went to a series the database had, each now with two runs.
    assert Series.objects.count() == series
    assert Result.objects.count() == 6
    runs = SeriesStatistics.objects.filter(measured_in="").values_list("runs", flat=True)
    assert set(runs) == {2}
    # An upload: one machine's series, on a day of its own.
    c7g = next(machine for machine in machines if machine[0] == "c7g.large")
    lines = demo_rows.upload_table(c7g, 3).decode().splitlines()
    assert len(lines) == 3 and all(",2026-10-29," in line for line in lines[1:])
