"""Writes for Spare Cores' inspector data: one instance type's folders in one transaction.

`import_machine` plans a machine's folders (benchmarks/inspector.py), creates its instance
type when it is new, and stores its runs through the batch ingest path
(`machine_runs.record_machine_runs`), without a measuring region: Spare Cores do not record it, so
the runs count in every region. `finished_machines` finds, in one query, the machines whose
every run is stored already, so that a second import skips them without parsing.
"""

from __future__ import annotations

import hashlib
import queue
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any

from django import db
from django.db import transaction

from benchmarks import inspector
from benchmarks.burstable import cpu_allocation_of
from benchmarks.models import (
    Architecture,
    InstanceType,
    Run,
    SpecSource,
    Vendor,
    machine_kind,
    qualified_name,
)
from benchmarks.parsers import CpuInfo
from benchmarks.services import machine_runs, upload_checks
from benchmarks.services.prices import spec_sources

SOURCE = inspector.SOURCE
LICENCE = inspector.LICENCE
TYPE_SOURCE = (
    "Spare Cores' inspector data (sparecores.com, CC BY-SA 4.0): vCPUs, cores, threads per "
    "core and architecture from the machine's lscpu; memory from PassMark's system "
    "information (benchmarks/parsers/passmark.py); the vCPUs' allocation by the vendor's "
    "naming (benchmarks/burstable.py: AWS's T families and Azure's B series burstable, ...)"
)
_ARCHITECTURES = {"x86_64": Architecture.X86_64, "aarch64": Architecture.ARM64}


