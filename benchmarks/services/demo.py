"""The bundled demo: real prices, the published studies' results and Spare Cores' figures,
with their sources; then the other clouds' (Hetzner Cloud, Google Cloud, Azure): their types'
specifications, Spare Cores' figures and the prices of the samples the project bundles."""

from __future__ import annotations

import contextlib
import csv
import datetime
import functools
import gc
import json
import lzma
import os
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction

from benchmarks import inspector
from benchmarks.fargate_estimate import ESTIMATE_SOURCE_FAMILIES
from benchmarks.models import InstanceType, Run, Vendor, family_of, machine_kind, qualified_name
from benchmarks.parsers import CpuInfo, ParsedOutput, ParsedResult
from benchmarks.pricing import snapshot
from benchmarks.pricing.snapshot import DEMO_DIR
from benchmarks.selectors.comparison import DEFAULT_FAMILIES
from benchmarks.services import machine_runs, sparecores, statistics, upload_checks
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from benchmarks.services.prices import ImportSummary, other_clouds

# The families the first part loads (`loaddemo --part first`); the rest part, the others.
FIRST_FAMILIES = (*DEFAULT_FAMILIES, *ESTIMATE_SOURCE_FAMILIES)

S1_SOURCE = (
    "Study S1, Fargate vCPU performance and price (December 2017, us-east-1): raw lscpu and "
    "openssl speed output published with the study"
)
S2_SOURCE = (
    "Study S2, Keycloak on Graviton3 (April 2024, ap-northeast-1): published relative results. "
    "The study quoted 0.091, 0.1292 and 0.11235 USD/h for c7g, c7a and c7i, which are the "
    "Tokyo on-demand prices of the .large sizes; the runs were on .xlarge types, priced here "
    "at their own prices. The study found c7i the slowest but published no figure for it: "
    "c7i is left out rather than invented."
)

S3_SOURCE = (
    "Study S3, 100 GbE between EC2 instances (September 2019, us-west-2): published figures, "
    "iperf3 between two c5n.18xlarge. The study gave ranges, not single results: one process "
    "near 25 Gbps from about 6 streams, 80-100 Gbps from about 20 single-stream processes "
    "(its two ends stored as two results); the receiver's figure is assumed"
)


@dataclass
class DemoSummary:
    """What `loaddemo` read and stored."""

    prices: ImportSummary
    specs: ImportSummary | None = None  # Spare Cores' specifications of every AWS type
    runs_stored: int = 0
    runs_present: int = 0


def _load(summary: DemoSummary, **submission) -> Run:
    run, created = run_services.record_run(**submission)
    if run.status == Run.Status.FAILED:
        # The bundled files are known good: a failure is a parser regression, not bad input.
        raise RuntimeError(f"demo file {submission.get('filename')} failed: {run.error}")
    if created:
        summary.runs_stored += 1
    else:
        summary.runs_present += 1
    return run


S1_DIR = DEMO_DIR / "s1-fargate-openssl"


def s1_observations() -> dict[str, int]:
    """File name -> how many of study S1's tasks it stands for (its SOURCE.md says whence);
    a file not listed, one."""
    with (S1_DIR / "observations.csv").open(newline="", encoding="utf-8") as listed:
        return {row["file"]: int(row["observations"]) for row in csv.DictReader(listed)}


def _observed(run: Run, observations: int) -> None:
    """A run loaded before its observations were counted takes them; its statistics follow."""
    if run.observations != observations:
        Run.objects.filter(pk=run.pk).update(observations=observations)
        statistics.refresh_series(statistics.series_of_runs([run.pk]))


@transaction.atomic
def load_demo() -> DemoSummary:
    """Load the bundled prices and results; loading again stores nothing new."""
    summary = DemoSummary(prices=price_services.import_snapshot())
    # Every AWS type's specifications, in bulk: the types Spare Cores' figures bring later
    # (`loaddemo --part rest`) arrive specified. AWS's own figures stay where they are known.
    summary.specs = price_services.import_bundled_specs()
    observed = s1_observations()
    for path in sorted(S1_DIR.glob("*.txt")):
        instance_type = path.name.split("__", 1)[0]
        observations = observed.get(path.name, 1)
        run = _load(
            summary,
            content=path.read_bytes(),
            filename=path.name,
            instance_type_name=instance_type,
            region_code="us-east-1",
            source=S1_SOURCE,
            licence="as published with the study",
            observations=observations,
        )
        _observed(run, observations)
    _load(
        summary,
        content=(DEMO_DIR / "s2_keycloak_graviton3.csv").read_bytes(),
        filename="s2_keycloak_graviton3.csv",
        format="csv",
        source=S2_SOURCE,
        licence="as published with the study",
    )
    _load(
        summary,
        content=(DEMO_DIR / "s3_iperf3_c5n.csv").read_bytes(),
        filename="s3_iperf3_c5n.csv",
        format="csv",
        source=S3_SOURCE,
        licence="as published with the study",
    )
    # What the comparison page opens on: Spare Cores' figures of its default families, and of
    # the Graviton2 family its estimated arm64 Fargate rows come from.
    sparecores_summary = load_sparecores_demo(families=FIRST_FAMILIES)
    summary.runs_stored += sparecores_summary.runs_stored
    summary.runs_present += sparecores_summary.runs_present
    # A database loaded before statistics were kept gets them now.
    if statistics.needs_rebuild():
        statistics.rebuild_statistics()
    return summary


