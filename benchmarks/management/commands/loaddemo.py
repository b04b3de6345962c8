"""`python manage.py loaddemo [--part all|first|rest] [--families F,...]`: the bundled demo
data. Idempotent; a second load started meanwhile waits for the first, then finds it stored."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from benchmarks.selectors.comparison import DEFAULT_FAMILIES
from benchmarks.services import locks, statistics
from benchmarks.services.demo import ProgressFile, load_demo, load_sparecores_demo

# The name of the lock two loads take in turn (benchmarks/services/locks.py).
LOCK = "pricebench-loaddemo"


class Command(BaseCommand):
    help = "Load the bundled demo data (prices and benchmark results, with their sources)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--part",
            choices=["all", "first", "rest"],
            default="all",
            help="first: prices, the studies and Spare Cores' figures of the comparison "
            "page's default families (what the first page shows); rest: Spare Cores' figures "
            "of every other instance type (make run loads them in the background); all: both",
        )
        parser.add_argument(
            "--families",
            default="",
            help="the rest part only for these instance type families, comma-separated "
            "(m5,c5): a smaller load",
        )

    def handle(self, *args, **options):
        part = options["part"]
        families = {name.strip() for name in options["families"].split(",") if name.strip()}
        if families and part == "first":
            raise CommandError("--families chooses what the rest part loads: not with --part first")

        def waiting():
            self.stdout.write("another loaddemo is loading this database: waiting for it to end")
            self.stdout.flush()

        def importing():
            self.stdout.write("a Spare Cores import is writing to this database: waiting for it")
            self.stdout.flush()

        # Always in this order (an import_sparecores takes only the second): no deadlock.
        with (
            locks.exclusive(LOCK, waiting=waiting),
            locks.exclusive(locks.SPARECORES_IMPORT, waiting=importing),
        ):
            self._load(part, families)

    def _load(self, part: str, families: set[str]) -> None:
        stored = present = 0
        prices = "not loaded (--part rest)"
        if part in ("all", "first"):
            summary = load_demo()
            prices, stored, present = summary.prices, summary.runs_stored, summary.runs_present
        if part in ("all", "rest"):
            rest = self._load_rest(families)
            stored += rest.runs_stored
            present += rest.runs_present
        statistics.analyze_tables()
        self.stdout.write(
            f"demo loaded: prices {prices}; runs stored {stored}, already present {present}"
        )

    def _load_rest(self, families: set[str]):
        progress_file = ProgressFile(settings.PRICEBENCH_DEMO_PROGRESS_FILE)
        shown = set()

        def progress(done, total, summary):
            progress_file.update(done, total, summary)
            tenth = 10 * done // total if total else 10
            if tenth not in shown:
                shown.add(tenth)
                self.stdout.write(
                    f"Spare Cores demo data: {done:,} of {total:,} instance types "
                    f"({summary.results:,} results stored)"
                )
                self.stdout.flush()

        try:
            if families:
                return load_sparecores_demo(
                    families=families, exclude_families=DEFAULT_FAMILIES, progress=progress
                )
            return load_sparecores_demo(exclude_families=DEFAULT_FAMILIES, progress=progress)
        finally:
            progress_file.clear()
