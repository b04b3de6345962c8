"""Rebuild benchmarks/demo/sparecores_openssl.csv from Spare Cores' raw inspector outputs.

Reads ../shared/data/sparecores-aws/<instance type>/{openssl_stdout, lscpu_stdout,
openssl_meta.json} with pricebench's own parsers and writes one row per figure in the
generic results format, each with its source and licence (CC BY-SA 4.0).

    .venv/bin/python scripts/build_demo_results.py
"""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")

from benchmarks import parsers  # noqa: E402
from benchmarks.parsers import lscpu  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "sparecores-aws"
OUTPUT = ROOT / "benchmarks" / "demo" / "sparecores_openssl.csv"
SOURCE = (
    "Benchmark data: Spare Cores (sparecores.com), SpareCores/sc-inspector-data commit "
    "804d3c71, aws/{instance_type}; the measuring region is not recorded there: filed under "
    "us-east-1"
)
LICENCE = "CC BY-SA 4.0"
COLUMNS = [
    "benchmark",
    "instance_type",
    "region",
    "value",
    "unit",
    "measured_at",
    "cpu_model",
    "notes",
    "source",
    "licence",
    "param.block_size",
    "param.processes",
]


def rows_for(folder: Path) -> list[dict]:
    meta = json.loads((folder / "openssl_meta.json").read_text())
    cpu = lscpu.parse((folder / "lscpu_stdout").read_text()).cpu
    parsed = parsers.parse((folder / "openssl_stdout").read_bytes(), format="openssl")
    return [
        {
            "benchmark": result.benchmark,
            "instance_type": folder.name,
            "region": "us-east-1",
            "value": repr(result.value),
            "unit": result.unit,
            "measured_at": meta["start"][:10],
            "cpu_model": cpu.model_name or "",
            "notes": f"openssl speed -mr -multi {result.params['processes']}, "
            f"OpenSSL {meta['version']}",
            "source": SOURCE.format(instance_type=folder.name),
            "licence": LICENCE,
            "param.block_size": result.params["block_size"],
            "param.processes": result.params["processes"],
        }
        for result in parsed.results
    ]


def main() -> None:
    folders = sorted(path for path in SHARED.iterdir() if (path / "openssl_stdout").exists())
    with OUTPUT.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for folder in folders:
            writer.writerows(rows_for(folder))
    print(f"wrote {OUTPUT.relative_to(ROOT)} from {len(folders)} instance types")


if __name__ == "__main__":
    main()
