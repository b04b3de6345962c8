"""A run's life: accept an upload as a pending run, ingest it exactly once, delete it, parse
it again, queue it and sweep the ones left pending. The checks before storing live in
upload_checks.py, the ingest pipeline every way in shares in ingest.py, the bulk acceptance of
one machine's outputs in machine_runs.py."""

from __future__ import annotations

import datetime
import hashlib
import logging
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Run
from benchmarks.parsers import ParsedOutput, ParseError, iperf3
from benchmarks.selectors.answer.lookups import get_instance_type, get_region
from benchmarks.services import ingest, statistics, upload_checks

logger = logging.getLogger(__name__)


@transaction.atomic
def submit_run(**submission: Any) -> tuple[Run, bool]:
    """Accept one uploaded output as a pending run; returns (run, created).

    The same content for the same machine and variant returns the existing run. Input that
    can be refused before parsing (too large, binary, not UTF-8, unknown machine) raises
    DomainError and writes nothing. Takes `_submit`'s keywords.
    """
    run, created, _parsed = _submit(**submission, keep_checked=True)
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
    upload_token=None,
    observations: int = 1,
    keep_checked: bool = False,
) -> tuple[Run, bool, ParsedOutput | None]:
    """`submit_run`, which it runs in a transaction; also returns the table it read, if any
    (the run's raw output parsed in its format, checked). `observations`: how many machines
    the output stands for (Run.observations; an upload is one). `keep_checked`: the table
    read is stored with the run (`Run.checked_table`) for a worker in another process."""
    text = upload_checks.checked_content(content, format)
    upload_checks.check_submission_texts(variant=variant, source=source, licence=licence)
    upload_checks.check_measured_at(measured_at)

    instance_type = get_instance_type(instance_type_name) if instance_type_name else None
    region = get_region(region_code) if region_code else None
    if instance_type and not region:
        raise DomainError("region is required with an instance_type", field="region")
    if instance_type and instance_type.kind == InstanceType.Kind.DATABASE:
        from benchmarks.selectors.subjects.databases import ENGINES

        if variant not in ENGINES:
            raise DomainError(
                f"{instance_type.name} is a DB instance class: give its engine as the variant "
                f"({', '.join(ENGINES)})",
                field="variant",
            )
    if region and not instance_type:
        raise DomainError("instance_type is required with a region", field="instance_type")
    detected = upload_checks.detected_format(text, format)
    if instance_type is None and detected not in upload_checks.TABULAR_FORMATS:
        raise DomainError(
            f"{detected} output does not name its machine: give instance_type and region",
            field="instance_type",
        )
    parsed = (
        upload_checks.check_table(text, detected)
        if detected in upload_checks.TABULAR_FORMATS
        else None
    )

    content_hash = hashlib.sha256(content).hexdigest()
    key = upload_checks.upload_key(
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
                upload_token=upload_token,
                observations=observations,
                # Parsing it again cost the worker a sixth of an upload's time (issue 56).
                checked_table=parsed.to_text() if keep_checked and parsed else "",
            )
    except IntegrityError:
        return Run.objects.get(upload_key=key), False, None
    return run, True, parsed


