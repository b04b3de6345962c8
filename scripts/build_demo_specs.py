"""Write benchmarks/demo/instance_specs.csv from Spare Cores' server table of AWS, and
instance_specs_<vendor>.csv from those of Azure, Google Cloud, Hetzner Cloud, UpCloud, Alibaba
Cloud and OVHcloud (Spare Cores publish none of Vultr: its types are specified on import by
what each machine says of itself).

    .venv/bin/python scripts/build_demo_specs.py [--shared ../shared/data/sparecores-servers]
        [--vendor aws|azure|gcp|hcloud|upcloud|alicloud|ovh|all] [--aws-network PATH]

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
- network_gbps: Spare Cores' `network_speed` (its baseline for "up to" types), in Gbit/s;
  OVHcloud's rows give it in Mbit/s (b2-7's 250 is OVH's "250 Mbit/s"), divided here;
- network_performance (AWS's rows): the network AWS sells, in its own words ("Up to 5
  Gigabit": the burst, where network_gbps is the baseline), from describe_instance_types as
  moto bundles it (`--aws-network`: getmoto/moto's moto/ec2/resources/instance_types.json,
  Apache-2.0; required to write AWS's file).
Three previous-generation types the demo has prices for are in neither: their vCPUs, memory
and GPUs are written here from AWS's EC2 User Guide (DOCUMENTED).
Types Spare Cores measured after that table was made (AWS's c8id, m8azn, m8id, m9g, m9gd,
r8id, i8g.metal-48xl; Azure's v7 and Dnsv6/Ensv6 sizes; Google's c4n) are written from what
the machine said of itself in Spare Cores' inspector data (`--inspector`, the vendor's archive
beside aws.tar.xz): lscpu's vCPUs, cores, threads and architecture, the memory PassMark saw
(benchmarks/parsers/passmark.py `nominal_memory_gib`), and the vCPUs' allocation by the
vendor's naming (benchmarks/burstable.py `cpu_allocation_of`: none is a T type or of Azure's B
series). Azure types the demo has prices for and neither source knows are written from their
size pages on Microsoft Learn (AZURE_DOCUMENTED), else by Microsoft's naming conventions for
VM sizes (scripts/azure_named_specs.py): the same size as a known one under the Basic tier, a
promotion, a constrained-vCPU count or a feature that changes neither vCPUs nor memory, or a
size of a series whose known sizes all have the same memory per vCPU; a type none of these
rules specifies is left out, and said so.
Baselines and CPU credits of burstable types are not here: they come from the vendors' own
tables (benchmarks/burstable.py) when the file is loaded. The other vendors' files hold their
types' allocation as Spare Cores publishes it (Azure's B series burstable, Hetzner's cx, cpx
and cax and Google's shared-core e2, f1 and g1 types shared); on loading, Azure's B series
and Google's shared-core types become burstable with their vendor's published baselines.
"""

from __future__ import annotations

import argparse
import csv
import json
import lzma
import os
import sys
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")

import django  # noqa: E402

django.setup()

from azure_named_specs import azure_named_rows  # noqa: E402 (this script's folder)

from benchmarks import inspector  # noqa: E402
from benchmarks.burstable import ALLOCATION_SOURCES, cpu_allocation_of  # noqa: E402
from benchmarks.pricing.snapshot import (  # noqa: E402
    DEMO_DIR,
    INSTANCE_SPEC_COLUMNS,
    plain_figure,
    read_cloud_prices,
    write_rows,
)
from benchmarks.services.demo_figures import sparecores_file  # noqa: E402

