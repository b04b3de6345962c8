"""Spare Cores' inspector data (SpareCores/sc-inspector-data), read in place: no ORM.

The data keeps one folder per vendor, instance type and benchmark,
`<vendor>/<instance type>/<benchmark folder>/{meta.json, stdout | parsed.json | results.json}`,
below `data/` in a checkout of the repository. `read_source` reads a checkout, a folder of
vendor folders, or a .tar.xz/.tar.gz of either (tarfile streams the archive; nothing is
unpacked), and keeps only the files an import reads. `plan_machine` then decides, for each
benchmark folder of one instance type, whether it becomes a run (which file, which format,
what the file does not record) or is skipped, and why.

meta.json says how the run ended: `exit_code` 0 means it ran; -1 the instance could not be
started, -2 the task does not apply to the machine, -4 the inspection ended first, null a
run that never finished. Its `start` dates the run, its `version` is the tool's. The
measuring region is not recorded. Beside the CPU (lscpu), the plan carries the machine's
memory, from PassMark's system information.
"""

from __future__ import annotations

import datetime
import json
import tarfile
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from benchmarks.parsers import CpuInfo, ParseError, lscpu, passmark

SOURCE = "Spare Cores (sparecores.com), sc-inspector-data"
LICENCE = "CC BY-SA 4.0"
# The credit every page that shows their figures must carry.
CREDIT = "Benchmark data: Spare Cores (sparecores.com), CC BY-SA 4.0"

META = "meta.json"
LSCPU = "lscpu"
PASSMARK = "passmark"
DEFAULT_VENDOR = "aws"
TAR_SUFFIXES = (".tar", ".tar.xz", ".txz", ".tar.gz", ".tgz")
NO_RESULT_FILE = "exit_code 0 but no result file"


@dataclass(frozen=True)
class Kind:
    """A benchmark folder pricebench imports: which file holds its results, how to read it."""

    folder: str
    # Result files in order of preference: openssl's parsed.json is Spare Cores' own parse of
    # the raw `stdout` (the same figures, a two-hundredth of the size); a checkout that has
    # only the raw output is read with the openssl parser.
    files: tuple[str, ...]
    format: str
    # The run used one process per vCPU (openssl -multi, bw_mem -P); the output does not say.
    processes_per_vcpu: bool = False
    # stress-ng's --cpu-method, which its log does not print.
    cpu_method: str | None = None


KINDS: dict[str, Kind] = {
    kind.folder: kind
    for kind in (
        Kind("openssl", ("parsed.json", "stdout"), "openssl", processes_per_vcpu=True),
        Kind("redis", ("stdout",), "redis"),
        Kind("static_web", ("stdout",), "static_web"),
        Kind("compression_text", ("stdout",), "compression_text"),
        Kind("bw_mem", ("stdout",), "bw_mem", processes_per_vcpu=True),
        Kind("stressng", ("stdout",), "stressng", cpu_method="div16"),
        Kind("stressngsinglecore", ("stdout",), "stressngsinglecore", cpu_method="div16"),
        Kind("llm", ("stdout",), "llm"),
        Kind("geekbench", ("results.json",), "geekbench"),
        Kind("passmark", ("stdout",), "passmark"),
        # The newer kinds (the `more/` archives): stress-ng at 1..n workers, sc-membench,
        # vLLM serving, GPU copies, ffmpeg transcoding, and the 24-hour stress-ng runs, of
        # which Spare Cores keep their own parse.
        Kind("stressngfull", ("stdout",), "stressngfull", cpu_method="div16"),
        Kind("membench", ("stdout",), "membench"),
        Kind("vllm", ("stdout",), "vllm"),
        Kind("nvbandwidth", ("stdout",), "nvbandwidth"),
        Kind("ffmpeg", ("stdout",), "ffmpeg"),
        Kind("stressnglongrun", ("parsed.csv",), "stressnglongrun"),
    )
}
# The files kept from each folder read: its meta.json and its result files.
_KEPT = {LSCPU: {META, "stdout"}} | {folder: {META, *kind.files} for folder, kind in KINDS.items()}


class SourceError(ValueError):
    """A path that is not Spare Cores' inspector data, or that cannot be read."""


@dataclass
class Machine:
    """One instance type's folders as read: the kept files by `<folder>/<file>`."""

    vendor: str
    name: str
    # Where the type's folder is in the source, e.g. `data/aws/c7g.large`: runs name their
    # files by it.
    root: str
    files: dict[str, bytes] = field(default_factory=dict)
    # Folders of this type that no kind reads (dmidecode, lshw, virtualization...).
    other_folders: set[str] = field(default_factory=set)

    def folders(self) -> set[str]:
        """Every benchmark folder seen, read or not."""
        return {path.split("/", 1)[0] for path in self.files} | self.other_folders

    def as_payload(self) -> dict[str, Any]:
        """The machine as a Celery task's argument (kombu's JSON carries bytes)."""
        return {
            "vendor": self.vendor,
            "name": self.name,
            "root": self.root,
            "files": self.files,
            "other_folders": sorted(self.other_folders),
        }

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> Machine:
        """The inverse of `as_payload`."""
        return cls(
            vendor=payload["vendor"],
            name=payload["name"],
            root=payload["root"],
            files=dict(payload["files"]),
            other_folders=set(payload["other_folders"]),
        )


