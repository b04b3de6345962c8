"""`python manage.py reparse [RUN_ID ...] [--format F] [--failed] [--all]`: parse stored runs'
raw outputs again with today's parsers (after a parser fix) and keep their statistics true."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.inspector import SOURCE as SPARECORES_SOURCE
from benchmarks.models import Result, Run
from benchmarks.services import runs as run_services


class Command(BaseCommand):
    help = (
        "Parse stored runs' raw outputs again with the current parsers, one transaction per "
        "run: its old results leave the statistics, the new ones enter them through the one "
        "ingest pipeline. Running it twice changes nothing more. Runs read by the Spare Cores "
        "import and a table's rows are left alone (import again; parse the table's run)."
    )

    def add_arguments(self, parser):
        parser.add_argument("run_ids", nargs="*", type=int, metavar="RUN_ID")
        parser.add_argument(
            "--format", choices=parsers.FORMATS, help="every run stored in this format"
        )
        parser.add_argument("--failed", action="store_true", help="only runs that failed")
        parser.add_argument("--all", action="store_true", help="every run that can be")

    def handle(self, *args, **options):
        ids = options["run_ids"]
        if not (ids or options["format"] or options["failed"] or options["all"]):
            raise CommandError("name the runs: RUN_ID ..., --format FORMAT, --failed or --all")
        runs = Run.objects.all()
        if ids:
            missing = sorted(set(ids) - set(runs.filter(pk__in=ids).values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no run {', '.join(map(str, missing))}")
            runs = runs.filter(pk__in=ids)
        else:
            # Chosen by kind: the runs that can be parsed again (run_services.why_not_reparsed).
            runs = (
                runs.filter(parent=None)
                .exclude(status=Run.Status.PENDING)
                .exclude(raw_output="")
                .exclude(source=SPARECORES_SOURCE)
            )
        if options["format"]:
            runs = runs.filter(format=options["format"])
        if options["failed"]:
            runs = runs.filter(status=Run.Status.FAILED)

        counts = {"unchanged": 0, "changed": 0, "refused": 0}
        for run_id in runs.order_by("pk").values_list("pk", flat=True):
            before = _outcome(run_id)
            try:
                run = run_services.reparse_run(run_id=run_id)
            except DomainError as error:
                counts["refused"] += 1
                self.stderr.write(error.message)
                continue
            after = _outcome(run_id)
            if after == before:
                counts["unchanged"] += 1
                continue
            counts["changed"] += 1
            self.stdout.write(
                f"run {run_id}: {before[0]} with {len(before[1])} results -> {run.status} "
                f"with {len(after[1])} results{f' ({run.error})' if run.error else ''}"
            )
        self.stdout.write(
            f"{counts['changed'] + counts['unchanged']} runs parsed again: "
            f"{counts['changed']} changed, {counts['unchanged']} unchanged"
            + (f"; {counts['refused']} refused (named above)" if counts["refused"] else "")
        )
        if counts["refused"]:
            raise CommandError(f"{counts['refused']} runs could not be parsed again", returncode=1)


def _outcome(run_id: int) -> tuple[str, list, str]:
    """A run's status, its (and its table's rows') results as values, and its error."""
    status, error = Run.objects.filter(pk=run_id).values_list("status", "error").get()
    results = sorted(
        (benchmark, json.dumps(params, sort_keys=True), value)
        for benchmark, params, value in Result.objects.filter(
            Q(run=run_id) | Q(run__parent=run_id)
        ).values_list("benchmark_id", "params", "value")
    )
    return status, results, error
