"""What each instance type family's types say of it (vendors, processors, burstable), for the
family picker's presets, order and search (`family_presets`)."""

from __future__ import annotations

from collections import defaultdict

from benchmarks import freshness
from benchmarks.family_presets import FamilyFacts
from benchmarks.models import Architecture, InstanceType, family_of

_KEY = "family-facts"


def family_facts() -> dict[str, FamilyFacts]:
    """Every family's facts, by name. One query over the instance types' names and
    specifications, kept a few seconds (benchmarks.freshness)."""
    return freshness.kept_read(_KEY, _read)


def _read() -> dict[str, FamilyFacts]:
    vendors: dict[str, dict[str, None]] = defaultdict(dict)
    models: dict[str, dict[str, None]] = defaultdict(dict)
    arm: dict[str, bool] = defaultdict(bool)
    # Whether every type whose allocation is known is burstable; absent while none is known.
    burstable: dict[str, bool] = {}
    rows = InstanceType.objects.order_by().values_list(
        "vendor", "kind", "name", "cpu_model", "architecture", "cpu_allocation", "burstable"
    )
    for vendor, kind, name, cpu_model, architecture, allocation, is_burstable in rows:
        family = family_of(kind, name)
        vendors[family][vendor] = None
        if cpu_model:
            models[family][cpu_model] = None
        arm[family] |= architecture == Architecture.ARM64
        if allocation:
            burstable[family] = burstable.get(family, True) and is_burstable
    return {
        family: FamilyFacts(
            family,
            vendors=tuple(vendors[family]),
            cpu_models=tuple(sorted(models[family])),
            arm=arm[family],
            burstable=burstable.get(family),
        )
        for family in vendors
    }


def vendor_first(families: list[str], vendors, facts: dict[str, FamilyFacts]) -> list[str]:
    """`families` with those of `vendors` (the question's) first, each part in its order."""
    wanted = set(vendors)

    def theirs(family: str) -> bool:
        known = facts.get(family)
        return bool(known and wanted & set(known.vendors))

    return [family for family in families if theirs(family)] + [
        family for family in families if not theirs(family)
    ]
