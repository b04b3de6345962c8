"""`python manage.py import_results FILE...`: store runs through the upload service."""

import datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.models import Run
from benchmarks.services import runs as run_services


class Command(BaseCommand):
    help = "Parse and store benchmark outputs for one instance type and region."

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", type=Path)
        parser.add_argument("--instance-type", required=True)
        parser.add_argument("--region", required=True)
        parser.add_argument("--variant", default="")
        parser.add_argument("--measured-at", type=datetime.date.fromisoformat)
        parser.add_argument("--format", default="auto", choices=["auto", *parsers.FORMATS])
        parser.add_argument("--source", default="")
        parser.add_argument("--licence", default="")

    def handle(self, *args, **options):
        failed = 0
        for path in options["files"]:
            try:
                content = path.read_bytes()
            except OSError as error:
                raise CommandError(f"{path}: cannot read: {error.strerror}") from None
            try:
                run, created = run_services.record_run(
                    content=content,
                    filename=path.name,
                    instance_type_name=options["instance_type"],
                    region_code=options["region"],
                    variant=options["variant"],
                    measured_at=options["measured_at"],
                    format=options["format"],
                    source=options["source"],
                    licence=options["licence"],
                )
            except DomainError as error:
                raise CommandError(f"{path}: {error.message}") from None
            if not created:
                self.stdout.write(f"{path}: already imported as run {run.pk}; nothing stored")
            elif run.status == Run.Status.FAILED:
                failed += 1
                self.stderr.write(f"{path}: run {run.pk} failed: {run.error}")
            else:
                self.stdout.write(
                    f"{path}: run {run.pk} stored {run.results.count()} results"
                    + (f" ({'; '.join(run.warnings)})" if run.warnings else "")
                )
        if failed:
            raise CommandError(f"{failed} of {len(options['files'])} files failed")
