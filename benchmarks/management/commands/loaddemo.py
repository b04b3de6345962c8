"""`python manage.py loaddemo [--part all|first|rest|clouds] [--families F,...]`: the bundled
demo data, AWS's first, then the other clouds' (Hetzner Cloud, Google Cloud, Azure, smallest
first). Idempotent; a second load started meanwhile waits for the first, then finds it
stored."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from benchmarks.models import Vendor
from benchmarks.selectors.subjects import workload_vectors
from benchmarks.services import locks, statistics
from benchmarks.services.demo import (
    FIRST_FAMILIES,
    OTHER_CLOUDS,
    ProgressFile,
    load_cloud_demo,
    load_demo,
    load_sparecores_demo,
)

# The name of the lock two loads take in turn (benchmarks/services/locks.py).
LOCK = "pricebench-loaddemo"


class Command(BaseCommand):
    help = "Load the bundled demo data (prices and benchmark results, with their sources)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--part",
            choices=["all", "first", "rest", "clouds"],
            default="all",
            help="first: prices, the studies and Spare Cores' figures of the comparison "
            "page's default families (what the first page shows); rest: Spare Cores' figures "
            "of every other AWS type, then the clouds part (make run loads it in the "
            "background); clouds: Hetzner Cloud's, Google Cloud's and Azure's types, Spare "
            "Cores' figures and prices, in that order; all: everything",
        )
        parser.add_argument(
            "--families",
            default="",
            help="the rest and clouds parts only for these instance type families, "
            "comma-separated (m5,c5,cax): a smaller load",
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

        _bulk_cache()
        # Always in this order (an import_sparecores takes only the second): no deadlock.
        with (
            locks.exclusive(LOCK, waiting=waiting),
            locks.exclusive(locks.SPARECORES_IMPORT, waiting=importing),
        ):
            self._load(part, families)

    def _load(self, part: str, families: set[str]) -> None:
        stored = present = 0
        prices = f"AWS's not loaded (--part {part})"
        if part in ("all", "first"):
            summary = load_demo()
            prices, stored, present = summary.prices, summary.runs_stored, summary.runs_present
        # The parts behind the server (make run) say how far they got on the comparison page.
        progress_file = ProgressFile(settings.PRICEBENCH_DEMO_PROGRESS_FILE)
        try:
            if part in ("all", "rest"):
                rest = self._load_rest(families, progress_file)
                stored += rest.runs_stored
                present += rest.runs_present
            if part in ("all", "rest", "clouds"):
                for vendor in OTHER_CLOUDS:
                    cloud = self._load_cloud(vendor, families, progress_file)
                    stored += cloud.figures.runs_stored
                    present += cloud.figures.runs_present
        finally:
            progress_file.clear()
        statistics.analyze_tables()
        measured = statistics.keep_noise()
        self.stdout.write(f"noise measured for {measured:,} benchmarks")
        # The workload model's matrix as the demo stands: a fresh clone's first workload
        # question reads it in one query instead of every kept median (docs/workload.md).
        workload_vectors.keep_stored()
        _checkpoint()
        self.stdout.write(
            f"demo loaded: prices {prices}; runs stored {stored:,}, already present {present:,}"
        )

    def _progress(self, label: str, progress_file: ProgressFile):
        """A load's progress callback: the page's note, and a line at each tenth."""
        shown = set()

        def progress(done, total, summary):
            progress_file.update(done, total, summary)
            tenth = 10 * done // total if total else 10
            if tenth not in shown:
                shown.add(tenth)
                self.stdout.write(
                    f"{label}: {done:,} of {total:,} instance types "
                    f"({summary.results:,} results stored)"
                )
                self.stdout.flush()

        return progress

    def _load_rest(self, families: set[str], progress_file: ProgressFile):
        progress = self._progress("Spare Cores demo data", progress_file)
        if families:
            return load_sparecores_demo(
                families=families, exclude_families=FIRST_FAMILIES, progress=progress
            )
        return load_sparecores_demo(exclude_families=FIRST_FAMILIES, progress=progress)

    def _load_cloud(self, vendor: str, families: set[str], progress_file: ProgressFile):
        label = Vendor(vendor).label
        progress = self._progress(f"Spare Cores demo data, {label}", progress_file)
        cloud = load_cloud_demo(vendor=vendor, families=families or None, progress=progress)
        if not cloud.loaded:
            self.stdout.write(f"{label}: none of its types is of these families")
            return cloud
        figures = cloud.figures
        specs = cloud.specs.as_specifications() if cloud.specs else "none"
        self.stdout.write(
            f"{label} ({vendor}) loaded: specifications {specs}; instance types "
            f"{figures.instance_types:,} stored, {figures.instance_types_present:,} already "
            f"present; runs stored {figures.runs_stored:,}, already present "
            f"{figures.runs_present:,} ({figures.results:,} results); prices {cloud.prices}"
        )
        self.stdout.flush()
        return cloud


def _checkpoint() -> None:
    """On SQLite, copy the write-ahead log into the database file and empty it.

    In WAL mode (dashboard/settings.py) the last pages a load wrote stay in the log
    (`pricebench.sqlite3-wal`) while another connection (the server's) is open: copied now,
    the database file alone holds the whole demo, as a copy of it expects.
    """
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")


# Kibibytes of SQLite's page cache for the loader's connection (SQLite's default: 2,000).
BULK_CACHE_KIB = 262_144


def _bulk_cache() -> None:
    """On SQLite, a page cache of BULK_CACHE_KIB for this connection alone: the load writes
    into indexes that outgrow the default cache many times over, and reread their pages from
    the file (a tenth of the load's CPU, mostly the system's). The server's connections keep
    the default."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
