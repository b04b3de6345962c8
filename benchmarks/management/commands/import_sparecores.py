"""`python manage.py import_sparecores PATH [--vendor aws] [--only KIND,...]`.

Reads Spare Cores' inspector data in place (a checkout of SpareCores/sc-inspector-data, a
folder of `<vendor>/<type>/<benchmark>/` folders, or a .tar.xz/.tar.gz of either) and stores
one run per instance type and benchmark folder, one transaction per type: with a broker, one
Celery task per type (each gets its type's files, read here); in process otherwise. Types
stored before are found in one query and skipped, so an interrupted import continues where it
stopped. Progress per kind goes to stderr, the summary to stdout.
"""

from __future__ import annotations

from pathlib import Path

from celery.result import ResultSet
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from benchmarks import inspector
from benchmarks.management.progress import ProgressBars
from benchmarks.models import Vendor
from benchmarks.services import locks, prices, sparecores, statistics
from benchmarks.tasks import import_sparecores_machine

# Spare Cores imports (this command and the demo's rest part) take turns on one database.
LOCK = locks.SPARECORES_IMPORT


class Command(BaseCommand):
    help = (
        "Import Spare Cores' inspector data: a checkout of SpareCores/sc-inspector-data, a "
        "folder of <vendor>/<type>/<benchmark>/ folders, or a .tar.xz/.tar.gz of either."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--vendor",
            default=inspector.DEFAULT_VENDOR,
            choices=Vendor.values,
            help="whose types these are (default aws); another vendor's are stored under it, "
            "with the specifications bundled from Spare Cores' server table where it has one "
            "(a vendor with no price importer keeps its results and specifications; its types "
            "are listed as unpriced)",
        )
        parser.add_argument(
            "--only",
            metavar="KIND,...",
            help=f"import only these benchmark folders: {', '.join(inspector.KINDS)}",
        )
        parser.add_argument(
            "--jobs",
            type=int,
            help="instance types imported at once without a broker (default: 2 on PostgreSQL, "
            "whose work then overlaps Python's; 1 on SQLite, which has one writer)",
        )

    def handle(self, *args, **options):
        path: Path = options["path"]
        try:
            kinds = inspector.check_kinds(options["only"].split(",") if options["only"] else None)
            machines = inspector.read_source(path, vendor=options["vendor"])
        except (ValueError, inspector.SourceError) as error:
            raise CommandError(str(error)) from None
        plans = {machine.name: inspector.plan_machine(machine, kinds=kinds) for machine in machines}
        totals: dict[str, int] = {}
        for plan in plans.values():
            for kind in [*(run.kind for run in plan.runs), *(s.kind for s in plan.skipped)]:
                totals[kind] = totals.get(kind, 0) + 1
            if plan.lscpu_read:
                totals[inspector.LSCPU] = totals.get(inspector.LSCPU, 0) + 1
        progress = ProgressBars(self.stderr, dict(sorted(totals.items())))
        report = sparecores.ImportReport()

        def waiting():
            self.stdout.write(
                "another Spare Cores import is writing to this database: waiting for it to end"
            )
            self.stdout.flush()

        # Two imports take turns: the second, once the first is done, finds its types finished.
        with locks.exclusive(LOCK, waiting=waiting):
            self._import(path, options, machines, plans, kinds, progress, report)

    def _import(self, path, options, machines, plans, kinds, progress, report) -> None:
        if options["vendor"] != Vendor.AWS:
            # Another cloud's types, with their specifications, before their runs.
            specs = prices.import_bundled_specs(vendor=options["vendor"])
            if specs.read:
                self.stdout.write(
                    f"specifications of {options['vendor']}'s types (Spare Cores' server "
                    f"table, bundled): {specs.instance_types_created:,} types created, "
                    f"{specs.specs_updated:,} updated"
                )
            else:
                self.stdout.write(
                    f"{specs.source} (Spare Cores publish no server table of it): each type "
                    "is specified by its own lscpu and PassMark's memory"
                )
        finished = sparecores.finished_machines(plans.values())
        for name in sorted(finished):
            progress.advance(report.add_finished(plans[name]))
        pending = [machine for machine in machines if machine.name not in finished]
        try:
            if settings.CELERY_BROKER_URL:
                self._fan_out(pending, plans, kinds, report, progress)
            else:
                jobs = options["jobs"] or (2 if connection.vendor == "postgresql" else 1)
                for machine, summary in sparecores.import_machines(pending, kinds=kinds, jobs=jobs):
                    if isinstance(summary, Exception):
                        message = f"{type(summary).__name__}: {summary}"
                        progress.advance(report.add_error(plans[machine.name], message))
                    else:
                        progress.advance(report.add(summary))
        except KeyboardInterrupt:
            progress.close()
            self._summary(path, options, report)
            raise CommandError(
                "interrupted: every instance type counted above is stored; "
                "run the same command again to import the rest",
                returncode=130,
            ) from None
        progress.close()
        statistics.analyze_tables()
        self._summary(path, options, report)
        if report.errors:
            raise CommandError(f"the import of {len(report.errors)} instance types failed")

    def _fan_out(self, pending, plans, kinds, report, progress) -> None:
        """One Celery task per type; waits for every summary, counting each as it comes."""
        sent = {
            import_sparecores_machine.delay(machine.as_payload(), list(kinds)).id: machine.name
            for machine in pending
        }
        self.stderr.write(f"sent {len(sent):,} tasks, one per instance type; waiting for them")
        results = ResultSet([import_sparecores_machine.AsyncResult(task_id) for task_id in sent])

        def arrived(task_id, value):
            plan = plans[sent[task_id]]
            if isinstance(value, dict):
                progress.advance(report.add(sparecores.MachineSummary.from_dict(value)))
            else:
                progress.advance(report.add_error(plan, f"{type(value).__name__}: {value}"))

        results.join_native(callback=arrived, propagate=False)

    def _summary(self, path: Path, options, report: sparecores.ImportReport) -> None:
        write = self.stdout.write
        stored, present = sum(report.stored.values()), sum(report.present.values())
        skipped = len(report.skipped)
        write(f"Spare Cores inspector data, {options['vendor']}, from {path}")
        write(
            f"instance types: {report.types_read:,} read, {report.types_with_runs:,} with runs, "
            f"{report.types_created:,} created, {report.types_finished_before:,} already imported"
        )
        write(
            f"runs: {stored:,} stored, {present:,} already present; "
            f"results: {report.results:,} stored; lscpu read for {report.lscpu_read:,} types"
        )
        kinds = sorted(set(report.stored) | set(report.present) | {s[0] for s in report.skipped})
        if kinds:
            write(f"  {'kind':<20} {'stored':>7} {'present':>8} {'skipped':>8}")
            for kind in kinds:
                skipped_here = sum(1 for s in report.skipped if s[0] == kind)
                write(
                    f"  {kind:<20} {report.stored[kind]:>7,} {report.present[kind]:>8,} "
                    f"{skipped_here:>8,}"
                )
        write(f"skipped: {skipped:,} folders")
        for reason, count in report.skipped_by_reason():
            write(f"  {count:>6,}  {reason}")
        for _kind, skipped_path, reason, detail in sorted(report.skipped, key=lambda s: s[1]):
            write(f"  {skipped_path}: {reason}" + (f" ({detail})" if detail else ""))
        for name, error in report.errors:
            self.stderr.write(f"{name}: the import failed: {error}")
