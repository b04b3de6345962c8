"""How long withdrawing one run takes on a loaded database, and in how many queries.

    DATABASE_URL=sqlite:////path/to/demo.sqlite3 .venv/bin/python bench/withdraw.py \
        [--runs 5] [--check]

The database is a SQLite file holding the full demo (`make run` builds one under var/): it is
copied to a temporary file, migrated there and written there, so the file given is only read.
Withdraws the `--runs` done runs with the most results (one transaction each, through
`services.withdraw.withdraw_run`, as the API does), printing each one's results, seconds and
queries; `--check` then runs `rebuild_stats --check`'s comparison (about two minutes on the
full demo) and says whether it is clean.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("sqlite:///"):
        raise SystemExit("DATABASE_URL must name the SQLite file of a loaded demo")
    source = Path(url.removeprefix("sqlite://"))
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "withdraw.sqlite3"
        shutil.copyfile(source, copy)
        os.environ["DATABASE_URL"] = f"sqlite:///{copy}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
        os.environ.setdefault("DEBUG", "true")
        import django

        django.setup()
        measure(args.runs, args.check)


def measure(runs: int, check: bool) -> None:
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.test.utils import CaptureQueriesContext

    from benchmarks.models import Result, Run
    from benchmarks.services import statistics
    from benchmarks.services.withdraw import withdraw_run

    call_command("migrate", verbosity=0)
    print(f"{Result.objects.count():,} results; withdrawing the {runs} runs with the most")
    chosen = list(
        Run.objects.filter(status=Run.Status.DONE, parent=None)
        .annotate(results_count=Count("results"))
        .order_by("-results_count", "pk")
        .values_list("pk", "results_count")[:runs]
    )
    for run_id, results in chosen:
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            withdraw_run(run_id=run_id)
        seconds = time.perf_counter() - start
        print(f"  run {run_id:>7}: {results:>5} results  {seconds:6.2f} s  {len(queries)} queries")
    if check:
        start = time.perf_counter()
        report = statistics.check_statistics()
        verdict = "clean" if report.clean else f"{len(report.differences)} differences"
        print(f"rebuild_stats --check: {verdict} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
