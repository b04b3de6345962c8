"""The bundled Spare Cores figures of the demo (scripts/build_demo_sparecores.py): read as a
stream from the vendor's compressed file and written in bulk, some instance types per short
transaction, through the batch ingest path (services/machine_runs.py)."""

from __future__ import annotations

import contextlib
import csv
import datetime
import functools
import gc
import json
import lzma
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from benchmarks import inspector
from benchmarks.models import Run, Vendor, family_of, machine_kind, qualified_name
from benchmarks.parsers import CpuInfo, ParsedOutput, ParsedResult
from benchmarks.pricing.snapshot import DEMO_DIR
from benchmarks.services import machine_runs, sparecores, upload_checks

SPARECORES_FILE = DEMO_DIR / "sparecores_inspector.csv.xz"
# Machines loaded per transaction: one pass through the ingest pipeline and one refresh of the
# benchmarks' summaries for all of them, rather than one per machine.
MACHINES_PER_TRANSACTION = 40


class SparecoresDemoSummary(sparecores.ImportReport):
    """What loading the bundled Spare Cores figures did: the Spare Cores import's own report
    (the figures are its data), with the totals `loaddemo` prints."""

    @property
    def instance_types(self) -> int:
        """Instance types whose runs this load stored."""
        return self.types_read - self.types_finished_before

    @property
    def instance_types_present(self) -> int:
        return self.types_finished_before

    @property
    def runs_stored(self) -> int:
        return sum(self.stored.values())

    @property
    def runs_present(self) -> int:
        return sum(self.present.values())


@dataclass(frozen=True)
class _DemoColumns:
    """A bundled file's header: its line as the file holds it, and each column's position."""

    line: str
    index: dict[str, int]


@dataclass
class _DemoMachine:
    """One instance type of the bundled file: its lscpu figures and its runs' rows."""

    name: str
    cpu: CpuInfo
    columns: _DemoColumns
    # path -> the run's rows, each as its cells and its line as the file holds it.
    runs: dict[str, list[tuple[list[str], str]]] = field(default_factory=dict)

    def first(self, path: str, column: str) -> str:
        """A run's first row's cell of `column`."""
        return self.runs[path][0][0][self.columns.index[column]]


def sparecores_file(vendor: str) -> Path:
    """The bundled Spare Cores figures of a vendor's types: sparecores_inspector.csv.xz for
    AWS, sparecores_inspector_<vendor>.csv.xz for the others."""
    if vendor == Vendor.AWS:
        return SPARECORES_FILE
    return DEMO_DIR / f"sparecores_inspector_{vendor}.csv.xz"


def load_sparecores_demo(
    *,
    vendor: str = Vendor.AWS,
    families: Collection[str] | None = None,
    exclude_families: Collection[str] = (),
    progress: Callable[[int, int, SparecoresDemoSummary], None] | None = None,
) -> SparecoresDemoSummary:
    """Load the bundled Spare Cores figures of `vendor`'s types (scripts/
    build_demo_sparecores.py), in transactions of MACHINES_PER_TRANSACTION instance types,
    through the batch ingest path. Another vendor's types take their specifications from its
    bundled table first (`load_cloud_demo` loads it).

    Each run keeps the natural key of the Spare Cores file its figures come from, so that
    `import_sparecores` later finds it stored. Types whose runs are all stored are skipped
    after one query. `progress(done, total, summary)` is called before the first type and
    after each transaction (the types found stored counted in the first).
    """
    with _fewer_collections():
        if families is not None:
            wanted = frozenset(families) - frozenset(exclude_families)
            machines = list(machines_of(wanted, vendor))
        else:
            excluded = frozenset(exclude_families)
            machines = list(_demo_machines(lambda family: family not in excluded, vendor))
        # The rows read live until the load ends: out of the collector's sight.
        gc.freeze()
        try:
            return _load_machines(machines, vendor, progress)
        finally:
            gc.unfreeze()


