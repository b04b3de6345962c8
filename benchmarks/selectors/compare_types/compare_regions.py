"""Where compare prices each type: in its own cloud, the region asked for its vendor, else the
type's cheapest region bought the way asked; and the page's menu of each vendor's regions."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

from benchmarks.models import InstanceType, Region, Vendor
from benchmarks.questions.compare import CHEAPEST, CompareQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.lookups import get_region, region_code
from benchmarks.selectors.costs.cheapest_regions import cheapest_region_codes

if TYPE_CHECKING:
    from benchmarks.selectors.compare_types.compare_lines import TypeComparison


def pricing_regions(
    types: list[InstanceType], query: CompareQuery, day: datetime.date
) -> tuple[Region, dict[int, tuple[Region | None, bool]]]:
    """The region asked (`region`), and where each type is priced by its id, with whether it
    is its cheapest: the region `regions` names for its vendor, else `region` when it is its
    vendor's, else the type's cheapest region bought the way asked (None where none prices
    it). A DomainError names a region its vendor does not have. One query, and one for the
    types priced at their cheapest (one more per Fargate size among them)."""
    asked = dict(query.regions)
    # Every region at once (about a hundred over four clouds): the regions asked, and those
    # the cheapest prices name, without a second query for the latter.
    known = {(region.vendor, region.code): region for region in Region.objects.all()}
    region = next(
        (r for (_vendor, code), r in sorted(known.items()) if code == query.region), None
    ) or get_region(query.region)
    chosen: dict[str, Region | None] = {region.vendor: region}
    for vendor, code in asked.items():
        if code == CHEAPEST:
            chosen[vendor] = None
        elif (vendor, code) in known:
            chosen[vendor] = known[vendor, code]
        else:
            # Not the vendor's: its lookup names the closest codes (or finds it, if an import
            # made it since the read above).
            region_code(f"{vendor}:{code}", field="regions")
            chosen[vendor] = Region.objects.get(vendor=vendor, code=code)
    where: dict[int, tuple[Region | None, bool]] = {}
    wanted: dict[int, tuple[str, str]] = {}
    purchase = Purchase.of(query.purchase_option)
    cheapest = [t for t in types if chosen.get(t.vendor) is None]
    # One query for every type priced at its cheapest, whatever their clouds (one a type was
    # the page's extra query: types from three clouds took 11).
    cheapest_codes = cheapest_region_codes(cheapest, purchase, day) if cheapest else {}
    for instance_type in types:
        place = chosen.get(instance_type.vendor)
        if place is not None:
            where[instance_type.pk] = (place, False)
            continue
        code = cheapest_codes[instance_type.pk]
        if code is None:
            where[instance_type.pk] = (None, True)
        else:
            wanted[instance_type.pk] = (instance_type.vendor, code)
    if any(pair not in known for pair in wanted.values()):
        # A region an import made since the read above.
        known |= {
            (r.vendor, r.code): r
            for r in Region.objects.filter(code__in={code for _v, code in wanted.values()})
        }
    for pk, pair in wanted.items():
        where[pk] = (known.get(pair), True)
    return region, where


@dataclass(frozen=True)
class RegionChoice:
    """The page's menu of one compared vendor's regions: `regions=` values, the chosen one."""

    vendor: str
    label: str
    chosen: str
    values: list[tuple[str, str]]


def region_choices(comparison: TypeComparison, menu: dict[str, Region]) -> list[RegionChoice]:
    """One menu per vendor among the compared types, in their order: "its cheapest region"
    then the vendor's regions with prices (`menu`: prices.price_menu().regions), the one its
    types are priced in chosen."""
    choices = []
    for vendor in dict.fromkeys(column.instance_type.vendor for column in comparison.columns):
        columns = [c for c in comparison.columns if c.instance_type.vendor == vendor]
        asked = next((c.region for c in columns if c.region is not None and not c.cheapest), None)
        codes = sorted(code for code, region in menu.items() if region.vendor == vendor)
        choices.append(
            RegionChoice(
                vendor=vendor,
                label=Vendor(vendor).label if vendor in Vendor.values else vendor,
                chosen=f"{vendor}:{asked.code if asked else CHEAPEST}",
                values=[(f"{vendor}:{CHEAPEST}", "each type's cheapest region")]
                + [(f"{vendor}:{code}", code) for code in codes],
            )
        )
    return choices
