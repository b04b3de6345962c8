"""Writes for benchmark runs: accept an upload, then parse and store it, exactly once."""

from __future__ import annotations

import datetime
import hashlib
import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from benchmarks import catalog, parsers
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, Region, Result, Run
from benchmarks.parsers import ParsedOutput, ParsedResult, ParseError, iperf3
from benchmarks.selectors.lookups import get_instance_type, get_region
from benchmarks.services import statistics

logger = logging.getLogger(__name__)

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


def check_results(results: list[ParsedResult]) -> None:
    """Every result fits what stores it: key, unit, texts, parameters, a date not ahead.

    Used at upload for tables (a 400 naming the problem) and at ingest for every output.
    """
    latest = timezone.localdate() + datetime.timedelta(days=1)
    # (attribute, how the message names it, the longest it may be), looked up once: per
    # result, the field lookups cost more than the checks.
    texts = (
        ("benchmark", "benchmark {}", _limit(Benchmark, "key")),
        ("unit", "the unit of {}", _limit(Benchmark, "unit")),
        ("variant", "the variant of {}", _limit(Run, "variant")),
        ("cpu_model", "the cpu_model of {}", _limit(Run, "cpu_model")),
        ("licence", "the licence of {}", _limit(Run, "licence")),
        ("source", "the source of {}", MAX_SOURCE),
        ("notes", "the notes of {}", MAX_NOTES),
    )
    params_limit = _limit(statistics.Series, "params_key")
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


def _check_table(text: str, format: str) -> ParsedOutput:  # noqa: A002
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
        _by_name(InstanceType, "name", _named(parsed, "instance_type"), get_instance_type)
        _by_name(Region, "code", _named(parsed, "region"), get_region)
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


@transaction.atomic
def submit_run(**submission: Any) -> tuple[Run, bool]:
    """Accept one uploaded output as a pending run; returns (run, created).

    The same content for the same machine and variant returns the existing run. Input that
    can be refused before parsing (too large, binary, not UTF-8, unknown machine) raises
    DomainError and writes nothing. Takes `_submit`'s keywords.
    """
    run, created, _parsed = _submit(**submission)
    return run, created


def _submit(
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
) -> tuple[Run, bool, ParsedOutput | None]:
    """`submit_run`, which it runs in a transaction; also returns the table it read, if any
    (the run's raw output parsed in its format, checked)."""
    text = _checked_content(content, format)
    check_submission_texts(variant=variant, source=source, licence=licence)

    instance_type = get_instance_type(instance_type_name) if instance_type_name else None
    region = get_region(region_code) if region_code else None
    if instance_type and not region:
        raise DomainError("region is required with an instance_type", field="region")
    if instance_type and instance_type.kind == InstanceType.Kind.DATABASE:
        from benchmarks.selectors.databases import ENGINES

        if variant not in ENGINES:
            raise DomainError(
                f"{instance_type.name} is a DB instance class: give its engine as the variant "
                f"({', '.join(ENGINES)})",
                field="variant",
            )
    if region and not instance_type:
        raise DomainError("instance_type is required with a region", field="instance_type")
    detected = _detected_format(text, format)
    if instance_type is None and detected not in TABULAR_FORMATS:
        raise DomainError(
            f"{detected} output does not name its machine: give instance_type and region",
            field="instance_type",
        )
    parsed = _check_table(text, detected) if detected in TABULAR_FORMATS else None

    content_hash = hashlib.sha256(content).hexdigest()
    key = upload_key(
        content_hash,
        instance_type.name if instance_type else "",
        region.code if region else "",
        variant,
    )
    existing = Run.objects.filter(upload_key=key).first()
    if existing is not None:
        return existing, False, None
    try:
        # The same upload sent twice at once: the unique key lets one insert win; the other
        # waits for it and answers with its run.
        with transaction.atomic():
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
    except IntegrityError:
        return Run.objects.get(upload_key=key), False, None
    return run, True, parsed


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
    """Store results in their series, all of an upload at once; returns the series this
    created (for `statistics.refresh_stored`, once the runs are saved)."""
    keys = [statistics.params_key(row.params) for row in rows]
    created = statistics.attach_series(rows, keys=keys)
    stored = statistics.stored_params(keys, [row.params for row in rows])
    statistics.insert_rows(
        Result,
        ("run_id", "benchmark_id", "params", "value", "notes", "series_id"),
        [
            (r.run_id, r.benchmark_id, params, r.value, r.notes, r.series_id)
            for r, params in zip(rows, stored, strict=True)
        ],
    )
    return created


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
    """Rows by name in one query; an unknown name raises the lookup's DomainError, which
    suggests the closest names."""
    found = {getattr(row, field): row for row in model.objects.filter(**{f"{field}__in": names})}
    for name in sorted(names - found.keys()):
        lookup(name)
    return found


