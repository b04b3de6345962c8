"""EBS volume types: the sizes, IOPS and throughput AWS allows, what a volume performs, and
what it costs a month from its rates.

Limits are those of AWS's CreateVolume documentation (sizes in GiB, which AWS's prices call
GB): gp2 and gp3 1-16,384; io1 4-16,384; io2 4-65,536; st1 and sc1 125-16,384. Provisioned
IOPS: gp3 3,000-16,000 (at most 500 per GB), io1 100-64,000 (50 per GB), io2 100-256,000
(1,000 per GB); gp3 throughput 125-1,000 MiB/s, at most 0.25 MiB/s per provisioned IOPS.

Prices: every type pays per GB-month of storage; io1 and io2 per provisioned IOPS-month
(io2 in three tiers: up to 32,000, 32,001 to 64,000, above 64,000); gp3 per IOPS-month above
the 3,000 it includes and per MiB/s-month above the 125 it includes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from benchmarks.errors import DomainError
from benchmarks.storage import gp2

STORAGE, IOPS, THROUGHPUT = "storage", "iops", "throughput"
COMPONENTS = (STORAGE, IOPS, THROUGHPUT)
UNITS = {STORAGE: "GB-month", IOPS: "IOPS-month", THROUGHPUT: "MiB/s-month"}


@dataclass(frozen=True)
class VolumeRules:
    """What AWS allows for one volume type."""

    volume_type: str
    name: str
    min_size_gb: int
    max_size_gb: int
    iops: str = "none"  # "none" (not provisioned), "optional" (gp3), "required" (io1, io2)
    min_iops: int = 0
    max_iops: int = 0
    max_iops_per_gb: int = 0
    default_iops: int | None = None
    throughput: bool = False  # provisioned throughput (gp3)
    min_throughput: int = 0
    max_throughput: int = 0
    max_throughput_per_iops: Decimal = Decimal(0)
    default_throughput: int | None = None
    # Provisioned IOPS and throughput that the storage price already pays for (gp3).
    included_iops: int = 0
    included_throughput: int = 0
    # io2: the first provisioned IOPS of each tier, above the first.
    iops_tiers: tuple[int, ...] = ()
    # st1 and sc1: MiB/s per TiB, baseline and burst, and the volume's maximum; their IOPS
    # (1 MiB each) are at most max_hdd_iops.
    throughput_per_tib: int = 0
    burst_throughput_per_tib: int = 0
    max_hdd_throughput: int = 0
    max_hdd_iops: int = 0


VOLUME_RULES: dict[str, VolumeRules] = {
    rules.volume_type: rules
    for rules in (
        VolumeRules("gp2", "General Purpose SSD (gp2)", gp2.MIN_SIZE_GB, gp2.MAX_SIZE_GB),
        VolumeRules(
            "gp3",
            "General Purpose SSD (gp3)",
            1,
            16_384,
            iops="optional",
            min_iops=3_000,
            max_iops=16_000,
            max_iops_per_gb=500,
            default_iops=3_000,
            throughput=True,
            min_throughput=125,
            max_throughput=1_000,
            max_throughput_per_iops=Decimal("0.25"),
            default_throughput=125,
            included_iops=3_000,
            included_throughput=125,
        ),
        VolumeRules(
            "io1",
            "Provisioned IOPS SSD (io1)",
            4,
            16_384,
            iops="required",
            min_iops=100,
            max_iops=64_000,
            max_iops_per_gb=50,
        ),
        VolumeRules(
            "io2",
            "Provisioned IOPS SSD (io2)",
            4,
            65_536,
            iops="required",
            min_iops=100,
            max_iops=256_000,
            max_iops_per_gb=1_000,
            iops_tiers=(32_000, 64_000),
        ),
        VolumeRules(
            "st1",
            "Throughput Optimized HDD (st1)",
            125,
            16_384,
            throughput_per_tib=40,
            burst_throughput_per_tib=250,
            max_hdd_throughput=500,
            max_hdd_iops=500,
        ),
        VolumeRules(
            "sc1",
            "Cold HDD (sc1)",
            125,
            16_384,
            throughput_per_tib=12,
            burst_throughput_per_tib=80,
            max_hdd_throughput=250,
            max_hdd_iops=250,
        ),
    )
}
VOLUME_TYPES = tuple(VOLUME_RULES)


@dataclass(frozen=True)
class Volume:
    """A volume AWS would create: its type, size and what is provisioned (defaults filled)."""

    volume_type: str
    size_gb: int
    iops: int | None = None
    throughput: int | None = None

    @property
    def rules(self) -> VolumeRules:
        return VOLUME_RULES[self.volume_type]


@dataclass(frozen=True)
class Performance:
    """What a volume delivers: IOPS at baseline and at most, throughput in MiB/s when known."""

    baseline_iops: int | None
    max_iops: int
    baseline_throughput: float | None = None
    max_throughput: float | None = None


@dataclass(frozen=True)
class Charge:
    """One thing a volume pays for a month: `quantity` units of a component's tier."""

    component: str
    tier: int
    quantity: int

    @property
    def unit(self) -> str:
        return UNITS[self.component]


@dataclass(frozen=True)
class Part:
    """One line of a volume's monthly bill."""

    what: str
    tier: int
    quantity: int
    unit: str
    usd_per_unit_month: Decimal
    usd_per_month: Decimal


