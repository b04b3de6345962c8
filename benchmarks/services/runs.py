"""Writes for benchmark runs: accept an upload, then parse and store it, exactly once."""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, Result, Run
from benchmarks.parsers import ParsedOutput, ParsedResult, ParseError
from benchmarks.selectors.lookups import get_instance_type, get_region
from benchmarks.services import statistics

TABULAR_FORMATS = ("csv", "json")


def _upload_key(content_hash: str, instance_type: str, region: str, variant: str) -> str:
    return f"{content_hash}:{instance_type}:{region}:{variant}"


def check_upload_size(size: int) -> None:
    """Refuse an upload over PRICEBENCH_MAX_UPLOAD_BYTES before reading it (413)."""
    limit = settings.PRICEBENCH_MAX_UPLOAD_BYTES
    if size > limit:
        raise DomainError(
            f"the file is {size:,} bytes; the limit is {limit:,} bytes",
            field="file",
            status_code=413,
        )


@transaction.atomic
def submit_run(
    *,
    content: bytes,
    filename: str = "",
    instance_type_name: str | None = None,
    region_code: str | None = None,
    variant: str = "",
    measured_at: datetime.date | None = None,
    format: str = "auto",  # noqa: A002
    source: str = "",
    licence: str = "",
    uploaded_by=None,
) -> tuple[Run, bool]:
    """Accept one uploaded output as a pending run; returns (run, created).

    The same content for the same machine and variant returns the existing run. Input that
    can be refused before parsing (too large, binary, not UTF-8, unknown machine) raises
    DomainError and writes nothing.
    """
    check_upload_size(len(content))
    if format not in ("auto", *parsers.FORMATS):
        raise DomainError(
            f"unknown format {format!r}; choose one of auto, {', '.join(parsers.FORMATS)}",
            field="format",
        )
    try:
        text = parsers.decode(content)
    except ParseError as error:
        raise DomainError(str(error), field="file") from None

    instance_type = get_instance_type(instance_type_name) if instance_type_name else None
    region = get_region(region_code) if region_code else None
    if instance_type and not region:
        raise DomainError("region is required with an instance_type", field="region")
    if region and not instance_type:
        raise DomainError("instance_type is required with a region", field="instance_type")
    try:
        detected = parsers.detect_format(text) if format == "auto" else format
    except ParseError as error:
        raise DomainError(str(error), field="file") from None
    if instance_type is None and detected not in TABULAR_FORMATS:
        raise DomainError(
            f"{detected} output does not name its machine: give instance_type and region",
            field="instance_type",
        )

    content_hash = hashlib.sha256(content).hexdigest()
    key = _upload_key(
        content_hash,
        instance_type.name if instance_type else "",
        region.code if region else "",
        variant,
    )
    existing = Run.objects.filter(upload_key=key).first()
    if existing is not None:
        return existing, False
    run = Run.objects.create(
        instance_type=instance_type,
        region=region,
        variant=variant,
        measured_at=measured_at,
        format=detected,
        filename=filename[:255],
        raw_output=text,
        content_hash=content_hash,
        upload_key=key,
        source=source,
        licence=licence,
        uploaded_by=uploaded_by,
    )
    return run, True


def _benchmark_for(result: ParsedResult, cache: dict[str, Benchmark]) -> Benchmark:
    benchmark = cache.get(result.benchmark)
    if benchmark is None:
        benchmark, _ = Benchmark.objects.get_or_create(
            key=result.benchmark,
            defaults={"unit": result.unit, "higher_is_better": result.higher_is_better},
        )
        cache[result.benchmark] = benchmark
    if benchmark.unit != result.unit:
        raise ParseError(
            f"{result.benchmark} is measured in {benchmark.unit!r}, not {result.unit!r}"
        )
    return benchmark


def _result_rows(
    run: Run, results: list[ParsedResult], cache: dict[str, Benchmark]
) -> list[Result]:
    return [
        Result(
            run=run,
            benchmark=_benchmark_for(result, cache),
            params=result.params,
            value=result.value,
            notes=result.notes or "",
        )
        for result in results
    ]


def _store(rows: list[Result]) -> None:
    """Store results in their series, all of an upload at once."""
    statistics.attach_series(rows)
    Result.objects.bulk_create(rows, batch_size=5000)


