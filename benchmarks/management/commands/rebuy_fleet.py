"""`python manage.py rebuy_fleet FILE (--benchmark KEY [--param NAME=VALUE ...] | --profile KEY)
[--regions same|any] [--at YYYY-MM-DD] [--format json|csv] [--progress]`: `POST fleets/` for a
file on disk, of any size (a million-row FOCUS bill is over the upload limit). The same question
form, reader, re-buy and answer as the API; a progress bar over the file's bytes on stderr."""

import os
import sys

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from api.renderers import CSVRenderer, FastJSONRenderer
from api.subjects.fleet_views import FleetAnswerSerializer
from benchmarks.errors import DomainError
from benchmarks.fleet.answer import answer_fleet_file, csv_rows
from benchmarks.questions.fleet import REGIONS, FleetForm


class Command(BaseCommand):
    help = (
        "Re-buy a fleet file (instance_type,region,count,hours CSV or a FOCUS 1.2 export) at "
        "equal work, as POST /api/v1/fleets/ does but with no size limit; the answer as JSON "
        "or FOCUS-named CSV on stdout. Nothing is stored."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the fleet file: a plain CSV or a FOCUS 1.2 export")
        parser.add_argument("--benchmark", help="re-buy at equal work on this benchmark")
        parser.add_argument(
            "--param",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="one of the benchmark's own parameters, e.g. block_size=8192 (repeatable)",
        )
        parser.add_argument("--profile", help="re-buy at equal work on this workload profile")
        parser.add_argument("--regions", choices=REGIONS, help="same (default) or any")
        parser.add_argument("--at", metavar="YYYY-MM-DD", help="prices in force that day")
        parser.add_argument("--format", choices=("json", "csv"), default="json")
        parser.add_argument(
            "--progress",
            action="store_true",
            help="show the progress bar even when stderr is not a terminal",
        )

    def handle(self, *args, **options):
        form = FleetForm(_query(options))
        if not form.is_valid():
            raise CommandError(form.error_text())
        path = options["file"]
        try:
            # Unbuffered: the reader's text layer then calls `read`, which moves the bar (a
            # buffered file is read through `read1`, which the bar does not see).
            binary = open(path, "rb", buffering=0)
        except OSError as error:
            raise CommandError(f"{path}: {error.strerror}") from None
        show = options["progress"] or sys.stderr.isatty()
        size = os.fstat(binary.fileno()).st_size
        with (
            binary,
            tqdm.wrapattr(
                binary, "read", total=size, desc=os.path.basename(path), disable=not show
            ) as watched,
        ):
            try:
                answer = answer_fleet_file(watched, form.question())
            except DomainError as error:
                raise CommandError(_what_is_wrong(path, error)) from None
        if options["format"] == "csv":
            body = CSVRenderer().render(csv_rows(answer))
        else:
            data = FleetAnswerSerializer(answer).data
            body = FastJSONRenderer().render(data, renderer_context={"indent": 2})
        self.stdout.write(body.decode(), ending="\n")


def _query(options: dict) -> dict[str, str]:
    """The options as `POST fleets/`'s query: the question's fields and the benchmark's own."""
    query = {}
    for param in options["param"]:
        name, equals, value = param.partition("=")
        if not equals or not name.strip():
            raise CommandError(f"--param {param!r}: write NAME=VALUE, e.g. block_size=8192")
        if name.strip() in FleetForm.base_fields:
            raise CommandError(f"--param {param!r}: give {name.strip()} as --{name.strip()}")
        query[name.strip()] = value.strip()
    for name in ("benchmark", "profile", "regions", "at"):
        if options[name] is not None:
            query[name] = options[name]
    return query


def _what_is_wrong(path: str, error: DomainError) -> str:
    """The error in one line, named by the file or by the option at fault."""
    if error.field == "file":
        return f"{path}: {error.message}"
    return f"{error.field}: {error.message}" if error.field else error.message
