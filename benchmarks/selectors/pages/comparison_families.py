"""The comparison page's families: those a question opens on, those its form keeps asking
(`Comparison.families_asked`) and those its answer shows, which may be wider, each widening
said in a note that names the control to change.

The form keeps the question as asked, whatever the answer shows: choosing another benchmark or
region never replaces the families chosen (issue 54). The answer shows a region's own vendor's
families when none asked is its vendor's, every family measured when none asked has results,
and, when the families it took for a vendor have no price in the region, every family of that
vendor with one: an answer the data can give is never empty.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from benchmarks.family_presets import FamilyFacts
from benchmarks.models import Vendor
from benchmarks.questions.price_performance import VENDOR_DEFAULT_FAMILIES, PricePerformanceQuery
from benchmarks.selectors.costs import prices
from benchmarks.selectors.pages.family_facts import family_facts, vendor_first


def question_vendors(query: PricePerformanceQuery, menu: prices.PriceMenu) -> list[str]:
    """The vendors whose types the question ranks: those of `regions`, else the region's
    (AWS's for a region without prices, as the page then shows DEFAULT_REGION's)."""
    region = menu.regions.get(query.region)
    vendors = [vendor for vendor, _ in query.regions] or [region.vendor if region else Vendor.AWS]
    return list(dict.fromkeys(vendors))


def default_families(query: PricePerformanceQuery, menu: prices.PriceMenu) -> tuple[str, ...]:
    """The families a question that names none opens on: its vendors' defaults."""
    return tuple(
        family
        for vendor in question_vendors(query, menu)
        for family in VENDOR_DEFAULT_FAMILIES[vendor]
    )


def each_vendors_families(
    query: PricePerformanceQuery, menu: prices.PriceMenu, notes: list[str], *, stamp: Any = None
) -> tuple[PricePerformanceQuery, list[str]]:
    """A region whose vendor has none of the families asked (another cloud's region chosen,
    or ticked, with AWS's families ticked) takes its vendor's defaults, said in a note: in
    place of those asked for one region, beside them for a cross-cloud question. The vendors
    given their defaults come back too. `stamp`: the page's (`family_facts.data_stamp`)."""
    facts = family_facts(stamp=stamp)
    asked_vendors = {vendor for family in query.families for vendor in vendors_of(family, facts)}
    added: list[str] = []
    given: list[str] = []
    for vendor in question_vendors(query, menu):
        if vendor in asked_vendors:
            continue
        defaults = VENDOR_DEFAULT_FAMILIES[vendor]
        added.extend(defaults)
        given.append(vendor)
        notes.append(
            f"None of {', '.join(query.families)} is a family of {Vendor(vendor).label}: "
            f"its {', '.join(defaults)} are shown{' too' if query.regions else ''}. Tick "
            "others of its families under Families to choose them."
        )
    if not added:
        return query, given
    families = (*query.families, *added) if query.regions else tuple(added)
    return replace(query, families=families), given


def vendors_of(family: str, facts: dict[str, FamilyFacts]) -> tuple[str, ...]:
    known = facts.get(family)
    return known.vendors if known else ()


def priced_note(query: PricePerformanceQuery, vendor: str, region: str) -> str:
    """What the answer says when the families it took for `vendor` have no price in `region`
    and it shows every family of the vendor that has one."""
    option = query.purchase_option.replace("_", "-")
    return (
        f"None of {', '.join(query.families)} has an {option} price in {region}: every "
        f"{Vendor(vendor).label} family with one is shown (choose families under Families, "
        "or another region under Prices of region)."
    )


def of_question(families, vendors: list[str], facts: dict[str, FamilyFacts]) -> list[str]:
    """`families` that are the question's vendors' (or of no known vendor): those an answer
    in its regions can name as missing."""
    return [
        family
        for family in families
        if not vendors_of(family, facts) or set(vendors_of(family, facts)) & set(vendors)
    ]


def picker_families(
    asked: tuple[str, ...],
    measured: list[str],
    shown: list[str],
    vendors: list[str],
    facts: dict[str, FamilyFacts],
) -> list[str]:
    """The family picker's boxes: AWS's five (Fargate first, with results or not: the
    families the page exists to compare) and the question's vendors' defaults, the families
    asked, those measured with the benchmark and those shown, each once, the question's
    vendors' first."""
    defaults = [
        family for vendor in (Vendor.AWS, *vendors) for family in VENDOR_DEFAULT_FAMILIES[vendor]
    ]
    listed = list(dict.fromkeys([*defaults, *asked, *measured, *shown]))
    return vendor_first(listed, vendors, facts)
