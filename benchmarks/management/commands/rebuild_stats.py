"""`python manage.py rebuild_stats`: recompute every kept statistic from the stored results."""

import time

from django.core.management.base import BaseCommand

from benchmarks.services import statistics


class Command(BaseCommand):
    help = (
        "Recompute the statistics kept at ingest (per series and region) and every "
        "benchmark's summary from the stored results. Changes no answer on a consistent database."
    )

    def handle(self, *args, **options):
        started = time.monotonic()
        summary = statistics.rebuild_statistics()
        self.stdout.write(
            f"{summary['statistics']} statistics rows written; "
            f"{summary['results_attached']} results given a series; "
            f"{summary['empty_series_deleted']} empty series deleted "
            f"({time.monotonic() - started:.1f} s)"
        )
