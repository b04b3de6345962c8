"""Write benchmarks/demo/instance_specs.csv from Spare Cores' server table of AWS, and
instance_specs_<vendor>.csv from those of Azure, Google Cloud and Hetzner Cloud.

    .venv/bin/python scripts/build_demo_specs.py [--shared ../shared/data/sparecores-servers]
        [--vendor aws|azure|gcp|hcloud|all]

The shared file (Spare Cores' public data dumps, SpareCores/sc-data-dumps @ e8749bef, January
2026, CC BY-SA 4.0) may not be copied into the project; its figures are written into our own
CSV, with a source column carrying the credit. What this script decides:

- `api_reference` is the EC2 name (it equals `name` and `server_id` for every AWS row), and
  the name another vendor's API and Spare Cores' inspector data use (Standard_D2ps_v6,
  n2-standard-2, cax11), the key the other vendors' files are joined on;
- architecture: ARM64 and ARM64_MAC are arm64; X86_64, X86_64_MAC and I386 (the small t2
  types, which also run 32-bit code) are x86_64;
- memory: MiB -> GiB; CPU model: maker, family and model joined ("Intel Xeon 8175M"), empty
  where Spare Cores names no model;
- cpu_allocation: Spare Cores' DEDICATED, SHARED and BURSTABLE, lower-cased;
- threads per core: vCPUs over cores, where that divides evenly;
- network_gbps: Spare Cores' `network_speed` (its baseline for "up to" types).
Three previous-generation types the demo has prices for are in neither: their vCPUs, memory
and GPUs are written here from AWS's EC2 User Guide (DOCUMENTED).
Types Spare Cores measured after that table was made (c8id, m8azn, m8id, m9g, m9gd, r8id,
i8g.metal-48xl) are written from what the machine said of itself in Spare Cores' inspector
data (`--inspector`, aws.tar.xz): lscpu's vCPUs, cores, threads and architecture, the memory
PassMark saw (benchmarks/parsers/passmark.py `nominal_memory_gib`), and dedicated vCPUs
(none is a T type: benchmarks/burstable.py `cpu_allocation_of`).
Baselines and CPU credits of burstable types are not here: they come from the vendors' own
tables (benchmarks/burstable.py) when the file is loaded. The other vendors' files hold their
types' allocation as Spare Cores publishes it (Azure's B series burstable, Hetzner's cx, cpx
and cax and Google's shared-core e2, f1 and g1 types shared); on loading, Azure's B series
and Google's shared-core types become burstable with their vendor's published baselines.
"""

from __future__ import annotations

import argparse
import csv
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import inspector  # noqa: E402
from benchmarks.burstable import cpu_allocation_of  # noqa: E402
from benchmarks.pricing.snapshot import DEMO_DIR, INSTANCE_SPEC_COLUMNS, write_rows  # noqa: E402

VENDORS = {"aws": "AWS", "azure": "Azure", "gcp": "Google Cloud", "hcloud": "Hetzner Cloud"}
SOURCE = (
    "Spare Cores (sparecores.com), CC BY-SA 4.0: server table of {} "
    "(SpareCores/sc-data-dumps @ e8749bef, January 2026)"
)
INSPECTOR_SOURCE = (
    "Spare Cores (sparecores.com), CC BY-SA 4.0: inspector data of AWS "
    "(SpareCores/sc-inspector-data @ 804d3c71): the machine's lscpu and PassMark's system "
    "information; dedicated vCPUs (not a burstable T type)"
)
DOCUMENTATION_SOURCE = (
    "AWS EC2 User Guide, hardware specifications of {} instances (awsdocs/amazon-ec2-user-guide)"
)
# name: (vCPUs, memory GiB, GPUs, the guide's page)
DOCUMENTED = {
    "cr1.8xlarge": (32, "243.76", 0, "memory optimized"),
    "g2.2xlarge": (8, "15", 1, "accelerated computing"),
    "g2.8xlarge": (32, "60", 4, "accelerated computing"),
}
ARCHITECTURES = {
    "ARM64": "arm64",
    "ARM64_MAC": "arm64",
    "X86_64": "x86_64",
    "X86_64_MAC": "x86_64",
    "I386": "x86_64",
}
LSCPU_ARCHITECTURES = {"x86_64": "x86_64", "aarch64": "arm64"}
ALLOCATIONS = {"DEDICATED": "dedicated", "SHARED": "shared", "BURSTABLE": "burstable"}
MIB_PER_GIB = Decimal(1024)


