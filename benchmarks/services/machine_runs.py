"""Many outputs of one known machine accepted at once: the bulk way in of Spare Cores' data
and the bundled demo's figures (one transaction per machine), through the one ingest pipeline
(ingest.py), statistics refreshed once."""

from __future__ import annotations

import datetime
import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import Run
from benchmarks.parsers import ParsedOutput
from benchmarks.selectors.answer.lookups import get_instance_type, get_region
from benchmarks.services import ingest, upload_checks


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

    @property
    def results(self) -> int:
        return sum(self.stored.values())


@dataclass(frozen=True)
class MachineOutputs:
    """The outputs of one machine, for `record_many_machines`."""

    instance_type_name: str
    outputs: Sequence[MachineOutput]
    region_code: str | None = None
    variant: str = ""


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
    machine = MachineOutputs(instance_type_name, outputs, region_code, variant)
    return record_many_machines([machine])[0]


@transaction.atomic
def record_many_machines(machines: Sequence[MachineOutputs]) -> list[MachineRunsOutcome]:
    """`record_machine_runs` for several machines in one transaction: one pass through the
    ingest pipeline and one refresh of the statistics for all of them (the bundled demo loads
    its hundreds of machines in batches). One outcome per machine, in order."""
    outcomes: list[MachineRunsOutcome] = []
    new: list[tuple[MachineOutput, Run, MachineRunsOutcome]] = []
    for machine in machines:
        outcome = MachineRunsOutcome()
        outcomes.append(outcome)
        new.extend((output, run, outcome) for output, run in _new_runs(machine, outcome))
    rows = ingest.store_outputs(
        outputs=[
            ingest.OutputToStore(
                run=run,
                parsed=output.parsed,
                parse_options=output.parse_options,
                tool_version=output.tool_version[:200],
                cpu_model=output.cpu_model[:200],
            )
            for output, run, _ in new
        ]
    )
    # A table's rows belong to child runs of its run.
    stored = Counter(row.run.parent_id or row.run.pk for row in rows)
    for output, run, outcome in new:
        if run.status == Run.Status.DONE:
            outcome.stored[output.filename] = stored[run.pk]
        else:
            outcome.failed[output.filename] = run.error
    return outcomes


def _new_runs(
    machine: MachineOutputs, outcome: MachineRunsOutcome
) -> list[tuple[MachineOutput, Run]]:
    """The machine's outputs not stored before, each with its unsaved run; the others (and
    those refused) are counted in `outcome`."""
    instance_type = get_instance_type(machine.instance_type_name)
    region = get_region(machine.region_code) if machine.region_code else None
    variant = machine.variant
    accepted: dict[str, tuple[MachineOutput, str, str, str]] = {}
    for output in machine.outputs:
        try:
            text = upload_checks.checked_content(output.content, output.format)
            if output.parsed is not None:
                detected = output.parsed.format
            else:
                detected = upload_checks.detected_format(text, output.format)
        except DomainError as error:
            outcome.refused[output.filename] = error.message
            continue
        digest = output.content_sha256 or hashlib.sha256(output.content).hexdigest()
        key = upload_checks.upload_key(
            digest, instance_type.name, region.code if region else "", variant
        )
        if key in accepted:
            outcome.present.append(output.filename)
            continue
        accepted[key] = (output, text, detected, digest)
    existing = set(Run.objects.filter(upload_key__in=accepted).values_list("upload_key", flat=True))

    new: list[tuple[MachineOutput, Run]] = []
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
            # Kept by a failed run too; a done one's come from here or else from its output.
            tool_version=output.tool_version[:200],
            cpu_model=output.cpu_model[:200],
            filename=output.filename[:255],
            raw_output=text,
            content_hash=digest,
            upload_key=key,
            source=output.source,
            licence=output.licence,
        )
        new.append((output, run))
    return new
