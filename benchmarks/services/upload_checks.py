"""What an upload must pass before anything is stored: size, encoding, format, the texts'
lengths, every result of a table, the machines it names. Each failure is a DomainError
naming the field (a 400, or 413 when too large)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.utils import timezone

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region, Run, Series
from benchmarks.parsers import ParsedOutput, ParsedResult, ParseError
from benchmarks.selectors.answer.lookups import by_name, get_instance_type, get_region
from benchmarks.services import statistics

TABULAR_FORMATS = ("csv", "json")


def upload_key(content_hash: str, instance_type: str, region: str, variant: str) -> str:
    """A run's natural key: its content's sha256 and the machine ("" for no region)."""
    return f"{content_hash}:{instance_type}:{region}:{variant}"


# Longest free texts a run's source and a result's notes may carry.
MAX_SOURCE = 2_000
MAX_NOTES = 10_000


def _limit(model, name: str) -> int:
    return model._meta.get_field(name).max_length


def _check_length(what: str, value: str | None, limit: int, *, field: str | None = None) -> None:
    if value and len(value) > limit:
        raise DomainError(
            f"{what} is {len(value):,} characters long; at most {limit:,}: {value[:40]!r}...",
            field=field,
        )


def check_submission_texts(*, variant: str, source: str, licence: str) -> None:
    """An upload's own text fields fit their columns (checked before anything is stored)."""
    _check_length("variant", variant, _limit(Run, "variant"), field="variant")
    _check_length("licence", licence, _limit(Run, "licence"), field="licence")
    _check_length("source", source, MAX_SOURCE, field="source")


def latest_measured_day() -> datetime.date:
    """The latest day a run may have been measured: today here, and a day more for an
    uploader whose time zone is already tomorrow."""
    return timezone.localdate() + datetime.timedelta(days=1)


def check_measured_at(measured_at: datetime.date | None) -> None:
    """An upload's `measured_at` is not a day still to come (a 400 naming it)."""
    latest = latest_measured_day()
    if measured_at is not None and measured_at > latest:
        raise DomainError(
            f"{measured_at.isoformat()} is a day still to come: a run's measured_at is "
            f"at the latest {latest.isoformat()} (today, with a day's allowance for time zones)",
            field="measured_at",
        )


def check_results(results: list[ParsedResult]) -> None:
    """Every result fits what stores it: key, unit, texts, parameters, a date not ahead.

    Used at upload for tables (a 400 naming the problem) and at ingest for every output.
    """
    latest = latest_measured_day()
    # (attribute, how the message names it, the longest it may be), looked up once rather
    # than per result.
    texts = (
        ("benchmark", "benchmark {}", _limit(Benchmark, "key")),
        ("unit", "the unit of {}", _limit(Benchmark, "unit")),
        ("variant", "the variant of {}", _limit(Run, "variant")),
        ("cpu_model", "the cpu_model of {}", _limit(Run, "cpu_model")),
        ("licence", "the licence of {}", _limit(Run, "licence")),
        ("source", "the source of {}", MAX_SOURCE),
        ("notes", "the notes of {}", MAX_NOTES),
    )
    params_limit = _limit(Series, "params_key")
    dates_ahead: dict[str, bool] = {}
    for result in results:
        for attribute, label, limit in texts:
            value = getattr(result, attribute)
            if value and len(value) > limit:
                _check_length(label.format(f"{result.benchmark[:60]!r}"), value, limit)
        if result.params:
            key = statistics.params_key(result.params)
            if len(key) > params_limit:
                _check_length(f"the parameters of {result.benchmark[:60]!r}", key, params_limit)
        if result.measured_at:
            ahead = dates_ahead.get(result.measured_at)
            if ahead is None:
                ahead = dates_ahead[result.measured_at] = (
                    datetime.date.fromisoformat(result.measured_at) > latest
                )
            if ahead:
                raise DomainError(
                    f"{result.benchmark[:60]!r} was measured_at {result.measured_at}, "
                    "a day still to come"
                )


def check_table(text: str, format: str) -> ParsedOutput:  # noqa: A002
    """A table is read at upload, so that a bad row is a 400 naming it, not a failed run.

    Returns what it read, which an ingest in the same process need not read again."""
    limit = settings.PRICEBENCH_MAX_RESULTS_PER_UPLOAD
    lines = text.count("\n")
    if format == "csv" and lines > limit + 1:  # counted before reading a row
        raise DomainError(
            f"the table has {lines:,} lines; at most {limit:,} results per upload",
            field="file",
            status_code=413,
        )
    try:
        parsed = parsers.parse(text, format=format)
    except ParseError as error:
        raise DomainError(str(error), field="file") from None
    if len(parsed.results) > limit:
        raise DomainError(
            f"the table has {len(parsed.results):,} results; at most {limit:,} per upload",
            field="file",
            status_code=413,
        )
    try:
        check_results(parsed.results)
        by_name(InstanceType, "name", _named(parsed, "instance_type"), get_instance_type)
        by_name(Region, "code", _named(parsed, "region"), get_region)
    except DomainError as error:
        raise DomainError(f"in the table: {error.message}", field="file") from None
    return parsed


def _named(parsed: ParsedOutput, attribute: str) -> set[str]:
    return {getattr(result, attribute) for result in parsed.results} - {None}


def check_upload_size(size: int) -> None:
    """Refuse an upload over PRICEBENCH_MAX_UPLOAD_BYTES before reading it (413)."""
    limit = settings.PRICEBENCH_MAX_UPLOAD_BYTES
    if size > limit:
        raise DomainError(
            f"the file is {size:,} bytes; the limit is {limit:,} bytes",
            field="file",
            status_code=413,
        )


def checked_content(content: bytes, format: str) -> str:  # noqa: A002
    """The upload's text, once the content itself passes submit_run's checks (DomainError)."""
    check_upload_size(len(content))
    if format not in ("auto", *parsers.FORMATS):
        raise DomainError(
            f"unknown format {format!r}; choose one of auto, {', '.join(parsers.FORMATS)}",
            field="format",
        )
    try:
        return parsers.decode(content)
    except ParseError as error:
        raise DomainError(str(error), field="file") from None


def detected_format(text: str, format: str) -> str:  # noqa: A002
    try:
        return parsers.detect_format(text) if format == "auto" else format
    except ParseError as error:
        raise DomainError(str(error), field="file") from None