def _fail(run: Run, reason: str) -> Run:
    run.status = Run.Status.FAILED
    run.error = reason
    run.finished_at = timezone.now()
    run.checked_table = ""
    run.save(update_fields=["status", "error", "finished_at", "checked_table"])
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
    at upload in this process), which is then not read again; so is a table the upload's
    check stored with the run (`Run.checked_table`). The pipeline is `ingest.store_outputs`,
    the same for every way results arrive.
    """
    run = (
        Run.objects.select_for_update(of=("self",))
        .select_related("instance_type", "region")
        .get(pk=run_id)
    )
    if run.status != Run.Status.PENDING:
        return run
    try:
        if parsed is None and run.checked_table:
            parsed = ParsedOutput.from_text(run.checked_table)
        # The savepoint lets a failure while storing undo partial results but keep the
        # failed status (a table's row that names no machine, a benchmark's unit that
        # another upload set meanwhile).
        with transaction.atomic():
            ingest.store_outputs(outputs=[ingest.OutputToStore(run=run, parsed=parsed)])
    except (OperationalError, InterfaceError):
        raise  # the database is away: the task retries, the sweep hands the run out again
    except Exception as error:  # noqa: BLE001 (a bug must not leave the run pending)
        run.refresh_from_db()
        if isinstance(error, ParseError):
            return _fail(run, str(error))
        logger.exception("storing run %s failed unexpectedly", run.pk)
        return _fail(run, f"the {run.format or 'output'} parser failed: {type(error).__name__}")
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


def why_not_reparsed(run: Run) -> str | None:
    """Why this run's raw output cannot be parsed again as it was first, or None."""
    from benchmarks.inspector import SOURCE as SPARECORES_SOURCE

    if run.parent_id is not None:
        return f"a row of the table uploaded as run {run.parent_id}: parse that run again"
    if run.status == Run.Status.PENDING:
        return "still pending: a worker parses it"
    if run.status == Run.Status.WITHDRAWN:
        return "withdrawn by its uploader"
    if not run.raw_output:
        return "its raw output was not kept"
    if run.source == SPARECORES_SOURCE:
        # The import parsed it with what the output does not say (the machine's vCPUs, the
        # stress-ng method) or stored the demo's prepared figures: import it again instead.
        return (
            "read by the Spare Cores import with what its output does not record: import it again"
        )
    return None


@transaction.atomic
def reparse_run(*, run_id: int) -> Run:
    """Parse a run's raw output again (after a parser fix): its old results and statistics go.

    Raises DomainError, changing nothing, for a run that cannot be (`why_not_reparsed`).
    """
    run = Run.objects.select_for_update(of=("self",)).get(pk=run_id)
    reason = why_not_reparsed(run)
    if reason:
        raise DomainError(f"run {run.pk} cannot be parsed again: {reason}", field="run")
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
    run.checked_table = ""  # parsed again from its raw output, by the parser of today
    run.save(update_fields=["status", "error", "warnings", "finished_at", "checked_table"])
    return ingest_run(run_id=run.pk)


def combine_processes(*, outputs: list[tuple[str, bytes]]) -> bytes:
    """Several processes' outputs that ran at once -> one measurement's text.

    Only iperf3 sums processes (study S3); each output is checked to be iperf3 before
    anything is stored, and the parser names the process whose output it cannot read.
    """
    upload_checks.check_upload_size(sum(len(content) for _name, content in outputs))
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
    *,
    file,
    fields: Mapping[str, Any],
    more_files: list | tuple = (),
    uploaded_by=None,
    upload_token=None,
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
        upload_checks.check_upload_size(sum(part.size for part in files))
        content = combine_processes(outputs=[(part.name or "", part.read()) for part in files])
        filename, format = f"{len(files)} iperf3 processes", "iperf3"  # noqa: A001
    else:
        upload_checks.check_upload_size(file.size)
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
        upload_token=upload_token,
    )
    if run.status == Run.Status.PENDING:
        transaction.on_commit(lambda: queue_ingest(run_id=run.pk))
    return run, created


# The ingest task, by the name Celery registers it under: tasks call services, not the other
# way round, so this module does not import benchmarks.tasks (an import circle between them).
INGEST_TASK = "benchmarks.tasks.ingest_run"


def _ingest_task():
    """The registered ingest task; Celery imports the apps' tasks modules on first need (a
    worker does at start; a web process or a command, here)."""
    from dashboard.celery import app

    if INGEST_TASK not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[INGEST_TASK]


def queue_ingest(*, run_id: int) -> bool:
    """Hand a pending run to the broker; False when the broker is away (the sweep retries).

    The run is stored before it is queued, so an upload answered 202 is never lost: when
    the broker cannot take it now, `requeue_stale_runs` hands it out once it can.
    """
    ingest_task = _ingest_task()
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


# A run queued this long ago that the broker does not hold was lost (a broker restarted
# without persistence): the sweep hands it out again at once. Long enough for a message being
# published (the run is stamped before it is sent) to have reached the broker.
LOST_AFTER = datetime.timedelta(seconds=5)
# A run never queued (the broker refused it at upload): taken once its upload is surely over.
NEVER_QUEUED_GRACE = LOST_AFTER


