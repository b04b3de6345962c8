"""Build benchmarks/demo/sparecores_inspector.csv.xz (AWS) and sparecores_inspector_<vendor>.csv.xz
(Azure, Google Cloud, Hetzner Cloud) from Spare Cores' inspector archives.

Reads ../shared/data/sparecores-inspector/<vendor>.tar.xz, and beside it the newer kinds'
more/<vendor>.tar.xz (stressngfull, membench, vllm, nvbandwidth, ffmpeg, stressnglongrun) where
it exists, in place with pricebench's own reader and parsers (the same plan as
`import_sparecores`: lscpu for the CPU and the vCPU count, meta.json for the date and the
tool's version, failed runs left out) and writes one row per
figure: the instance type with what its lscpu says, the run (the inspector file's path and
sha256, date, CPU model, tool version), the figure (benchmark key, params as JSON, value,
unit, direction, note) and its source and licence. The project keeps these figures, not
Spare Cores' files; they are shared, like the data they come from, under CC BY-SA 4.0 (see
benchmarks/demo/sparecores_inspector.md).

Each row's source names the archive's commit, as the README beside the archives gives it
(the archive's file name when no README says).

    .venv/bin/python scripts/build_demo_sparecores.py [--vendor aws|azure|gcp|hcloud]
        [--archive PATH] [--more PATH]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import lzma
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")

from benchmarks import inspector, parsers  # noqa: E402

ARCHIVES = ROOT.parent / "shared" / "data" / "sparecores-inspector"
DEMO = ROOT / "benchmarks" / "demo"
VENDORS = ("aws", "azure", "gcp", "hcloud")
COLUMNS = [
    "instance_type",
    "vcpus",
    "physical_cores",
    "threads_per_core",
    "architecture",
    "path",
    "sha256",
    "measured_at",
    "cpu_model",
    "tool_version",
    "benchmark",
    "params",
    "value",
    "unit",
    "higher_is_better",
    "notes",
    "source",
    "licence",
]


def output_path(vendor: str) -> Path:
    """AWS's file keeps the name it had before the other clouds came."""
    name = "sparecores_inspector" if vendor == "aws" else f"sparecores_inspector_{vendor}"
    return DEMO / f"{name}.csv.xz"


def source_of(archive: Path) -> str:
    """The rows' source: Spare Cores' repository at the commit the archives' README names
    (one commit for every vendor's archive), else the archive's file name."""
    readme = archive.parent / "README.md"
    found = (
        re.search(r"\bcommit ([0-9a-f]{7,40})\b", readme.read_text()) if readme.exists() else None
    )
    return f"{inspector.SOURCE} ({f'commit {found[1]}' if found else archive.name})"


def machines(archives: list[Path], vendor: str) -> list[inspector.Machine]:
    """The vendor's instance types of every archive, by name, each with the files of all of
    them (the newer kinds' archive holds other folders of the same types, and no lscpu)."""
    merged: dict[str, inspector.Machine] = {}
    for archive in archives:
        for machine in inspector.read_source(archive, vendor=vendor):
            known = merged.setdefault(machine.name, machine)
            if known is not machine:
                known.files.update(machine.files)
                known.other_folders |= machine.other_folders
    return [merged[name] for name in sorted(merged)]


def rows(archives: list[Path], vendor: str):
    """One dict per figure, in instance type and path order."""
    source = source_of(archives[0])
    for machine in machines(archives, vendor):
        plan = inspector.plan_machine(machine)
        cpu = plan.cpu
        for run in plan.runs:
            parsed = parsers.parse(run.content, format=run.format, **run.parse_options)
            for result in parsed.results:
                yield {
                    "instance_type": machine.name,
                    "vcpus": cpu.cpus if cpu else "",
                    "physical_cores": cpu.physical_cores if cpu and cpu.physical_cores else "",
                    "threads_per_core": cpu.threads_per_core if cpu else "",
                    "architecture": (cpu.architecture or "") if cpu else "",
                    "path": run.path,
                    "sha256": hashlib.sha256(run.content).hexdigest(),
                    "measured_at": run.measured_at.isoformat() if run.measured_at else "",
                    "cpu_model": (cpu.model_name or "") if cpu else "",
                    "tool_version": run.tool_version or parsed.tool_version or "",
                    "benchmark": result.benchmark,
                    "params": json.dumps(result.params, sort_keys=True, separators=(",", ":")),
                    "value": repr(result.value),
                    "unit": result.unit,
                    "higher_is_better": int(result.higher_is_better),
                    "notes": result.notes or "",
                    "source": source,
                    "licence": inspector.LICENCE,
                }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vendor", choices=VENDORS, default="aws")
    parser.add_argument("--archive", type=Path, help="default: <vendor>.tar.xz of the shared data")
    parser.add_argument(
        "--more", type=Path, help="the newer kinds' archive; default: more/<vendor>.tar.xz"
    )
    args = parser.parse_args()
    archive = args.archive or ARCHIVES / f"{args.vendor}.tar.xz"
    more = args.more or ARCHIVES / "more" / f"{args.vendor}.tar.xz"
    archives = [archive, *([more] if more.exists() else [])]
    output = output_path(args.vendor)
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in rows(archives, args.vendor):
        # One row per line: the demo's reader skips other machines' lines by their start.
        broken = [name for name, cell in row.items() if "\n" in str(cell) or "\r" in str(cell)]
        if broken:
            raise SystemExit(f"{row['instance_type']}: a line break in {', '.join(broken)}")
        writer.writerow(row)
        count += 1
    data = text.getvalue().encode("utf-8")
    output.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    print(
        f"wrote {output.relative_to(ROOT)}: {count:,} figures, {len(data):,} bytes of CSV, "
        f"{output.stat().st_size:,} compressed"
    )


if __name__ == "__main__":
    main()
