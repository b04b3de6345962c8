"""Writes for benchmark runs: accept an upload, then parse and store it, exactly once."""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from benchmarks import catalog, parsers
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region, Result, Run
from benchmarks.parsers import ParsedOutput, ParsedResult, ParseError
from benchmarks.selectors.lookups import get_instance_type, get_region
from benchmarks.services import statistics

TABULAR_FORMATS = ("csv", "json")


def upload_key(content_hash: str, instance_type: str, region: str, variant: str) -> str:
    """A run's natural key: its content's sha256 and the machine ("" for no region)."""
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
    text = _checked_content(content, format)
    instance_type = get_instance_type(instance_type_name) if instance_type_name else None
    region = get_region(region_code) if region_code else None
    if instance_type and not region:
        raise DomainError("region is required with an instance_type", field="region")
    if region and not instance_type:
        raise DomainError("instance_type is required with a region", field="instance_type")
    detected = _detected_format(text, format)
    if instance_type is None and detected not in TABULAR_FORMATS:
        raise DomainError(
            f"{detected} output does not name its machine: give instance_type and region",
            field="instance_type",
        )

    content_hash = hashlib.sha256(content).hexdigest()
    key = upload_key(
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


def _checked_content(content: bytes, format: str) -> str:  # noqa: A002
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


def _detected_format(text: str, format: str) -> str:  # noqa: A002
    try:
        return parsers.detect_format(text) if format == "auto" else format
    except ParseError as error:
        raise DomainError(str(error), field="file") from None


def _new_benchmark(result: ParsedResult) -> Benchmark:
    group, description = catalog.describe(result.benchmark, result.unit, result.higher_is_better)
    return Benchmark(
        key=result.benchmark,
        unit=result.unit,
        higher_is_better=result.higher_is_better,
        group=group,
        description=description,
    )


def _benchmarks(results: list[ParsedResult]) -> dict[str, Benchmark]:
    """The benchmarks of these results by key, new ones created: three queries at most."""
    first: dict[str, ParsedResult] = {}
    for result in results:
        first.setdefault(result.benchmark, result)
    # Without the kept summaries (params, families), which only statistics.py reads.
    wanted = Benchmark.objects.only("key", "unit")
    found = {b.key: b for b in wanted.filter(key__in=first)}
    missing = [key for key in first if key not in found]
    if missing:
        Benchmark.objects.bulk_create(
            [_new_benchmark(first[key]) for key in missing],
            ignore_conflicts=True,  # another upload may create the same benchmark
        )
        found.update((b.key, b) for b in wanted.filter(key__in=missing))
    for result in results:
        unit = found[result.benchmark].unit
        if unit != result.unit:
            raise ParseError(f"{result.benchmark} is measured in {unit!r}, not {result.unit!r}")
    return found


@dataclass(slots=True)
class ResultRow:
    """A result on its way into the database: a Result instance took twenty times longer to
    make, which bulk imports of hundreds of thousands felt."""

    run: Run
    benchmark_id: int
    params: dict[str, Any]
    value: float
    notes: str
    series_id: int | None = None  # set by statistics.attach_series

    @property
    def run_id(self) -> int:
        return self.run.pk


def _result_rows(
    run: Run, results: list[ParsedResult], benchmarks: dict[str, Benchmark]
) -> list[ResultRow]:
    return [
        ResultRow(
            run=run,
            benchmark_id=benchmarks[result.benchmark].pk,
            params=result.params,
            value=result.value,
            notes=result.notes or "",
        )
        for result in results
    ]


def _store(rows: list[ResultRow]) -> set[int]:
    """Store results in their series, all of an upload at once; returns their runs' ids."""
    statistics.attach_series(rows)
    statistics.insert_rows(
        Result,
        ("run_id", "benchmark_id", "params", "value", "notes", "series_id"),
        [(r.run_id, r.benchmark_id, r.params, r.value, r.notes, r.series_id) for r in rows],
    )
    return {row.run_id for row in rows}


def _tabular_rows(
    run: Run, parsed: ParsedOutput, benchmarks: dict[str, Benchmark]
) -> list[ResultRow]:
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
    instance_types = _by_name(InstanceType, "name", {key[0] for key in groups}, get_instance_type)
    regions = _by_name(Region, "code", {key[1] for key in groups}, get_region)
    now = timezone.now()
    children = Run.objects.bulk_create(
        Run(
            parent=run,
            instance_type=instance_types[type_name],
            region=regions[region_code],
            variant=variant or "",
            cpu_model=cpu_model,
            measured_at=datetime.date.fromisoformat(measured_at) if measured_at else None,
            format=parsed.format,
            status=Run.Status.DONE,
            source=source,
            licence=licence,
            uploaded_by=run.uploaded_by,
            finished_at=now,
        )
        for type_name, region_code, variant, measured_at, cpu_model, source, licence in groups
    )
    rows: list[ResultRow] = []
    for child, results in zip(children, groups.values(), strict=True):
        rows.extend(_result_rows(child, results, benchmarks))
    return rows


def _by_name(model, field: str, names: set[str], lookup) -> dict:
    """Rows by name in one query; an unknown name fails with the lookup's suggestions."""
    found = {getattr(row, field): row for row in model.objects.filter(**{f"{field}__in": names})}
    for name in sorted(names - found.keys()):
        try:
            lookup(name)
        except DomainError as error:
            raise ParseError(error.message) from None
    return found


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
    try:
        # The savepoint lets a failure undo partial results but keep the failed status.
        with transaction.atomic():
            parsed = parsers.parse(run.raw_output, format=run.format or "auto")
            if not parsed.results:
                raise ParseError("the output holds no benchmark results")
            benchmarks = _benchmarks(parsed.results)
            if parsed.format in TABULAR_FORMATS:
                rows = _tabular_rows(run, parsed, benchmarks)
            else:
                if run.instance_type_id is None:
                    raise ParseError(
                        f"{parsed.format} output does not name its machine: "
                        "upload it with an instance_type and a region"
                    )
                rows = _result_rows(run, parsed.results, benchmarks)
            run_ids = _store(rows)
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
    statistics.refresh_series(statistics.series_of_runs(run_ids))
    return run


def _run_and_children(run: Run) -> list[int]:
    return [run.pk, *run.children.values_list("pk", flat=True)]


@transaction.atomic
def delete_run(*, run: Run) -> None:
    """Delete a run (and a table's child runs) with its results; its statistics follow."""
    touched = set(
        statistics.series_of_runs(_run_and_children(run)).values_list("series_id", flat=True)
    )
    run.delete()
    statistics.refresh_series(touched, removed=True)


@transaction.atomic
def reparse_run(*, run_id: int) -> Run:
    """Parse a run's raw output again (after a parser fix): its old results and statistics go."""
    run = Run.objects.select_for_update(of=("self",)).get(pk=run_id)
    touched = set(
        statistics.series_of_runs(_run_and_children(run)).values_list("series_id", flat=True)
    )
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


# ---- many outputs of one machine at once (bulk imports) ---------------------------------


@dataclass(frozen=True)
class MachineOutput:
    """One output of a known machine for `record_machine_runs`, with what the file omits."""

    content: bytes
    filename: str
    format: str = "auto"
    measured_at: datetime.date | None = None
    tool_version: str = ""
    cpu_model: str = ""
    source: str = ""
    licence: str = ""
    # What the output does not record, for the parser: `processes`, `cpu_method`.
    parse_options: dict[str, Any] = field(default_factory=dict)
    # Results read already (the bundled demo's figures): stored as they are, not parsed.
    parsed: ParsedOutput | None = None
    # When `content` re-expresses another file (the demo's figures of a Spare Cores output),
    # that file's sha256: the run's natural key is the original's.
    content_sha256: str = ""


@dataclass
class MachineRunsOutcome:
    """What `record_machine_runs` did with each output, by filename."""

    stored: dict[str, int] = field(default_factory=dict)  # filename -> results stored
    present: list[str] = field(default_factory=list)  # stored before, left alone
    failed: dict[str, str] = field(default_factory=dict)  # stored as failed runs: the error
    refused: dict[str, str] = field(default_factory=dict)  # not stored (binary, too large)
    run_ids: list[int] = field(default_factory=list)

    @property
    def results(self) -> int:
        return sum(self.stored.values())


@transaction.atomic
def record_machine_runs(
    *,
    instance_type_name: str,
    region_code: str | None,
    outputs: Sequence[MachineOutput],
    variant: str = "",
) -> MachineRunsOutcome:
    """Parse and store many outputs of one machine in one transaction, statistics once.

    The bulk-import path (Spare Cores' inspector data, the bundled demo): the outputs pass
    submit_run's checks and natural key (content hash, machine, variant), so an output
    stored before is left alone; one that cannot be parsed is stored as a failed run with the
    parser's message and no results, as an upload would be. `region_code` None says the
    measuring region is not recorded: such runs count in every region. The API and
    import_results go through submit_run, which keeps requiring a region.
    """
    instance_type = get_instance_type(instance_type_name)
    region = get_region(region_code) if region_code else None
    outcome = MachineRunsOutcome()
    accepted: dict[str, tuple[MachineOutput, str, str, str]] = {}
    for output in outputs:
        try:
            text = _checked_content(output.content, output.format)
            if output.parsed is not None:
                detected = output.parsed.format
            else:
                detected = _detected_format(text, output.format)
        except DomainError as error:
            outcome.refused[output.filename] = error.message
            continue
        digest = output.content_sha256 or hashlib.sha256(output.content).hexdigest()
        key = upload_key(digest, instance_type.name, region.code if region else "", variant)
        if key in accepted:
            outcome.present.append(output.filename)
            continue
        accepted[key] = (output, text, detected, digest)
    existing = set(Run.objects.filter(upload_key__in=accepted).values_list("upload_key", flat=True))

    now = timezone.now()
    fresh: list[tuple[MachineOutput, Run, ParsedOutput | None]] = []
    for key, (output, text, detected, digest) in accepted.items():
        if key in existing:
            outcome.present.append(output.filename)
            continue
        run = Run(
            instance_type=instance_type,
            region=region,
            variant=variant,
            measured_at=output.measured_at,
            format=detected,
            tool_version=output.tool_version[:200],
            cpu_model=output.cpu_model[:200],
            filename=output.filename[:255],
            raw_output=text,
            content_hash=digest,
            upload_key=key,
            source=output.source,
            licence=output.licence,
            finished_at=now,
        )
        fresh.append((output, run, _parsed_or_failed(run, output, text, detected)))
    benchmarks = _machine_benchmarks(fresh)
    Run.objects.bulk_create([run for _, run, _ in fresh], batch_size=500)
    rows: list[ResultRow] = []
    for output, run, parsed in fresh:
        outcome.run_ids.append(run.pk)
        if parsed is None:
            outcome.failed[output.filename] = run.error
        else:
            rows.extend(_result_rows(run, parsed.results, benchmarks))
            outcome.stored[output.filename] = len(parsed.results)
    run_ids = _store(rows)
    # The ids themselves, a few hundred per machine: as a subquery, the refresh's DELETE ran a
    # join that PostgreSQL plans badly while the results table has no statistics yet (rows
    # not yet committed, as in a test or a long load), slower with every machine.
    series_ids = statistics.series_of_runs(run_ids).values_list("series_id", flat=True)
    statistics.refresh_series(sorted(set(series_ids)))
    return outcome


def _parsed_or_failed(
    run: Run, output: MachineOutput, text: str, detected: str
) -> ParsedOutput | None:
    """Parse an output into its (unsaved) run: done with its results, or failed (None)."""
    try:
        parsed = output.parsed or parsers.parse(text, format=detected, **output.parse_options)
        if not parsed.results:
            raise ParseError("the output holds no benchmark results")
    except ParseError as error:
        run.status = Run.Status.FAILED
        run.error = str(error)
        return None
    run.status = Run.Status.DONE
    run.format = parsed.format
    run.tool_version = run.tool_version or (parsed.tool_version or "")[:200]
    run.cpu_model = run.cpu_model or (parsed.cpu_model or "")[:200]
    run.warnings = parsed.warnings
    return parsed


def _machine_benchmarks(
    fresh: list[tuple[MachineOutput, Run, ParsedOutput | None]],
) -> dict[str, Benchmark]:
    """The benchmarks of every parsed output; an output whose unit disagrees with the
    benchmark's fails alone, as its upload would."""

    def every_result() -> list[ParsedResult]:
        return [result for _, _, parsed in fresh if parsed for result in parsed.results]

    try:
        return _benchmarks(every_result())
    except ParseError:
        for index, (output, run, parsed) in enumerate(fresh):
            if parsed is None:
                continue
            try:
                _benchmarks(parsed.results)
            except ParseError as error:
                run.status = Run.Status.FAILED
                run.error = str(error)
                run.warnings = []
                fresh[index] = (output, run, None)
        return _benchmarks(every_result())