def requeue_stale_runs(*, older_than: datetime.timedelta, max_attempts: int) -> dict[str, int]:
    """Hand out again the runs left pending (broker or worker lost them); fail the hopeless.

    A run is queued again at once when it was never queued or the broker no longer holds its
    task (`dashboard.broker.held_run_ids`), and in any case once it has waited `older_than`
    (a worker lost with the delivery it held). Each run is claimed with a conditional UPDATE,
    so two sweeps never queue it twice; a second delivery would change nothing anyway, as
    `ingest_run` ignores a run no longer pending. A run queued `max_attempts` times without
    finishing fails with that reason.
    """
    from dashboard import broker

    now = timezone.now()
    pending = Run.objects.filter(status=Run.Status.PENDING)
    stale = pending.filter(
        Q(queued_at__lt=now - older_than)
        | Q(queued_at=None, created_at__lt=now - NEVER_QUEUED_GRACE)
    )
    failed = stale.filter(queue_attempts__gte=max_attempts).update(
        status=Run.Status.FAILED,
        error=f"not processed after {max_attempts} attempts (the worker kept failing or "
        "was lost); upload it again",
        finished_at=now,
    )
    due = list(stale.filter(queue_attempts__lt=max_attempts).values_list("pk", "queued_at")[:1000])
    # Queued a while ago: lost if the broker, read after these rows, does not hold its task.
    waiting = list(
        pending.filter(
            queued_at__lt=now - LOST_AFTER,
            queued_at__gte=now - older_than,
            queue_attempts__lt=max_attempts,
        )
        .values_list("pk", "queued_at")
        .order_by("queued_at")[:1000]
    )
    lost = orphaned = 0
    if waiting:
        held = broker.held_run_ids()
        if held is not None:
            lost_runs = [(run_id, at) for run_id, at in waiting if run_id not in held]
            lost = len(lost_runs)
            due += lost_runs
        orphaned = _restore_orphaned_deliveries({run_id for run_id, _ in waiting})
    queued = 0
    for run_id, queued_at in due:
        claimed = Run.objects.filter(
            pk=run_id, status=Run.Status.PENDING, queued_at=queued_at
        ).update(queued_at=now)
        if claimed and queue_ingest(run_id=run_id):
            queued += 1
    if lost:
        logger.warning("%s pending runs the broker no longer held were queued again", lost)
    if orphaned:
        logger.warning("%s deliveries of a lost worker were put back in the queue", orphaned)
    return {"queued": queued, "failed": failed, "lost": lost, "orphaned": orphaned}


def _restore_orphaned_deliveries(run_ids: set[int]) -> int:
    """Put back in the queue the deliveries of pending runs that a worker took LOST_AFTER ago
    and no worker is ingesting: their worker died (a SIGKILL leaves them unacknowledged until
    Redis's visibility timeout, an hour). An ingest holds its run's row locked from start to
    end, and a dead worker's lock goes with its connection: a run whose row is free is not
    being ingested. Restored by mistake (taken but not started yet), it is only delivered
    twice, which `ingest_run` ignores."""
    from dashboard import broker

    if not connection.features.has_select_for_update_skip_locked:
        return 0
    deliveries = {
        run_id: tag
        for run_id, tag in broker.stale_deliveries(LOST_AFTER.total_seconds()).items()
        if run_id in run_ids
    }
    if not deliveries:
        return 0
    with transaction.atomic():
        free = set(
            Run.objects.select_for_update(skip_locked=True)
            .filter(pk__in=deliveries, status=Run.Status.PENDING)
            .values_list("pk", flat=True)
        )
    return sum(broker.restore_delivery(deliveries[run_id]) for run_id in free)


def record_run(**submission: Any) -> tuple[Run, bool]:
    """Submit and ingest in this process (commands, demo data): (finished run, created).

    A table is parsed once: the ingest takes what the upload's check read.
    """
    with transaction.atomic():
        run, created, parsed = _submit(**submission)
    if created:
        run = ingest_run(run_id=run.pk, parsed=parsed)
    return run, created