def volume(
    volume_type: str, size_gb: int, *, iops: int | None = None, throughput: int | None = None
) -> Volume:
    """The volume these parameters describe, or a DomainError naming the field AWS refuses."""
    rules = VOLUME_RULES.get(volume_type)
    if rules is None:
        raise DomainError(
            f"volume type {volume_type!r} is not one of {', '.join(VOLUME_TYPES)}",
            field="volume_type",
        )
    if not rules.min_size_gb <= size_gb <= rules.max_size_gb:
        raise DomainError(
            f"{volume_type} volumes are {rules.min_size_gb:,} to {rules.max_size_gb:,} GB, "
            f"not {size_gb:,}",
            field="size_gb",
        )
    iops = _check_iops(rules, size_gb, iops)
    throughput = _check_throughput(rules, iops, throughput)
    return Volume(volume_type=volume_type, size_gb=size_gb, iops=iops, throughput=throughput)


def _check_iops(rules: VolumeRules, size_gb: int, iops: int | None) -> int | None:
    name = rules.volume_type
    if rules.iops == "none":
        if iops is not None:
            why = "see gp2-burst for its IOPS" if name == "gp2" else "its throughput is per TiB"
            raise DomainError(f"{name} volumes take no provisioned IOPS ({why})", field="iops")
        return None
    if iops is None:
        if rules.iops == "required":
            raise DomainError(f"{name} volumes need their provisioned iops", field="iops")
        return rules.default_iops
    # gp3's 3,000 IOPS come with any size; only IOPS above them count against the ratio.
    allowed = max(rules.max_iops_per_gb * size_gb, rules.included_iops)
    why = f"of {size_gb:,} GB", f"{rules.max_iops_per_gb:,} per GB"
    _check_provisioned(rules, "iops", iops, allowed=allowed, why=why)
    return iops


def _check_throughput(rules: VolumeRules, iops: int | None, throughput: int | None) -> int | None:
    name = rules.volume_type
    if not rules.throughput:
        if throughput is not None:
            raise DomainError(f"{name} volumes take no provisioned throughput", field="throughput")
        return None
    if throughput is None:
        return rules.default_throughput
    allowed = max(int(rules.max_throughput_per_iops * (iops or 0)), rules.included_throughput)
    why = f"with {iops or 0:,} IOPS", f"{rules.max_throughput_per_iops} per IOPS"
    _check_provisioned(rules, "throughput", throughput, allowed=allowed, why=why)
    return throughput


# The unit a provisioned quantity is given in; VolumeRules bound it by min_ and max_<name>.
PROVISIONED_UNITS = {"iops": "IOPS", "throughput": "MiB/s"}


def _check_provisioned(
    rules: VolumeRules, field: str, value: int, *, allowed: int, why: tuple[str, str]
) -> None:
    """DomainError naming `field` unless a provisioned `value` is within the type's bounds
    and at most `allowed`, which `why` explains (the volume's, and the ratio)."""
    name, unit = rules.volume_type, PROVISIONED_UNITS[field]
    low, high = getattr(rules, f"min_{field}"), getattr(rules, f"max_{field}")
    if not low <= value <= high:
        raise DomainError(
            f"{name} volumes are provisioned with {low:,} to {high:,} {unit}, not {value:,}",
            field=field,
        )
    if value > allowed:
        which, ratio = why
        raise DomainError(
            f"{name} volumes {which} take at most {allowed:,} {unit} ({ratio}), not {value:,}",
            field=field,
        )


def performance(item: Volume) -> Performance:
    """Baseline and maximum IOPS (and MiB/s where the type defines them)."""
    rules = item.rules
    if item.volume_type == "gp2":
        baseline = gp2.baseline_iops(item.size_gb)
        return Performance(baseline_iops=baseline, max_iops=max(gp2.BURST_IOPS, baseline))
    if rules.max_hdd_iops:
        tib = item.size_gb / 1024
        return Performance(
            baseline_iops=None,
            max_iops=rules.max_hdd_iops,
            baseline_throughput=min(rules.throughput_per_tib * tib, rules.max_hdd_throughput),
            max_throughput=min(rules.burst_throughput_per_tib * tib, rules.max_hdd_throughput),
        )
    throughput = float(item.throughput) if item.throughput is not None else None
    return Performance(
        baseline_iops=item.iops,
        max_iops=item.iops,
        baseline_throughput=throughput,
        max_throughput=throughput,
    )


def charges(item: Volume) -> list[Charge]:
    """What the volume pays for each month; a component with nothing to pay is left out."""
    rules = item.rules
    found = [Charge(STORAGE, 1, item.size_gb)]
    if item.iops is not None:
        billable = item.iops - rules.included_iops
        bounds = (0, *rules.iops_tiers, math.inf)
        for tier, (low, high) in enumerate(zip(bounds, bounds[1:], strict=False), start=1):
            quantity = min(billable, high) - low
            if quantity > 0:
                found.append(Charge(IOPS, tier, int(quantity)))
    if item.throughput is not None and item.throughput > rules.included_throughput:
        found.append(Charge(THROUGHPUT, 1, item.throughput - rules.included_throughput))
    return found


def monthly_cost(item: Volume, rates: Mapping[tuple[str, int], Decimal]) -> list[Part]:
    """The volume's monthly bill, line by line, from its rates by (component, tier).

    `rates` must hold every charge's rate (a KeyError names the one missing).
    """
    return [
        Part(
            what=charge.component,
            tier=charge.tier,
            quantity=charge.quantity,
            unit=charge.unit,
            usd_per_unit_month=rates[(charge.component, charge.tier)],
            usd_per_month=rates[(charge.component, charge.tier)] * charge.quantity,
        )
        for charge in charges(item)
    ]