def _tabular_rows(run: Run, parsed: ParsedOutput, cache: dict[str, Benchmark]) -> list[Result]:
    """A table names its machines per row: one child run per machine, variant, date, CPU."""
    groups: dict[tuple, list[ParsedResult]] = defaultdict(list)
    for result in parsed.results:
        key = (
            result.instance_type or (run.instance_type.name if run.instance_type_id else None),
            result.region or (run.region.code if run.region_id else None),
            result.variant if result.variant is not None else run.variant,
            result.measured_at or (run.measured_at.isoformat() if run.measured_at else None),
            result.cpu_model or "",
            result.source or run.source,
            result.licence or run.licence,
        )
        if key[0] is None or key[1] is None:
            raise ParseError(f"{result.benchmark}: a row needs an instance_type and a region")
        groups[key].append(result)
    rows: list[Result] = []
    for key, results in groups.items():
        type_name, region_code, variant, measured_at, cpu_model, source, licence = key
        try:
            instance_type = get_instance_type(type_name)
            region = get_region(region_code)
        except DomainError as error:
            raise ParseError(error.message) from None
        child = Run.objects.create(
            parent=run,
            instance_type=instance_type,
            region=region,
            variant=variant or "",
            cpu_model=cpu_model,
            measured_at=datetime.date.fromisoformat(measured_at) if measured_at else None,
            format=parsed.format,
            status=Run.Status.DONE,
            source=source,
            licence=licence,
            uploaded_by=run.uploaded_by,
            finished_at=timezone.now(),
        )
        rows.extend(_result_rows(child, results, cache))
    return rows


@transaction.atomic
def ingest_run(*, run_id: int) -> Run:
    """Parse a pending run and store its results in one transaction; a no-op once done.

    A parse error marks the run failed with the parser's message and stores no results.
    """
    run = (
        Run.objects.select_for_update(of=("self",))
        .select_related("instance_type", "region")
        .get(pk=run_id)
    )
    if run.status != Run.Status.PENDING:
        return run
    cache: dict[str, Benchmark] = {}
    try:
        # The savepoint lets a failure undo partial results but keep the failed status.
        with transaction.atomic():
            parsed = parsers.parse(run.raw_output, format=run.format or "auto")
            if not parsed.results:
                raise ParseError("the output holds no benchmark results")
            if parsed.format in TABULAR_FORMATS:
                rows = _tabular_rows(run, parsed, cache)
            else:
                if run.instance_type_id is None:
                    raise ParseError(
                        f"{parsed.format} output does not name its machine: "
                        "upload it with an instance_type and a region"
                    )
                rows = _result_rows(run, parsed.results, cache)
            _store(rows)
    except ParseError as error:
        run.status = Run.Status.FAILED
        run.error = str(error)
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
        return run
    run.format = parsed.format
    run.tool_version = parsed.tool_version or ""
    run.cpu_model = parsed.cpu_model or run.cpu_model
    run.warnings = parsed.warnings
    run.status = Run.Status.DONE
    run.finished_at = timezone.now()
    run.save()
    statistics.refresh_series(statistics.series_of_run(run.pk))
    return run


@transaction.atomic
def delete_run(*, run: Run) -> None:
    """Delete a run (and a table's child runs) with its results; its statistics follow."""
    touched = set(statistics.series_of_run(run.pk).values_list("series_id", flat=True))
    run.delete()
    statistics.refresh_series(touched, removed=True)


@transaction.atomic
def reparse_run(*, run_id: int) -> Run:
    """Parse a run's raw output again (after a parser fix): its old results and statistics go."""
    run = Run.objects.select_for_update(of=("self",)).get(pk=run_id)
    touched = set(statistics.series_of_run(run.pk).values_list("series_id", flat=True))
    run.children.all().delete()
    run.results.all().delete()
    statistics.refresh_series(touched, removed=True)
    run.status = Run.Status.PENDING
    run.error = ""
    run.warnings = []
    run.finished_at = None
    run.save(update_fields=["status", "error", "warnings", "finished_at"])
    return ingest_run(run_id=run.pk)


def upload_run(*, file, **submission: Any) -> tuple[Run, bool]:
    """An uploaded file (API or page): checked, stored as pending, parsed by a Celery worker.

    `file` is a Django UploadedFile; its size is checked before it is read.
    """
    from benchmarks.tasks import ingest_run as ingest_task  # tasks import this module

    check_upload_size(file.size)
    run, created = submit_run(content=file.read(), filename=file.name or "", **submission)
    if created:
        transaction.on_commit(lambda: ingest_task.delay(run.pk))
    return run, created


def record_run(**submission: Any) -> tuple[Run, bool]:
    """Submit and ingest in this process (commands, demo data): (finished run, created)."""
    run, created = submit_run(**submission)
    if created:
        run = ingest_run(run_id=run.pk)
    return run, created