VENDORS = {
    "aws": "AWS",
    "azure": "Azure",
    "gcp": "Google Cloud",
    "hcloud": "Hetzner Cloud",
    "upcloud": "UpCloud",
    "alicloud": "Alibaba Cloud",
    "ovh": "OVHcloud",
}
# The vendors whose inspector data the shared archives hold (sparecores-inspector/).
ARCHIVED = ("aws", "azure", "gcp", "hcloud")
SOURCE = (
    "Spare Cores (sparecores.com), CC BY-SA 4.0: server table of {} "
    "(SpareCores/sc-data-dumps @ e8749bef, January 2026)"
)
INSPECTOR_SOURCE = (
    "Spare Cores (sparecores.com), CC BY-SA 4.0: inspector data of {} "
    "(SpareCores/sc-inspector-data @ 804d3c71): the machine's lscpu and PassMark's system "
    "information; the vCPUs' allocation by the vendor's naming ({})"
)
NETWORK_SOURCE = (
    "; network performance: AWS's describe_instance_types, as moto bundles it (getmoto/moto @ "
    "{}, moto/ec2/resources/instance_types.json, Apache-2.0)"
)
DESCRIBED_SOURCE = (
    "AWS's describe_instance_types, as moto bundles it (getmoto/moto @ {}, "
    "moto/ec2/resources/instance_types.json, Apache-2.0): vCPUs, cores, threads per core, "
    "memory, architecture, GPUs, network performance; the vCPUs' allocation by AWS's naming"
)
# The commit of moto's file the bundled words were read from.
MOTO_COMMIT = "0af643a5"
# Spare Cores' network_speed of these vendors is in Mbit/s, not Gbit/s.
NETWORK_IN_MBITS = {"ovh"}
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
                "memory_gib": plain_figure(memory),
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
                "gpu_model": server["gpu_model"],
                # Spare Cores' gpu_memory_total is in MiB, all the GPUs together.
                "gpu_memory_gib": plain_figure(
                    (Decimal(server["gpu_memory_total"]) / MIB_PER_GIB).quantize(Decimal("0.001"))
                )
                if server["gpu_memory_total"]
                else "",
                "network_gbps": _network_gbps(server["network_speed"], vendor),
                "spec_source": "sparecores",
                "source": SOURCE.format(VENDORS[vendor]),
            }
        )
    return sorted(rows, key=lambda row: row["name"])


def _network_gbps(speed: str, vendor: str) -> str:
    if not speed:
        return ""
    gbps = Decimal(speed) / 1000 if vendor in NETWORK_IN_MBITS else Decimal(speed)
    return plain_figure(gbps)


def aws_network_words(path: Path) -> dict[str, str]:
    """Each AWS type's network performance as describe_instance_types words it, from moto's
    bundled copy of the answers (a JSON object by type name)."""
    with open(path, encoding="utf-8") as file:
        types = json.load(file)
    return {
        name: words
        for name, answer in types.items()
        if (words := (answer.get("NetworkInfo") or {}).get("NetworkPerformance"))
    }


def add_network_words(rows: list[dict], words: dict[str, str]) -> None:
    """AWS's words for each row's network, credited in its source."""
    for row in rows:
        if row["name"] in words:
            row["network_performance"] = words[row["name"]]
            if row["spec_source"] != "describe_instance_types":
                row["source"] += NETWORK_SOURCE.format(MOTO_COMMIT)


def described_rows(path: Path, wanted: set[str], known: set[str]) -> list[dict]:
    """Rows for the `wanted` AWS types neither Spare Cores' table nor the main inspector
    archive specifies (the newer kinds' archive measured them), from AWS's
    describe_instance_types as moto bundles it."""
    with open(path, encoding="utf-8") as file:
        types = json.load(file)
    rows = []
    for name in sorted(wanted - known):
        answer = types.get(name)
        if answer is None:
            print(f"{name}: describe_instance_types does not list it; left out")
            continue
        cpu, gpus = answer["VCpuInfo"], (answer.get("GpuInfo") or {}).get("Gpus") or []
        architectures = answer["ProcessorInfo"]["SupportedArchitectures"]
        memory = Decimal(answer["MemoryInfo"]["SizeInMiB"]) / MIB_PER_GIB
        gpu_memory = (answer.get("GpuInfo") or {}).get("TotalGpuMemoryInMiB")
        rows.append(
            {
                "name": name,
                "vcpus": cpu["DefaultVCpus"],
                "physical_cores": cpu.get("DefaultCores", ""),
                "threads_per_core": cpu.get("DefaultThreadsPerCore", ""),
                "memory_gib": plain_figure(memory),
                "architecture": "arm64" if "arm64" in architectures else "x86_64",
                "cpu_allocation": cpu_allocation_of(name, "aws"),
                "cpu_model": "",
                "gpu_count": sum(gpu["Count"] for gpu in gpus),
                "gpu_model": gpus[0]["Name"] if gpus else "",
                "gpu_memory_gib": plain_figure(Decimal(gpu_memory) / MIB_PER_GIB)
                if gpu_memory
                else "",
                "network_gbps": "",
                "spec_source": "describe_instance_types",
                "source": DESCRIBED_SOURCE.format(MOTO_COMMIT),
            }
        )
    return rows