# Allocations between two collections of the youngest generation while the demo loads
# (Python's default is 700).
COLLECT_EVERY = 50_000


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Python's cyclic garbage collector, run less often while the demo loads.

    A load makes millions of objects that live until it ends (the bundled rows, then each
    batch's results, series and statistics rows); collecting every 700 allocations, the
    collector went through them again and again, a third of the load's time.
    """
    threshold = gc.get_threshold()
    gc.set_threshold(COLLECT_EVERY, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def _load_machines(
    machines: list[_DemoMachine],
    vendor: str,
    progress: Callable[[int, int, SparecoresDemoSummary], None] | None,
) -> SparecoresDemoSummary:
    """`load_sparecores_demo` of the machines read."""
    stored = set(
        Run.objects.filter(region=None, variant="", upload_key__isnull=False)
        .exclude(instance_type=None)
        .values_list("upload_key", flat=True)
    )
    summary = SparecoresDemoSummary()
    if progress:
        # At once, so that the page's note shows from the first request on.
        progress(0, len(machines), summary)
    pending = []
    for machine in machines:
        keys = {
            upload_checks.upload_key(machine.first(path, "sha256"), machine.name, "", "")
            for path in machine.runs
        }
        if keys <= stored:
            summary.types_finished_before += 1
            summary.add(
                sparecores.MachineSummary(
                    instance_type=machine.name, present=_runs_by_kind(machine.runs)
                )
            )
        else:
            pending.append(machine)
    done = len(machines) - len(pending)
    if progress and done and not pending:
        progress(done, len(machines), summary)
    # Parameter sets recur across machines: each text is read once per load.
    params_of: dict[str, dict] = {}
    for start in range(0, len(pending), MACHINES_PER_TRANSACTION):
        for machine_summary in _load_demo_machines(
            pending[start : start + MACHINES_PER_TRANSACTION], vendor, params_of
        ):
            summary.add(machine_summary)
            done += 1
        if progress:
            progress(done, len(machines), summary)
    return summary


def _runs_by_kind(paths: Iterable[str]) -> dict[str, int]:
    """Runs by inspector kind, the folder their file is in."""
    return dict(Counter(path.split("/")[-2] for path in paths))


def _load_demo_machines(
    batch: list[_DemoMachine], vendor: str, params_of: dict[str, dict]
) -> list[sparecores.MachineSummary]:
    """Some machines' figures in one transaction, through the batch ingest path: their
    outputs are made before it begins, so that it holds the write lock only to write."""
    outputs = {machine.name: _demo_outputs(machine, params_of) for machine in batch}
    with transaction.atomic():
        return _store_demo_machines(batch, vendor, outputs)


def _store_demo_machines(
    batch: list[_DemoMachine], vendor: str, outputs: dict[str, list[machine_runs.MachineOutput]]
) -> list[sparecores.MachineSummary]:
    created = {
        machine.name: sparecores.ensure_instance_type(
            machine.name, machine.cpu, source=sparecores.TYPE_SOURCE, vendor=vendor
        )
        for machine in batch
    }
    outcomes = machine_runs.record_many_machines(
        [
            machine_runs.MachineOutputs(
                qualified_name(vendor, machine.name), outputs[machine.name], region_code=None
            )
            for machine in batch
        ]
    )
    summaries = []
    for machine, outcome in zip(batch, outcomes, strict=True):
        if outcome.failed or outcome.refused:
            # The bundled figures are known good: a failure is a regression, not bad input.
            raise RuntimeError(f"bundled Spare Cores figures of {machine.name} failed: {outcome}")
        summaries.append(
            sparecores.MachineSummary(
                instance_type=machine.name,
                created=created[machine.name],
                stored=_runs_by_kind(outcome.stored),
                present=_runs_by_kind(outcome.present),
                results=outcome.results,
            )
        )
    return summaries


def _demo_outputs(
    machine: _DemoMachine, params_of: dict[str, dict]
) -> list[machine_runs.MachineOutput]:
    """The machine's bundled figures as outputs already parsed, one per Spare Cores file.

    A run's raw output is its rows as the bundled file holds them, under the file's header:
    the build script (scripts/build_demo_sparecores.py) wrote them with the csv module's
    DictWriter, one row per line, which is what writing them again would give. Results of
    one parameter set share its dict (`params_of`, read once per text): nothing changes a
    result's parameters once parsed.
    """
    index = machine.columns.index
    benchmark, params, value, unit, higher, notes = (
        index[name]
        for name in ("benchmark", "params", "value", "unit", "higher_is_better", "notes")
    )
    outputs = []
    for path, rows in machine.runs.items():
        first = rows[0][0]
        results = []
        for cells, _line in rows:
            text = cells[params]
            read = params_of.get(text)
            if read is None:
                read = params_of[text] = json.loads(text)
            results.append(
                ParsedResult(
                    benchmark=cells[benchmark],
                    params=read,
                    value=float(cells[value]),
                    unit=cells[unit],
                    higher_is_better=cells[higher] == "1",
                    notes=cells[notes] or None,
                )
            )
        tool_version = first[index["tool_version"]]
        cpu_model = first[index["cpu_model"]]
        measured_at = first[index["measured_at"]]
        folder = path.split("/")[-2]
        parsed = ParsedOutput(
            format=inspector.KINDS[folder].format,
            results=results,
            tool_version=tool_version or None,
            cpu_model=cpu_model or None,
        )
        content = machine.columns.line + "".join(line for _cells, line in rows)
        outputs.append(
            machine_runs.MachineOutput(
                content=content.encode("utf-8"),
                filename=path,
                format=parsed.format,
                measured_at=datetime.date.fromisoformat(measured_at) if measured_at else None,
                tool_version=tool_version,
                cpu_model=cpu_model,
                source=first[index["source"]],
                licence=first[index["licence"]],
                parsed=parsed,
                content_sha256=first[index["sha256"]],
            )
        )
    return outputs


@functools.lru_cache(maxsize=4)
def machines_of(families: frozenset[str], vendor: str) -> tuple[_DemoMachine, ...]:
    """Some families' machines, read once per process (a test loads the demo many times);
    the rows are shared: never change them."""
    return tuple(_demo_machines(lambda family: family in families, vendor))


def _demo_machines(wanted: Callable[[str], bool], vendor: str) -> Iterator[_DemoMachine]:
    """The vendor's bundled file's instance types of the families `wanted` accepts, in order,
    read as a stream. The other rows are skipped by the name their line starts with, before
    the CSV reader sees them: the file has one row per line (its build script checks no cell
    holds a line break) and the instance type first. Each row keeps its line, the run's raw
    output (`_demo_outputs`)."""
    machine: _DemoMachine | None = None
    families: dict[str, bool] = {}
    kind = machine_kind(vendor)
    path = sparecores_file(vendor)
    line = ""

    def kept(lines: Iterable[str]) -> Iterator[str]:
        nonlocal line
        for line in lines:  # noqa: B007 (the row being read, for the loop below)
            name = line.partition(",")[0]
            keep = families.get(name)
            if keep is None:
                keep = families[name] = wanted(family_of(kind, name))
            if keep:
                yield line

    with lzma.open(path, "rt", encoding="utf-8", newline="") as handle:
        header_line = handle.readline()
        header = next(csv.reader([header_line]))
        if header[0] != "instance_type":
            raise ValueError(f"{path.name}: its first column is not instance_type")
        columns = _DemoColumns(header_line, {name: at for at, name in enumerate(header)})
        width = len(header)
        run_path = columns.index["path"]
        # The reader takes one line per row: `line` is the row's when it is handed out.
        for cells in csv.reader(kept(handle)):
            if len(cells) != width:
                raise ValueError(f"{path.name}: a row of {len(cells)} cells, not {width}")
            name = cells[0]
            if machine is None or machine.name != name:
                if machine is not None:
                    yield machine
                machine = _DemoMachine(name=name, cpu=_cpu(cells, columns), columns=columns)
            machine.runs.setdefault(cells[run_path], []).append((cells, line))
    if machine is not None:
        yield machine


def _cpu(cells: list[str], columns: _DemoColumns) -> CpuInfo:
    def cell(column: str) -> str:
        return cells[columns.index[column]]

    def number(column: str) -> int | None:
        return int(cell(column)) if cell(column) else None

    cores = number("physical_cores")
    return CpuInfo(
        model_name=cell("cpu_model") or None,
        architecture=cell("architecture") or None,
        cpus=number("vcpus"),
        threads_per_core=number("threads_per_core"),
        # CpuInfo knows cores as per socket times sockets: one socket holding them all.
        cores_per_socket=cores,
        sockets=1 if cores else None,
    )
