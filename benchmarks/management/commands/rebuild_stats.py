"""`python manage.py rebuild_stats [--check]`: recompute every kept statistic from the stored
results, or (`--check`) only say which kept figures disagree with a recomputation."""

import time

from django.core.management.base import BaseCommand, CommandError

from benchmarks.services import statistics

# Differences printed one a line; the rest are counted.
DIFFERENCES_SHOWN = 100


class Command(BaseCommand):
    help = (
        "Recompute the statistics kept at ingest (per series and region) and every "
        "benchmark's summary from the stored results. Changes no answer on a consistent "
        "database. With --check, change nothing and exit 1 naming what differs."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--check",
            action="store_true",
            help="compare every kept statistic with a recomputation, write nothing, exit 1 "
            "(naming benchmark, parameters, instance type, region, field, kept and "
            "recomputed value) if any differs",
        )

    def handle(self, *args, **options):
        started = time.monotonic()
        if options["check"]:
            self._check(started)
            return
        summary = statistics.rebuild_statistics()
        self.stdout.write(
            f"{summary['statistics']} statistics rows written; "
            f"{summary['results_attached']} results given a series; "
            f"{summary['empty_series_deleted']} empty series deleted "
            f"({time.monotonic() - started:.1f} s)"
        )

    def _check(self, started: float) -> None:
        report = statistics.check_statistics()
        for difference in report.differences[:DIFFERENCES_SHOWN]:
            self.stdout.write(str(difference))
        hidden = len(report.differences) - DIFFERENCES_SHOWN
        if hidden > 0:
            self.stdout.write(f"... and {hidden} more differences")
        checked = (
            f"{report.rows} statistics rows of {report.series} series and "
            f"{report.benchmarks} benchmark summaries checked "
            f"({time.monotonic() - started:.1f} s)"
        )
        if not report.clean:
            raise CommandError(
                f"{len(report.differences)} kept figures differ from a recomputation from the "
                f"stored results; {checked}. `python manage.py rebuild_stats` rewrites them.",
                returncode=1,
            )
        self.stdout.write(f"statistics clean: {checked}")
