"""What each instance type family's types say of it (vendors, processors, burstable), for the
family picker's presets, order and search (`family_presets`); where each cloud's Arm types
have prices, for "ARM across clouds"."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any

from benchmarks import freshness
from benchmarks.family_presets import FamilyFacts
from benchmarks.models import Architecture, InstanceType, Price, PurchaseOption, family_of

if TYPE_CHECKING:
    from benchmarks.models import Benchmark
    from benchmarks.selectors.costs.prices import PriceMenu

_KEY = "family-facts"


def family_facts(*, stamp: Any = None) -> dict[str, FamilyFacts]:
    """Every family's facts, by name. One query over the instance types' names and
    specifications, kept a few seconds (benchmarks.freshness), or while `stamp` (`data_stamp`)
    stays the same."""
    return freshness.kept_read(_KEY, _read, stamp=stamp)


def data_stamp(menu: PriceMenu, benchmarks: list[Benchmark]) -> Any:
    """When what the family facts and the Arm regions are read from last changed, as a page
    read it: its regions' `prices_updated_at` (their prices, and any type's specifications)
    and its benchmarks' `stats_updated_at` (a machine imported with its results moves only
    these). Kept with it, the two cost the comparison page no query while nothing changed,
    rather than two every few seconds."""
    stamps = [region.prices_updated_at for region in menu.regions.values()]
    stamps += [benchmark.stats_updated_at for benchmark in benchmarks]
    return (len(stamps), max((stamp for stamp in stamps if stamp), default=None))


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


def arm_regions(*, stamp: Any = None) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """For each vendor with an Arm type priced on demand: the regions where the most of its Arm
    types have a price (those tied for the most, by code), each with its Arm families there,
    those of the most types first (at most two): what "ARM across clouds" asks of another
    cloud. One query, kept a few seconds, or while `stamp` (`data_stamp`) stays the same."""
    return freshness.kept_read("arm-regions", _read_arm_regions, stamp=stamp)


def _read_arm_regions(families_per_vendor: int = 2) -> dict[str, list[tuple[str, tuple]]]:
    rows = (
        Price.objects.filter(
            instance_type__architecture=Architecture.ARM64,
            purchase_option=PurchaseOption.ON_DEMAND,
        )
        .exclude(instance_type__kind=InstanceType.Kind.FARGATE)
        .order_by()
        .values_list("region__vendor", "region__code", "instance_type__kind", "instance_type__name")
        .distinct()
    )
    types: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for vendor, code, kind, name in rows:
        types[vendor][code][family_of(kind, name)] += 1
    best = {}
    for vendor, regions in types.items():
        most = max(sum(families.values()) for families in regions.values())
        best[vendor] = [
            (code, tuple(family for family, _ in families.most_common(families_per_vendor)))
            for code, families in sorted(regions.items())
            if sum(families.values()) == most
        ]
    return best