@dataclass
class MachineSummary:
    """What importing one instance type did; plain data, so that a Celery task can return it."""

    instance_type: str
    created: bool = False
    stored: dict[str, int] = field(default_factory=dict)  # runs stored, by kind
    present: dict[str, int] = field(default_factory=dict)  # runs stored before, by kind
    results: int = 0
    lscpu_read: bool = False
    # [kind, path, reason, detail] of every folder not imported.
    skipped: list[list[str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """For a Celery result (JSON)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MachineSummary:
        """The inverse of `as_dict`."""
        return cls(**data)


def plan_key(plan: inspector.MachinePlan, run: inspector.PlannedRun) -> str:
    """The natural key the planned run is stored under (region-less, no variant)."""
    return upload_checks.upload_key(hashlib.sha256(run.content).hexdigest(), plan.machine, "", "")


def finished_machines(plans: Iterable[inspector.MachinePlan]) -> set[str]:
    """The machines whose every planned run is stored already (one query)."""
    stored = set(
        Run.objects.filter(region=None, variant="", upload_key__isnull=False)
        .exclude(instance_type=None)
        .values_list("upload_key", flat=True)
    )
    return {
        plan.machine
        for plan in plans
        if plan.runs and all(plan_key(plan, run) in stored for run in plan.runs)
    }


def import_machine(
    machine: inspector.Machine, *, kinds: Iterable[str] | None = None
) -> MachineSummary:
    """Plan one instance type's folders and store its runs in one transaction (idempotent).

    A folder that cannot be imported (a failed run per its meta.json, a missing result file,
    an output the parser refuses) is listed with its reason; an output the parser refuses is
    kept as a failed run with no results, as an upload would be, so that importing again
    finds it stored.
    """
    plan = inspector.plan_machine(machine, kinds=None if kinds is None else list(kinds))
    summary = MachineSummary(
        instance_type=machine.name,
        lscpu_read=plan.lscpu_read is not None,
        skipped=[[s.kind, s.path, s.reason, s.detail] for s in plan.skipped],
    )
    if not plan.runs:
        return summary
    cpu_model = (plan.cpu.model_name if plan.cpu else None) or ""
    outputs = [
        machine_runs.MachineOutput(
            content=run.content,
            filename=run.path,
            format=run.format,
            measured_at=run.measured_at,
            tool_version=run.tool_version,
            cpu_model=cpu_model,
            source=SOURCE,
            licence=LICENCE,
            parse_options=run.parse_options,
        )
        for run in plan.runs
    ]
    with transaction.atomic():
        summary.created = ensure_instance_type(
            machine.name,
            plan.cpu,
            source=TYPE_SOURCE,
            memory_gib=plan.memory_gib,
            vendor=machine.vendor,
        )
        outcome = machine_runs.record_machine_runs(
            instance_type_name=qualified_name(machine.vendor, machine.name),
            region_code=None,
            outputs=outputs,
        )
    kind_of = {run.path: run.kind for run in plan.runs}
    summary.stored = dict(Counter(kind_of[path] for path in outcome.stored))
    summary.present = dict(Counter(kind_of[path] for path in outcome.present))
    summary.results = outcome.results
    for path, error in [*outcome.failed.items(), *outcome.refused.items()]:
        summary.skipped.append([kind_of[path], path, "the output could not be parsed", error])
    return summary


def import_machines(
    machines: list[inspector.Machine], *, kinds: Iterable[str] | None = None, jobs: int = 1
) -> Iterator[tuple[inspector.Machine, MachineSummary | Exception]]:
    """Import machines in this process, `jobs` at a time; yields each with its summary (or
    the error that stopped it) as it finishes.

    Each job is a thread with its own database connection: while one waits on PostgreSQL,
    another parses. Two imports that create the same new benchmark at once may deadlock;
    PostgreSQL then stops one, which is tried again. Stopping the iteration (an interrupt)
    lets the jobs finish the machines they hold, each in its own transaction, and start none.
    """
    if jobs <= 1:
        for machine in machines:
            yield machine, _import_with_retries(machine, kinds)
        return
    todo: queue.SimpleQueue = queue.SimpleQueue()
    for machine in machines:
        todo.put(machine)
    done: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()

    def work() -> None:
        try:
            while not stop.is_set():
                try:
                    machine = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    done.put((machine, _import_with_retries(machine, kinds)))
                except BaseException as error:  # noqa: BLE001 (reported to the caller)
                    done.put((machine, error))
        finally:
            db.connection.close()

    threads = [threading.Thread(target=work, daemon=True) for _ in range(jobs)]
    for thread in threads:
        thread.start()
    try:
        remaining = len(machines)
        while remaining:
            try:
                # A timeout keeps the wait open to an interrupt.
                finished = done.get(timeout=0.5)
            except queue.Empty:
                continue
            remaining -= 1
            yield finished
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def _import_with_retries(
    machine: inspector.Machine, kinds: Iterable[str] | None, attempts: int = 3
) -> MachineSummary | Exception:
    for attempt in range(1, attempts + 1):
        try:
            return import_machine(machine, kinds=kinds)
        except db.OperationalError as error:
            # A deadlock between two jobs creating the same benchmark: its transaction was
            # rolled back whole, so it can simply run again.
            if attempt == attempts:
                return error
        except Exception as error:  # noqa: BLE001 (reported with the machine's name)
            return error
    raise AssertionError("unreachable")


def ensure_instance_type(
    name: str,
    cpu: CpuInfo | None,
    *,
    source: str,
    memory_gib: Decimal | None = None,
    vendor: str = Vendor.AWS,
) -> bool:
    """Create a type of `vendor` unknown so far (an EC2 type; another cloud's virtual
    machine) with what the machine says of itself (lscpu, the memory PassMark saw); give a
    known one those figures where no better source has spoken (services/prices/
    spec_sources.py).

    Returns whether it was created.
    """
    specs = {
        "vcpus": cpu.cpus if cpu else None,
        "architecture": _ARCHITECTURES.get(cpu.architecture or "", "") if cpu else "",
        "physical_cores": cpu.physical_cores if cpu else None,
        "threads_per_core": cpu.threads_per_core if cpu else None,
        "memory_gib": memory_gib,
        # By the vendor's naming (AWS's T families, Azure's B series, ...); a better source,
        # the vendor's specifications, replaces it.
        "cpu_allocation": cpu_allocation_of(name, vendor) or "",
    }
    known = InstanceType.objects.select_for_update().filter(vendor=vendor, name=name).first()
    kind = machine_kind(vendor)
    instance_type = known or InstanceType(vendor=vendor, name=name, kind=kind)
    changed = spec_sources.apply_specs(
        instance_type, specs, source=SpecSource.SPARECORES_LSCPU, source_text=source
    )
    if known is None:
        instance_type.save()
    elif changed:
        instance_type.save(update_fields=sorted(changed))
    # No region's stamp moves: machines are imported in parallel, and each such write is
    # followed by its runs' ingest, which moves the answers' stamps.
    return known is None


@dataclass
class ImportReport:
    """An import's totals, from the machines' summaries as they arrive."""

    types_read: int = 0
    types_with_runs: int = 0
    types_created: int = 0
    types_finished_before: int = 0
    stored: Counter = field(default_factory=Counter)  # runs, by kind
    present: Counter = field(default_factory=Counter)
    results: int = 0
    lscpu_read: int = 0
    skipped: list[list[str]] = field(default_factory=list)
    # (instance type, error) of machines whose import raised (a task that failed).
    errors: list[tuple[str, str]] = field(default_factory=list)

    def add(self, summary: MachineSummary) -> dict[str, int]:
        """Count one machine in; returns its folders handled, by kind (for progress)."""
        self.types_read += 1
        self.types_created += summary.created
        self.types_with_runs += bool(summary.stored or summary.present)
        self.stored.update(summary.stored)
        self.present.update(summary.present)
        self.results += summary.results
        self.lscpu_read += summary.lscpu_read
        self.skipped.extend(summary.skipped)
        handled = Counter(summary.stored) + Counter(summary.present)
        handled.update(kind for kind, *_ in summary.skipped)
        if summary.lscpu_read:
            handled[inspector.LSCPU] += 1
        return dict(handled)

    def add_finished(self, plan: inspector.MachinePlan) -> dict[str, int]:
        """Count in a machine stored before, from its plan alone."""
        self.types_finished_before += 1
        summary = MachineSummary(
            instance_type=plan.machine,
            present=dict(Counter(run.kind for run in plan.runs)),
            lscpu_read=plan.lscpu_read is not None,
            skipped=[[s.kind, s.path, s.reason, s.detail] for s in plan.skipped],
        )
        return self.add(summary)

    def add_error(self, plan: inspector.MachinePlan, error: str) -> dict[str, int]:
        """Count in a machine whose import failed as a whole (nothing of it was stored)."""
        self.errors.append((plan.machine, error))
        return self.add(
            MachineSummary(
                instance_type=plan.machine,
                lscpu_read=plan.lscpu_read is not None,
                skipped=[
                    *([s.kind, s.path, s.reason, s.detail] for s in plan.skipped),
                    *(
                        [run.kind, run.path, "the import of its type failed", error]
                        for run in plan.runs
                    ),
                ],
            )
        )

    def skipped_by_reason(self) -> list[tuple[str, int]]:
        """(reason, folders), most first."""
        counts = Counter(reason for _, _, reason, _ in self.skipped)
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
