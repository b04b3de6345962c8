"""The vendors' published figures for their burstable types: pure data. AWS's t2, t3, t3a
and t4g; Azure's B series (B, Bsv2, Basv2, Bpsv2); Google Cloud's shared-core types (e2-micro,
e2-small, e2-medium, f1-micro, g1-small).

AWS's source: Amazon EC2 User Guide, "Key concepts and definitions for burstable performance
instances", table "CPU credits and baseline utilization" (vCPUs, CPU credits earned per
hour, baseline utilisation per vCPU), and "Unlimited mode concepts" / the EC2 On-Demand
pricing page for the price of surplus credits (Linux, per vCPU-hour).

One CPU credit is one vCPU at 100% for one minute, so a type earns
`baseline_share x vCPUs x 60` credits an hour (t2.2xlarge: 0.17 x 8 x 60 = 81.6), and can
hold at most 24 hours of them (`max_earned_credits`).

Azure's source: Microsoft Learn, the size pages of the B series ("B-series burstable virtual
machine sizes", "Bsv2-series", "Basv2-series", "Bpsv2-series"), table "Base CPU performance,
Credits, and other CPU bursting related info". Azure's credit is AWS's (one vCPU at 100% for a
minute). The v2 series' pages give the base performance per vCPU (Standard_B2ps_v2 40%, 48
credits an hour); the first B series' page gives it for the whole VM on a 0 to vCPUs x 100%
scale (Standard_B8ms 135% of 800%: 16.875% of each vCPU, 81 credits an hour), kept here as
published and divided by the vCPUs. Azure sells no surplus credits.

Google Cloud's source: Compute Engine documentation, "General-purpose machine family",
shared-core machine types: each type's vCPUs and its fractional vCPU, the share it may use
sustained (e2-micro: 0.25 of its 2 vCPUs, 12.5% each). Google publishes no credit figures,
so these types have none (`cpu_credits_per_hour` None).

No Django here: the models, the price questions and the tests read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

SOURCE = 'AWS EC2 User Guide, "Key concepts and definitions for burstable performance instances"'
SOURCE_URL = (
    "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/burstable-credits-baseline-concepts.html"
)
AZURE_SOURCE = (
    'Microsoft Learn, Azure B-series size pages (B, Bsv2, Basv2, Bpsv2), "Base CPU performance,'
    ' Credits, and other CPU bursting related info"'
)
GCP_SOURCE = (
    'Google Cloud, Compute Engine "General-purpose machine family": shared-core machine types'
    " (fractional vCPUs)"
)
# Each vendor's source, by Spare Cores' vendor id.
SOURCES = {"aws": SOURCE, "azure": AZURE_SOURCE, "gcp": GCP_SOURCE}

# Unlimited mode: surplus credits cost this much per vCPU-hour (Linux, every region).
SURPLUS_USD_PER_VCPU_HOUR: dict[str, Decimal] = {
    "t2": Decimal("0.05"),
    "t3": Decimal("0.05"),
    "t3a": Decimal("0.05"),
    "t4g": Decimal("0.04"),
}


@dataclass(frozen=True)
class BurstableSpec:
    """One burstable type as AWS publishes it."""

    name: str
    vcpus: int
    baseline_share: Decimal  # of each vCPU: t4g.nano 0.05
    cpu_credits_per_hour: Decimal | None  # None where the vendor publishes none (Google)
    vendor: str = "aws"

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def max_earned_credits(self) -> Decimal | None:
        """The most credits an AWS type can hold: 24 hours of earning (t2.nano: 72)."""
        if self.cpu_credits_per_hour is None:
            return None
        return self.cpu_credits_per_hour * 24


def _family(family: str, rows: list[tuple[str, int, str, str]]) -> dict[str, BurstableSpec]:
    return {
        f"{family}.{size}": BurstableSpec(
            f"{family}.{size}", vcpus, Decimal(percent) / 100, Decimal(credits_per_hour)
        )
        for size, vcpus, percent, credits_per_hour in rows
    }


# size, vCPUs, baseline utilisation per vCPU (%), CPU credits earned per hour: AWS's table.
_T2 = [
    ("nano", 1, "5", "3"),
    ("micro", 1, "10", "6"),
    ("small", 1, "20", "12"),
    ("medium", 2, "20", "24"),
    ("large", 2, "30", "36"),
    ("xlarge", 4, "22.5", "54"),
    ("2xlarge", 8, "17", "81.6"),
]
# t3, t3a and t4g share one table.
_T3 = [
    ("nano", 2, "5", "6"),
    ("micro", 2, "10", "12"),
    ("small", 2, "20", "24"),
    ("medium", 2, "20", "24"),
    ("large", 2, "30", "36"),
    ("xlarge", 4, "40", "96"),
    ("2xlarge", 8, "40", "192"),
]

BURSTABLE_TYPES: dict[str, BurstableSpec] = {
    **_family("t2", _T2),
    **_family("t3", _T3),
    **_family("t3a", _T3),
    **_family("t4g", _T3),
}


# Azure's first B series: size, vCPUs, base CPU performance of the VM as first published
# (0 to vCPUs x 100%), CPU credits banked per hour.
_AZURE_B = [
    ("B1ls", 1, "5", "3"),
    ("B1s", 1, "10", "6"),
    ("B1ms", 1, "20", "12"),
    ("B2s", 2, "40", "24"),
    ("B2ms", 2, "60", "36"),
    ("B4ms", 4, "90", "54"),
    ("B8ms", 8, "135", "81"),
    ("B12ms", 12, "202", "121"),
    ("B16ms", 16, "270", "162"),
    ("B20ms", 20, "337", "202"),
]
# Bsv2 (Intel), Basv2 (AMD, an `a` after the size) and Bpsv2 (Ampere Altra, a `p`) share one
# table: size, vCPUs, base CPU performance of each vCPU (%), credits banked per hour; Bpsv2
# stops at 16 vCPUs.
_AZURE_V2 = [
    ("2ts", 2, "20", "24"),
    ("2ls", 2, "30", "36"),
    ("2s", 2, "40", "48"),
    ("4ls", 4, "30", "72"),
    ("4s", 4, "40", "96"),
    ("8ls", 8, "30", "144"),
    ("8s", 8, "40", "192"),
    ("16ls", 16, "30", "288"),
    ("16s", 16, "40", "384"),
    ("32ls", 32, "30", "576"),
    ("32s", 32, "40", "768"),
]


def _azure_v2(letter: str, largest: int) -> dict[str, BurstableSpec]:
    specs = {}
    for size, vcpus, percent, credits_per_hour in _AZURE_V2:
        if vcpus > largest:
            continue
        digits = size.rstrip("tls")
        name = f"Standard_B{digits}{letter}{size[len(digits) :]}_v2"
        specs[name] = BurstableSpec(
            name, vcpus, Decimal(percent) / 100, Decimal(credits_per_hour), vendor="azure"
        )
    return specs


AZURE_BURSTABLE_TYPES: dict[str, BurstableSpec] = {
    **{
        f"Standard_{size}": BurstableSpec(
            f"Standard_{size}",
            vcpus,
            Decimal(vm_percent) / 100 / vcpus,
            Decimal(credits_per_hour),
            vendor="azure",
        )
        for size, vcpus, vm_percent, credits_per_hour in _AZURE_B
    },
    **_azure_v2("", 32),
    **_azure_v2("a", 32),
    **_azure_v2("p", 16),
}

# Google Cloud's shared-core types: name, vCPUs, fractional vCPU (the sustained share of the
# whole machine).
_GCP_SHARED_CORE = [
    ("e2-micro", 2, "0.25"),
    ("e2-small", 2, "0.5"),
    ("e2-medium", 2, "1"),
    ("f1-micro", 1, "0.2"),
    ("g1-small", 1, "0.5"),
]
GCP_BURSTABLE_TYPES: dict[str, BurstableSpec] = {
    name: BurstableSpec(name, vcpus, Decimal(fraction) / vcpus, None, vendor="gcp")
    for name, vcpus, fraction in _GCP_SHARED_CORE
}

_BY_VENDOR = {"aws": BURSTABLE_TYPES, "azure": AZURE_BURSTABLE_TYPES, "gcp": GCP_BURSTABLE_TYPES}


def burstable_spec(name: str, vendor: str = "aws") -> BurstableSpec | None:
    """The vendor's published figures for a burstable type (`t4g.nano`; `Standard_B2s` of
    azure, `e2-micro` of gcp), or None for any other."""
    return _BY_VENDOR.get(vendor, {}).get(name)


def surplus_usd_per_vcpu_hour(family: str) -> Decimal | None:
    """The price of surplus credits in unlimited mode for a family (`t4g`: $0.04 per
    vCPU-hour, Linux), or None for a family that is not burstable."""
    return SURPLUS_USD_PER_VCPU_HOUR.get(family)


_T_FAMILY = re.compile(r"^t\d")
_AZURE_B_SERIES = re.compile(r"^Standard_B\d")
# Hetzner Cloud's and Vultr's plans by the letters their names start with: Hetzner's "Shared
# vCPU" (cx, cpx, cax) and "Dedicated vCPU" (ccx) plans; Vultr's Cloud Compute (vc2, and its
# High Frequency vhf and High Performance vhp: shared vCPUs), Optimized Cloud Compute (voc)
# and Dedicated Cloud (vdc, dedicated vCPUs) and Bare Metal (vbm).
_PLAN_LETTERS = re.compile(r"^([a-z]+)")
_PLAN_ALLOCATIONS = {
    "hcloud": {"cx": "shared", "cpx": "shared", "cax": "shared", "ccx": "dedicated"},
    "vultr": {
        "vc": "shared",
        "vhf": "shared",
        "vhp": "shared",
        "voc": "dedicated",
        "vdc": "dedicated",
        "vbm": "dedicated",
    },
}
# Where each vendor's rule is documented, for the specifications' source.
ALLOCATION_SOURCES = {
    "aws": f"{SOURCE}: the T families are AWS's burstable performance instances",
    "azure": "Microsoft Learn, Azure VM sizes overview: the B series are Azure's burstable sizes",
    "gcp": f"{GCP_SOURCE}; every other machine type has whole vCPUs",
    "hcloud": 'Hetzner Cloud, server types: "Shared vCPU" (cx, cpx, cax), "Dedicated vCPU" (ccx)',
    "vultr": "Vultr, products: Cloud Compute (vc2, vhf, vhp: shared vCPUs), Optimized Cloud "
    "Compute (voc) and Dedicated Cloud (vdc: dedicated vCPUs), Bare Metal (vbm)",
}


def cpu_allocation_of(name: str, vendor: str = "aws") -> str | None:
    """How a type's vCPUs are sold, by its vendor's documented naming (ALLOCATION_SOURCES):
    AWS's `burstable` for a type in its table and `dedicated` for any other family (AWS's
    burstable performance instances are the T families), Azure's B series `burstable` and its
    other series `dedicated`, Google Cloud's shared-core types `burstable` and the others
    `dedicated`, Hetzner's and Vultr's plans by their letters. None where the vendor's naming
    does not say (a newer T family, a plan of letters not listed): not guessed."""
    if vendor == "aws":
        if name in BURSTABLE_TYPES:
            return "burstable"
        return None if _T_FAMILY.match(name) else "dedicated"
    if vendor == "azure":
        return "burstable" if _AZURE_B_SERIES.match(name) else "dedicated"
    if vendor == "gcp":
        return "burstable" if name in GCP_BURSTABLE_TYPES else "dedicated"
    letters = _PLAN_LETTERS.match(name)
    return _PLAN_ALLOCATIONS.get(vendor, {}).get(letters[1]) if letters else None