def spec_rows(shared: Path, vendor: str = "aws") -> list[dict]:
    servers_file = f"{vendor}.csv"
    with open(shared / servers_file, newline="", encoding="utf-8") as file:
        servers = list(csv.DictReader(file))
    rows = []
    for server in servers:
        name = server["api_reference"]
        if server["vendor_id"] != vendor or (vendor == "aws" and name != server["name"]):
            raise SystemExit(f"{servers_file}: {name}: not a {vendor} row named by its API name")
        vcpus, cores = int(server["vcpus"]), int(server["cpu_cores"] or 0)
        memory = (Decimal(server["memory_amount"]) / MIB_PER_GIB).quantize(Decimal("0.001"))
        model = server["cpu_model"]
        rows.append(
            {
                "name": name,
                "vcpus": vcpus,
                "physical_cores": cores or "",
                "threads_per_core": vcpus // cores if cores and vcpus % cores == 0 else "",
                "memory_gib": _plain(memory),
                "architecture": ARCHITECTURES[server["cpu_architecture"]],
                "cpu_allocation": ALLOCATIONS[server["cpu_allocation"]],
                "cpu_model": " ".join(
                    part
                    for part in (server["cpu_manufacturer"], server["cpu_family"], model)
                    if part
                )
                if model
                else "",
                "gpu_count": server["gpu_count"],
                "network_gbps": _plain(server["network_speed"]) if server["network_speed"] else "",
                "spec_source": "sparecores",
                "source": SOURCE.format(VENDORS[vendor]),
            }
        )
    return sorted(rows, key=lambda row: row["name"])


def documented_rows(known: set[str]) -> list[dict]:
    return [
        {
            "name": name,
            "vcpus": vcpus,
            "physical_cores": "",
            "threads_per_core": "",
            "memory_gib": memory,
            "architecture": "x86_64",
            "cpu_allocation": "dedicated",
            "cpu_model": "",
            "gpu_count": gpus,
            "network_gbps": "",
            "spec_source": "aws_documentation",
            "source": DOCUMENTATION_SOURCE.format(page),
        }
        for name, (vcpus, memory, gpus, page) in DOCUMENTED.items()
        if name not in known
    ]


def inspector_rows(archive: Path, known: set[str]) -> list[dict]:
    """Rows for the types the inspector data has and `known` lacks, from what each machine
    said of itself; a type without vCPUs, architecture or memory there is left out."""
    rows = []
    for machine in inspector.read_source(archive):
        if machine.name in known:
            continue
        plan = inspector.plan_machine(machine, kinds=())
        cpu, memory = plan.cpu, plan.memory_gib
        allocation = cpu_allocation_of(machine.name)
        if not (cpu and cpu.cpus and cpu.architecture and memory and allocation):
            print(f"{machine.name}: the inspector data does not say enough; left out")
            continue
        cores = cpu.physical_cores
        rows.append(
            {
                "name": machine.name,
                "vcpus": cpu.cpus,
                "physical_cores": cores or "",
                "threads_per_core": cpu.threads_per_core or "",
                "memory_gib": _plain(memory),
                "architecture": LSCPU_ARCHITECTURES[cpu.architecture],
                "cpu_allocation": allocation,
                "cpu_model": cpu.model_name or "",
                "gpu_count": "",
                "network_gbps": "",
                "spec_source": "sparecores_lscpu",
                "source": INSPECTOR_SOURCE,
            }
        )
    return rows


def _plain(number) -> str:
    return format(Decimal(str(number)).normalize(), "f")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--shared", type=Path, default=ROOT.parent / "shared/data/sparecores-servers"
    )
    parser.add_argument(
        "--inspector",
        type=Path,
        default=ROOT.parent / "shared/data/sparecores-inspector/aws.tar.xz",
    )
    parser.add_argument("--vendor", choices=[*VENDORS, "all"], default="aws")
    args = parser.parse_args()
    for vendor in VENDORS if args.vendor == "all" else [args.vendor]:
        if vendor == "aws":
            path = DEMO_DIR / "instance_specs.csv"
            rows = spec_rows(args.shared)
            rows += documented_rows({row["name"] for row in rows})
            rows += inspector_rows(args.inspector, {row["name"] for row in rows})
        else:
            path = DEMO_DIR / f"instance_specs_{vendor}.csv"
            rows = spec_rows(args.shared, vendor)
        rows.sort(key=lambda row: row["name"])
        write_rows(path, INSTANCE_SPEC_COLUMNS, rows)
        print(f"{path.relative_to(ROOT)}: {len(rows)} rows")


if __name__ == "__main__":
    main()
