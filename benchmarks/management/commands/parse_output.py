"""`python manage.py parse_output FILE`: parse one raw output and print it as JSON."""

import argparse
import json
from pathlib import Path

from django.core.management.base import BaseCommand

from benchmarks import parsers


class Command(BaseCommand):
    help = "Parse one raw benchmark output and print the results as JSON; writes nothing."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", default="auto", choices=["auto", *parsers.FORMATS])
        parser.add_argument(
            "--processes",
            type=_positive_whole_number,
            help="processes the run used, for outputs that do not record it "
            "(Spare Cores' openssl parsed.json, bw_mem)",
        )
        parser.add_argument(
            "--cpu-method",
            help="stress-ng's --cpu-method, which its log does not print (Spare Cores: div16)",
        )

    def handle(self, *args, **options):
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as error:
            self._fail(f"{path}: cannot read: {error.strerror}")
        try:
            parsed = parsers.parse(
                data,
                format=options["format"],
                processes=options["processes"],
                cpu_method=options["cpu_method"],
            )
        except parsers.ParseError as error:
            self._fail(f"{path}: {error}")
        self.stdout.write(json.dumps(parsed.as_json(), indent=2))

    def _fail(self, message: str) -> None:
        # docs/formats.md: status 1 and one line on stderr, nothing on stdout.
        self.stderr.write(message)
        raise SystemExit(1)


def _positive_whole_number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text!r}")
    return int(text)
