"""AWS's published figures for its burstable instance types (t2, t3, t3a, t4g): pure data.

Source: AWS, Amazon EC2 User Guide, "Key concepts and definitions for burstable performance
instances", table "CPU credits and baseline utilization" (vCPUs, CPU credits earned per
hour, baseline utilisation per vCPU), and "Unlimited mode concepts" / the EC2 On-Demand
pricing page for the price of surplus credits (Linux, per vCPU-hour).

One CPU credit is one vCPU at 100% for one minute, so a type earns
`baseline_share x vCPUs x 60` credits an hour (t2.2xlarge: 0.17 x 8 x 60 = 81.6), and can
hold at most 24 hours of them (`max_earned_credits`). No Django here: the models, the price
questions and the tests read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

SOURCE = 'AWS EC2 User Guide, "Key concepts and definitions for burstable performance instances"'
SOURCE_URL = (
    "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/burstable-credits-baseline-concepts.html"
)

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
    cpu_credits_per_hour: Decimal

    @property
    def family(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def max_earned_credits(self) -> Decimal:
        """The most credits the type can hold: 24 hours of earning (t2.nano: 72)."""
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


def burstable_spec(name: str) -> BurstableSpec | None:
    """AWS's published figures for a burstable type (`t4g.nano`), or None for any other."""
    return BURSTABLE_TYPES.get(name)


def surplus_usd_per_vcpu_hour(family: str) -> Decimal | None:
    """The price of surplus credits in unlimited mode for a family (`t4g`: $0.04 per
    vCPU-hour, Linux), or None for a family that is not burstable."""
    return SURPLUS_USD_PER_VCPU_HOUR.get(family)


_T_FAMILY = re.compile(r"^t\d")


def cpu_allocation_of(name: str) -> str | None:
    """`burstable` for a type in AWS's table, `dedicated` for an EC2 type of any other family
    (AWS's burstable performance instances are the T families; every other type runs its
    vCPUs flat out), and None for a T type the table does not know (a newer T family: not
    guessed)."""
    if name in BURSTABLE_TYPES:
        return "burstable"
    return None if _T_FAMILY.match(name) else "dedicated"
