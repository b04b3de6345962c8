"""The one ingest pipeline: outputs -> parsed and checked -> benchmarks -> result rows ->
stored in their series -> statistics refreshed, in the caller's transaction.

Every way results arrive ends here: an upload's pending run, parsed by a Celery worker
(`runs.ingest_run`), `import_results` and the demo's study files (`runs.record_run`, which
calls `ingest_run`), and many outputs of one machine at once (`machine_runs.record_machine_runs`:
Spare Cores' data and the demo's Spare Cores figures). The callers decide which runs are new
(by their natural key), so that each output is stored exactly once; here each is parsed,
checked and stored as an upload's would be: an output that cannot be parsed, holds no
results or disagrees with a benchmark's unit becomes a failed run with the reason, alone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import InterfaceError, OperationalError
from django.utils import timezone

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.models import Run
from benchmarks.parsers import ParsedOutput, ParseError
from benchmarks.services import results, statistics, upload_checks

logger = logging.getLogger(__name__)


@dataclass
class OutputToStore:
    """One run's output on its way in: its run (saved and pending, or not saved yet, its raw
    output and format set) and what the caller knows that the output may not say."""

    run: Run
    # Read already (a table checked at upload, the demo's figures): not parsed again.
    parsed: ParsedOutput | None = None
    # What the output does not record, for the parser: `processes`, `cpu_method`.
    parse_options: dict[str, Any] = field(default_factory=dict)
    # Known from elsewhere (the machine's lscpu, an archive's metadata): beats the output's.
    tool_version: str = ""
    cpu_model: str = ""


def store_outputs(*, outputs: Sequence[OutputToStore]) -> list[results.ResultRow]:
    """Parse, check and store these outputs, and keep their series' statistics.

    Each run ends done (with its results) or failed (with the reason, no results); runs not
    saved yet are inserted at once. Runs in the caller's transaction; returns the rows stored.
    """
    now = timezone.now()
    parsed = [_parse(output, now) for output in outputs]
    benchmarks, refused = results.benchmarks_of(
        [reading.results if reading else [] for reading in parsed]
    )
    for index, reason in refused.items():
        _mark_failed(outputs[index].run, reason, now)
        parsed[index] = None
    pending = [output.run for output in outputs if not output.run._state.adding]
    Run.objects.bulk_create(
        [output.run for output in outputs if output.run._state.adding], batch_size=500
    )
    for run in pending:
        # Not the raw output, which PostgreSQL would otherwise compress and store again.
        run.save(update_fields=_PARSED_FIELDS)
    rows: list[results.ResultRow] = []
    for output, reading in zip(outputs, parsed, strict=True):
        if reading is None:
            continue
        if reading.format in upload_checks.TABULAR_FORMATS:
            rows.extend(results.tabular_rows(output.run, reading, benchmarks))
        else:
            rows.extend(results.result_rows(output.run, reading.results, benchmarks))
    if rows:
        created, kept = results.store(rows)
        # Without the results the screen held (their series_id None): counted nowhere.
        counted = [row for row in rows if row.series_id is not None]
        statistics.refresh_stored(counted, created=created, kept=kept)
    return rows


# What `_parse` and `_mark_failed` set on a run.
_PARSED_FIELDS = (
    "status",
    "format",
    "tool_version",
    "cpu_model",
    "warnings",
    "error",
    "finished_at",
    "checked_table",
)


def _parse(output: OutputToStore, now) -> ParsedOutput | None:
    """The output parsed and checked, its run marked done; or None, its run marked failed."""
    run = output.run
    try:
        parsed = output.parsed
        if parsed is None:
            parsed = parsers.parse(
                run.raw_output, format=run.format or "auto", **output.parse_options
            )
            try:
                upload_checks.check_results(parsed.results)
            except DomainError as error:
                raise ParseError(error.message) from None
        if not parsed.results:
            raise ParseError("the output holds no benchmark results")
        if parsed.format not in upload_checks.TABULAR_FORMATS and run.instance_type_id is None:
            raise ParseError(
                f"{parsed.format} output does not name its machine: "
                "upload it with an instance_type and a region"
            )
    except ParseError as error:
        _mark_failed(run, str(error), now)
        return None
    except (OperationalError, InterfaceError):
        raise  # the database is away: the task retries, the sweep hands the run out again
    except Exception as error:  # noqa: BLE001 (a parser's bug must not leave the run pending)
        logger.exception("parsing run %s (%s) failed unexpectedly", run.pk, run.filename)
        _mark_failed(
            run, f"the {run.format or 'output'} parser failed: {type(error).__name__}", now
        )
        return None
    run.status = Run.Status.DONE
    run.format = parsed.format
    run.tool_version = output.tool_version or (parsed.tool_version or "")[:200]
    run.cpu_model = output.cpu_model or (parsed.cpu_model or "")[:200] or run.cpu_model
    run.warnings = parsed.warnings
    run.finished_at = now
    run.checked_table = ""
    return parsed


def _mark_failed(run: Run, reason: str, now) -> None:
    """The run failed with this reason; its warnings were about results it no longer has."""
    run.status = Run.Status.FAILED
    run.error = reason
    run.warnings = []
    run.finished_at = now
    run.checked_table = ""