@dataclass(frozen=True)
class Skipped:
    """A benchmark folder (or file) not imported: `reason` is short enough to count by."""

    kind: str
    path: str
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class PlannedRun:
    """A benchmark folder that becomes a run: its result file and what the file omits."""

    kind: str
    path: str
    content: bytes
    format: str
    measured_at: datetime.date | None
    tool_version: str
    parse_options: dict[str, Any]


@dataclass
class MachinePlan:
    """What an import does with one instance type's folders."""

    machine: str
    cpu: CpuInfo | None = None
    runs: list[PlannedRun] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    # The lscpu folder when it was read for the CPU (it holds no results of its own).
    lscpu_read: str | None = None
    # The memory it was sold with, from PassMark's system information (GiB).
    memory_gib: Decimal | None = None


def credit_for(sources: Iterable[str]) -> str | None:
    """Spare Cores' credit line when one of these run sources is theirs."""
    return CREDIT if any("Spare Cores" in source for source in sources) else None


def check_kinds(only: Iterable[str] | None) -> tuple[str, ...]:
    """The kinds asked for (every kind when None); ValueError names unknown ones."""
    if only is None:
        return tuple(KINDS)
    wanted = tuple(dict.fromkeys(name.strip() for name in only if name.strip()))
    unknown = [name for name in wanted if name not in KINDS]
    if unknown or not wanted:
        raise ValueError(
            f"unknown kind {', '.join(unknown) or '(none given)'}; choose among {', '.join(KINDS)}"
        )
    return wanted


# ---- reading a source -------------------------------------------------------------------


def read_source(path: Path, *, vendor: str = DEFAULT_VENDOR) -> list[Machine]:
    """Every instance type of `vendor` in a checkout, a folder or a tar archive, by name."""
    if path.is_dir():
        entries = _directory_entries(path, vendor)
    elif path.is_file() and path.name.endswith(TAR_SUFFIXES):
        entries = _tar_entries(path, vendor)
    elif path.exists():
        raise SourceError(
            f"{path} is neither a folder nor a tar archive ({', '.join(TAR_SUFFIXES)})"
        )
    else:
        raise SourceError(f"{path} does not exist")
    machines: dict[str, Machine] = {}
    for root, name, folder, file, read in entries:
        machine = machines.get(name)
        if machine is None:
            machine = machines[name] = Machine(vendor=vendor, name=name, root=root)
        if folder not in _KEPT:
            machine.other_folders.add(folder)
        elif file in _KEPT[folder]:
            machine.files[f"{folder}/{file}"] = read()
    if not machines:
        raise SourceError(
            f"no {vendor}/<instance type>/<benchmark>/ folders in {path} "
            f"(looked for data/{vendor}/... and {vendor}/...)"
        )
    return [machines[name] for name in sorted(machines)]


def _directory_entries(path: Path, vendor: str) -> Iterator[tuple]:
    """(root, type, folder, file, reader) of each file below `data/<vendor>` or `<vendor>`."""
    for base in (path / "data" / vendor, path / vendor):
        if base.is_dir():
            break
    else:
        raise SourceError(f"{path} holds neither data/{vendor}/ nor {vendor}/")
    prefix = base.relative_to(path).as_posix()
    for type_dir in sorted(base.iterdir()):
        if not type_dir.is_dir():
            continue
        for folder in sorted(type_dir.iterdir()):
            if not folder.is_dir():
                continue
            for file in sorted(folder.iterdir()):
                if file.is_file():
                    yield (
                        f"{prefix}/{type_dir.name}",
                        type_dir.name,
                        folder.name,
                        file.name,
                        file.read_bytes,
                    )


def _tar_entries(path: Path, vendor: str) -> Iterator[tuple]:
    """The same from a tar archive, streamed: `[...]<vendor>/<type>/<folder>/<file>` members."""
    try:
        with tarfile.open(path, mode="r|*") as archive:
            for member in archive:
                if not member.isfile():
                    continue
                parts = member.name.removeprefix("./").split("/")
                # The vendor folder, with exactly type, folder and file below it.
                if len(parts) < 4 or parts[-4] != vendor:
                    continue
                name, folder, file = parts[-3:]
                extracted = archive.extractfile(member)
                yield "/".join(parts[:-2]), name, folder, file, extracted.read
    except (tarfile.TarError, EOFError, OSError) as error:
        raise SourceError(f"{path}: not a readable tar archive ({error})") from None