# ---- Spare Cores' figures ---------------------------------------------------------------

SPARECORES_FILE = DEMO_DIR / "sparecores_inspector.csv.xz"
# The other clouds the demo bundles, in the order it loads them: the smallest first, so that
# one of them is complete early.
OTHER_CLOUDS = (Vendor.HCLOUD, Vendor.GCP, Vendor.AZURE)
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
            machines = list(_machines_of(wanted, vendor))
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
def _machines_of(families: frozenset[str], vendor: str) -> tuple[_DemoMachine, ...]:
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


# ---- the other clouds ------------------------------------------------------------------


@dataclass
class CloudDemoSummary:
    """What loading one other cloud's part of the demo read and stored."""

    vendor: str
    specs: ImportSummary | None = None
    figures: SparecoresDemoSummary = field(default_factory=SparecoresDemoSummary)
    prices: ImportSummary | None = None

    @property
    def loaded(self) -> bool:
        """Whether any of its types was asked for (a families filter may leave none)."""
        return self.specs is not None


def load_cloud_demo(
    *,
    vendor: str,
    families: Collection[str] | None = None,
    progress: Callable[[int, int, SparecoresDemoSummary], None] | None = None,
) -> CloudDemoSummary:
    """Load another cloud's part of the demo: its types' specifications (the bundled table),
    then Spare Cores' figures of its types (`load_sparecores_demo`), then its prices
    (`load_cloud_prices`), each in transactions of its own; loading again stores nothing.

    With `families`, only their figures and prices, and nothing at all of a vendor that has
    none of them.
    """
    if vendor not in OTHER_CLOUDS:
        raise ValueError(f"{vendor!r} is not one of the other clouds the demo bundles")
    summary = CloudDemoSummary(vendor)
    if families is not None and not _machines_of(frozenset(families), vendor):
        return summary
    summary.specs = price_services.import_bundled_specs(vendor=vendor)
    summary.figures = load_sparecores_demo(vendor=vendor, families=families, progress=progress)
    summary.prices = load_cloud_prices(vendor=vendor, families=families)
    return summary


@transaction.atomic
def load_cloud_prices(*, vendor: str, families: Collection[str] | None = None) -> ImportSummary:
    """Store a vendor's bundled prices (of these families' types, when given) through the
    other clouds' writer, creating the regions they name; loading again stores nothing."""
    rows = [
        (record, name)
        for record, name in snapshot.read_cloud_prices()
        if record.vendor == vendor
        and (families is None or family_of(InstanceType.Kind.VM, record.instance_type) in families)
    ]
    return other_clouds.record_quoted_prices(
        [record for record, _ in rows],
        region_names={record.region: name for record, name in rows},
        read=len(rows),
        source=f"the bundled prices of {vendor} ({snapshot.CLOUD_PRICES_FILE.name})",
    )


class ProgressFile:
    """Where a background load says how far it got, for the comparison page's note
    (selectors/demo.py): settings.PRICEBENCH_DEMO_PROGRESS_FILE, removed when it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def update(self, done: int, total: int, summary: SparecoresDemoSummary) -> None:
        """Write the state atomically (a reader never sees half a file), through a temporary
        file of this process's own: two loads never rename each other's."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "done": done,
            "total": total,
            "results": summary.results,
            "updated_at": time.time(),
            "pid": os.getpid(),
        }
        handle, partial = tempfile.mkstemp(
            dir=self.path.parent, prefix=f"{self.path.stem}.", suffix=".tmp"
        )
        try:
            with os.fdopen(handle, "w") as file:
                json.dump(state, file)
            os.replace(partial, self.path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise

    def clear(self) -> None:
        """The load ended (or stopped): no more note."""
        self.path.unlink(missing_ok=True)
