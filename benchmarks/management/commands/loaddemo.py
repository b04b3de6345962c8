"""`python manage.py loaddemo`: the bundled demo prices and results. Idempotent."""

from django.core.management.base import BaseCommand

from benchmarks.services.demo import load_demo


class Command(BaseCommand):
    help = "Load the bundled demo data (prices and benchmark results, with their sources)."

    def handle(self, *args, **options):
        summary = load_demo()
        self.stdout.write(
            f"demo loaded: prices {summary.prices}; runs stored {summary.runs_stored}, "
            f"already present {summary.runs_present}"
        )