def measured_types(vendor: str) -> set[str]:
    """The vendor's types the bundled Spare Cores figures have (services/demo_figures.py's file)."""
    with lzma.open(sparecores_file(vendor), "rt", encoding="utf-8", newline="") as file:
        return {row["instance_type"] for row in csv.DictReader(file)}


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
            "gpu_model": "",
            "gpu_memory_gib": "",
            "network_gbps": "",
            "spec_source": "aws_documentation",
            "source": DOCUMENTATION_SOURCE.format(page),
        }
        for name, (vcpus, memory, gpus, page) in DOCUMENTED.items()
        if name not in known
    ]


def inspector_rows(archive: Path, known: set[str], vendor: str = "aws") -> list[dict]:
    """Rows for the types the inspector data has and `known` lacks, from what each machine
    said of itself; a type without vCPUs, architecture or memory there is left out."""
    rows = []
    source = INSPECTOR_SOURCE.format(VENDORS[vendor], ALLOCATION_SOURCES[vendor])
    for machine in inspector.read_source(archive, vendor=vendor):
        if machine.name in known:
            continue
        plan = inspector.plan_machine(machine, kinds=())
        cpu, memory = plan.cpu, plan.memory_gib
        allocation = cpu_allocation_of(machine.name, vendor)
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
                "memory_gib": plain_figure(memory),
                "architecture": LSCPU_ARCHITECTURES[cpu.architecture],
                "cpu_allocation": allocation,
                "cpu_model": cpu.model_name or "",
                "gpu_count": "",
                "gpu_model": "",
                "gpu_memory_gib": "",
                "network_gbps": "",
                "spec_source": "sparecores_lscpu",
                "source": source,
            }
        )
    return rows


def priced_types(vendor: str) -> set[str]:
    """The vendor's types the bundled prices (cloud_prices.csv) name."""
    return {record.instance_type for record, _ in read_cloud_prices() if record.vendor == vendor}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--shared", type=Path, default=ROOT.parent / "shared/data/sparecores-servers"
    )
    parser.add_argument(
        "--inspector",
        type=Path,
        default=ROOT.parent / "shared/data/sparecores-inspector/aws.tar.xz",
        help="AWS's archive; another vendor's is the file named after it beside it",
    )
    parser.add_argument("--vendor", choices=[*VENDORS, "all"], default="aws")
    parser.add_argument(
        "--aws-network",
        type=Path,
        help="moto's moto/ec2/resources/instance_types.json (AWS's describe_instance_types "
        f"answers; getmoto/moto @ {MOTO_COMMIT}): AWS's words for each type's network",
    )
    args = parser.parse_args()
    if args.vendor in ("aws", "all") and args.aws_network is None:
        parser.error("AWS's file needs --aws-network (moto's instance_types.json)")
    for vendor in VENDORS if args.vendor == "all" else [args.vendor]:
        rows = spec_rows(args.shared, vendor)
        if vendor == "aws":
            path = DEMO_DIR / "instance_specs.csv"
            rows += documented_rows({row["name"] for row in rows})
        else:
            path = DEMO_DIR / f"instance_specs_{vendor}.csv"
        if vendor in ARCHIVED:
            archive = args.inspector.with_name(f"{vendor}.tar.xz")
            rows += inspector_rows(archive, {row["name"] for row in rows}, vendor)
        if vendor == "azure":
            rows += azure_named_rows(rows, priced_types(vendor))
        if vendor == "aws":
            measured = measured_types(vendor)
            rows += described_rows(args.aws_network, measured, {row["name"] for row in rows})
            add_network_words(rows, aws_network_words(args.aws_network))
        rows.sort(key=lambda row: row["name"])
        write_rows(path, INSTANCE_SPEC_COLUMNS, rows)
        print(f"{path.relative_to(ROOT)}: {len(rows)} rows")


if __name__ == "__main__":
    main()