# ---- planning one machine -----------------------------------------------------------------


def plan_machine(machine: Machine, *, kinds: Collection[str] | None = None) -> MachinePlan:
    """Which of the machine's folders become runs, and why each other one is skipped.

    The lscpu folder is always read: it gives the CPU model, and the vCPU count that openssl
    and bw_mem ran one process per. Folders of kinds not asked for are left out silently.
    """
    wanted = set(kinds) if kinds is not None else set(KINDS)
    plan = MachinePlan(machine=machine.name)
    folders = machine.folders()
    if LSCPU in folders:
        _read_lscpu(machine, plan)
    plan.memory_gib = _memory_gib(machine)
    for folder in sorted(folders - {LSCPU}):
        path = f"{machine.root}/{folder}"
        kind = KINDS.get(folder)
        if kind is None:
            plan.skipped.append(
                Skipped(folder, path, f"benchmark folder {folder!r} is not one pricebench reads")
            )
            continue
        if folder not in wanted:
            continue
        meta = _meta(machine, folder, plan)
        if meta is None:
            continue
        file = next((name for name in kind.files if f"{folder}/{name}" in machine.files), None)
        if file is None:
            expected = " or ".join(kind.files)
            plan.skipped.append(
                Skipped(folder, path, NO_RESULT_FILE, f"{folder}/ holds no {expected}")
            )
            continue
        options: dict[str, Any] = {}
        if kind.processes_per_vcpu and plan.cpu and plan.cpu.cpus:
            options["processes"] = plan.cpu.cpus
        if kind.cpu_method:
            options["cpu_method"] = kind.cpu_method
        plan.runs.append(
            PlannedRun(
                kind=folder,
                path=f"{path}/{file}",
                content=machine.files[f"{folder}/{file}"],
                format=kind.format,
                measured_at=_date(meta.get("start")),
                tool_version=str(meta.get("version") or ""),
                parse_options=options,
            )
        )
    return plan


def _read_lscpu(machine: Machine, plan: MachinePlan) -> None:
    if _meta(machine, LSCPU, plan) is None:
        return
    path = f"{machine.root}/{LSCPU}/stdout"
    content = machine.files.get(f"{LSCPU}/stdout")
    if content is None:
        plan.skipped.append(Skipped(LSCPU, path, NO_RESULT_FILE, f"{LSCPU}/ holds no stdout"))
        return
    try:
        plan.cpu = lscpu.parse(content.decode("utf-8")).cpu
    except (UnicodeDecodeError, ParseError) as error:
        plan.skipped.append(Skipped(LSCPU, path, "lscpu output could not be read", str(error)))
        return
    plan.lscpu_read = path


def _memory_gib(machine: Machine) -> Decimal | None:
    """The machine's memory from its PassMark report, whatever kinds are imported; None
    without a readable one (the report's figures themselves are checked where they are
    imported)."""
    content = machine.files.get(f"{PASSMARK}/stdout")
    if content is None:
        return None
    return passmark.nominal_memory_gib(content.decode("utf-8", errors="replace"))


def _meta(machine: Machine, folder: str, plan: MachinePlan) -> dict | None:
    """The folder's meta.json when it says the run succeeded; otherwise a skip, and None."""
    path = f"{machine.root}/{folder}"
    raw = machine.files.get(f"{folder}/{META}")
    if raw is None:
        plan.skipped.append(Skipped(folder, path, "no meta.json"))
        return None
    try:
        meta = json.loads(raw)
        if not isinstance(meta, dict):
            raise ValueError("not a JSON object")
    except (ValueError, UnicodeDecodeError) as error:
        plan.skipped.append(Skipped(folder, f"{path}/{META}", "meta.json unreadable", str(error)))
        return None
    code, message = meta.get("exit_code"), (meta.get("error_msg") or "").strip()
    if code is None:
        plan.skipped.append(
            Skipped(folder, path, "exit_code null (the run never finished)", message)
        )
        return None
    if code != 0:
        plan.skipped.append(Skipped(folder, path, f"exit_code {code}", _first_line(message)))
        return None
    if message:
        plan.skipped.append(Skipped(folder, path, "error_msg with exit_code 0", message))
        return None
    return meta


def _first_line(message: str) -> str:
    """The informative line of an error message (the cloud API's error, the task's reason)."""
    lines = [line.strip(" \t*") for line in message.splitlines() if line.strip(" \t*")]
    informative = [line for line in lines if line != "1 error occurred:"]
    return (informative or lines or [""])[0]


def _date(value: Any) -> datetime.date | None:
    """meta.json's `start` (ISO 8601 without a zone) as a date; None when absent or malformed."""
    if not isinstance(value, str):
        return None
    try:
        return datetime.datetime.fromisoformat(value).date()
    except ValueError:
        return None