def _fail(run: Run, reason: str) -> Run:
    run.status = Run.Status.FAILED
    run.error = reason
    run.finished_at = timezone.now()
    run.save(update_fields=["status", "error", "finished_at"])
    return run


@transaction.atomic
def fail_run(*, run_id: int, reason: str) -> Run:
    """Mark a pending run failed with its reason (a parse that ran out of time)."""
    run = Run.objects.select_for_update(of=("self",)).get(pk=run_id)
    return _fail(run, reason) if run.status == Run.Status.PENDING else run


@transaction.atomic
def ingest_run(*, run_id: int, parsed: ParsedOutput | None = None) -> Run:
    """Parse a pending run and store its results in one transaction; a no-op once done.

    A parse error marks the run failed with the parser's message and stores no results.
    `parsed` is the run's raw output already parsed in its format and checked (a table read
    at upload in this process), which is then not read again.
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
            if parsed is None:
                parsed = parsers.parse(run.raw_output, format=run.format or "auto")
                try:
                    check_results(parsed.results)
                except DomainError as error:
                    raise ParseError(error.message) from None
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
            created = _store(rows)
    except ParseError as error:
        return _fail(run, str(error))
    except (OperationalError, InterfaceError):
        raise  # the database is away: the task retries, the sweep hands the run out again
    except Exception as error:  # noqa: BLE001 (a parser's bug must not leave the run pending)
        logger.exception("parsing run %s failed unexpectedly", run.pk)
        return _fail(run, f"the {run.format or 'output'} parser failed: {type(error).__name__}")
    run.format = parsed.format
    run.tool_version = parsed.tool_version or ""
    run.cpu_model = parsed.cpu_model or run.cpu_model
    run.warnings = parsed.warnings
    run.status = Run.Status.DONE
    run.finished_at = timezone.now()
    run.save()
    statistics.refresh_stored(rows, created=created)
    return run


def _run_and_children(run: Run) -> list[int]:
    return [run.pk, *run.children.values_list("pk", flat=True)]


@transaction.atomic
def delete_run(*, run: Run) -> None:
    """Delete a run (and a table's child runs) with its results; its statistics follow."""
    # Wait for an ingest holding the run to commit, so that its results' series are seen.
    run = Run.objects.select_for_update(of=("self",)).get(pk=run.pk)
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


def combine_processes(*, outputs: list[tuple[str, bytes]]) -> bytes:
    """Several processes' outputs that ran at once -> one measurement's text.

    Only iperf3 sums processes (study S3); each output is checked to be iperf3 before
    anything is stored, and the parser names the process whose output it cannot read.
    """
    check_upload_size(sum(len(content) for _name, content in outputs))
    texts = []
    for number, (name, content) in enumerate(outputs, 1):
        label = name or f"process-{number}"
        try:
            text = parsers.decode(content)
            detected = parsers.detect_format(text)
        except ParseError as error:
            raise DomainError(f"file {number} ({label}): {error}", field="file") from None
        if detected != "iperf3":
            raise DomainError(
                f"file {number} ({label}) is {detected} output: several files make one "
                "measurement only for iperf3 processes run at once",
                field="file",
            )
        if iperf3.split_processes(text):
            raise DomainError(
                f"file {number} ({label}) already holds several processes", field="file"
            )
        texts.append((label, text))
    return iperf3.join_processes(texts).encode()


def upload_run(
    *, file, fields: Mapping[str, Any], more_files: list | tuple = (), uploaded_by=None
) -> tuple[Run, bool]:
    """An uploaded file (API or page): checked, stored as pending, parsed by a Celery worker.

    `file` is a Django UploadedFile, refused by its size before it is read. `more_files`
    make one measurement with it: iperf3 processes run at once, summed (`combine_processes`).
    `fields` is the upload form's or serializer's cleaned data, named as docs/formats.md
    names them. Sending again what is still pending hands it to the broker again.
    """
    format = fields.get("format") or "auto"  # noqa: A001
    if more_files:
        files = [file, *more_files]
        check_upload_size(sum(part.size for part in files))
        content = combine_processes(outputs=[(part.name or "", part.read()) for part in files])
        filename, format = f"{len(files)} iperf3 processes", "iperf3"  # noqa: A001
    else:
        check_upload_size(file.size)
        content, filename = file.read(), file.name or ""
    run, created = submit_run(
        content=content,
        filename=filename,
        instance_type_name=fields.get("instance_type") or None,
        region_code=fields.get("region") or None,
        variant=fields.get("variant") or "",
        measured_at=fields.get("measured_at"),
        format=format,
        source=fields.get("source") or "",
        licence=fields.get("licence") or "",
        uploaded_by=uploaded_by,
    )
    if run.status == Run.Status.PENDING:
        transaction.on_commit(lambda: queue_ingest(run_id=run.pk))
    return run, created


def queue_ingest(*, run_id: int) -> bool:
    """Hand a pending run to the broker; False when the broker is away (the sweep retries).

    The run is stored before it is queued, so an upload answered 202 is never lost: when
    the broker cannot take it now, `requeue_stale_runs` hands it out once it can.
    """
    from benchmarks.tasks import ingest_run as ingest_task  # tasks import this module

    Run.objects.filter(pk=run_id, status=Run.Status.PENDING).update(
        queued_at=timezone.now(), queue_attempts=F("queue_attempts") + 1
    )
    try:
        ingest_task.delay(run_id)
    except Exception as error:  # noqa: BLE001 (kombu and redis raise many kinds)
        # Not queued: the next sweep hands it out at once instead of waiting for it to age.
        Run.objects.filter(pk=run_id, status=Run.Status.PENDING).update(queued_at=None)
        logger.warning("run %s not queued (%s); the sweep will queue it", run_id, error)
        return False
    return True


# How long an upload's own attempt to queue its run may take (kombu retries a lost broker).
NEVER_QUEUED_GRACE = datetime.timedelta(seconds=10)


def requeue_stale_runs(*, older_than: datetime.timedelta, max_attempts: int) -> dict[str, int]:
    """Hand out again the runs left pending (broker or worker lost them); fail the hopeless.

    Each run is claimed with a conditional UPDATE, so two sweeps never queue it twice; a run
    queued `max_attempts` times without finishing fails with that reason.
    """
    now = timezone.now()
    # Never queued (the broker refused it): as soon as its upload's own attempt is surely
    # over. Queued: once it has waited `older_than` (a lost delivery, a lost worker).
    stale = Run.objects.filter(status=Run.Status.PENDING).filter(
        Q(queued_at__lt=now - older_than)
        | Q(queued_at=None, created_at__lt=now - NEVER_QUEUED_GRACE)
    )
    failed = stale.filter(queue_attempts__gte=max_attempts).update(
        status=Run.Status.FAILED,
        error=f"not processed after {max_attempts} attempts (the worker kept failing or "
        "was lost); upload it again",
        finished_at=now,
    )
    queued = 0
    for run_id, queued_at in stale.filter(queue_attempts__lt=max_attempts).values_list(
        "pk", "queued_at"
    )[:1000]:
        claimed = Run.objects.filter(
            pk=run_id, status=Run.Status.PENDING, queued_at=queued_at
        ).update(queued_at=now)
        if claimed and queue_ingest(run_id=run_id):
            queued += 1
    return {"queued": queued, "failed": failed}


def record_run(**submission: Any) -> tuple[Run, bool]:
    """Submit and ingest in this process (commands, demo data): (finished run, created).

    A table is parsed once: the ingest takes what the upload's check read.
    """
    with transaction.atomic():
        run, created, parsed = _submit(**submission)
    if created:
        run = ingest_run(run_id=run.pk, parsed=parsed)
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
    statistics.refresh_stored(rows, created=_store(rows))
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
