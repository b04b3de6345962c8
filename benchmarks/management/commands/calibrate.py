"""`python manage.py calibrate [--benchmark B] [--measure] [--write-docs]`: print each
benchmark's noise quantiles and how its tie margin and 90% intervals did on repeat pairs held
out of them (selectors/answer/calibration.py); docs/noise.md shows this output."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from benchmarks.models import Benchmark
from benchmarks.selectors.answer import calibration
from benchmarks.services import statistics

DOCS = Path(settings.BASE_DIR) / "docs" / "noise.md"


class Command(BaseCommand):
    help = (
        "Print the calibration table: per benchmark the quantiles of max/min - 1 between two "
        "runs of one machine, the tie margin (p95), and on repeat pairs held out of them "
        "(older runs estimate, newer runs test) the share beyond the margin and the share "
        "of second runs inside the 90% interval."
    )

    def add_arguments(self, parser):
        parser.add_argument("--benchmark", help="one benchmark key (default: every benchmark)")
        parser.add_argument(
            "--measure",
            action="store_true",
            help="measure the noise again first (every benchmark asked, not only changed ones)",
        )
        parser.add_argument(
            "--write-docs",
            action="store_true",
            help=f"also write the table into {DOCS.name} between its calibrate markers",
        )

    def handle(self, *args, **options):
        key = options["benchmark"]
        if key is not None and not Benchmark.objects.filter(key=key).exists():
            raise CommandError(f"--benchmark: no benchmark {key!r} (see GET /api/v1/benchmarks/)")
        if options["measure"]:
            ids = (
                None
                if key is None
                else list(Benchmark.objects.filter(key=key).values_list("pk", flat=True))
            )
            statistics.keep_noise(ids, stale_only=False)
        table = calibration.calibration_table(calibration.calibration_lines(key))
        self.stdout.write(table)
        if options["write_docs"]:
            DOCS.write_text(calibration.with_table(DOCS.read_text(), table))
            self.stderr.write(f"written into {DOCS}")
