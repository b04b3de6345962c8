"""The comparison page's cloud picker: a box per other vendor with prices and the cross-cloud
presets, each a link to its question. Read from the page's answer (selectors/pages/comparison.py),
so it sits above it, beside the other menus (selectors/pages/comparison_menus.py)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from benchmarks.models import Vendor
from benchmarks.selectors.pages.comparison import Comparison
from benchmarks.selectors.pages.family_facts import data_stamp

# The cross-cloud presets: (key, label, what they ask beside the benchmark and regions).
CLOUD_PRESETS = (
    ("arm", "ARM across clouds", {"families": "t4g,c7g,cax,Dpsv6,t2a"}),
    (
        "two-by-four",
        "Cheapest 2 vCPU / 4 GiB anywhere",
        {"families": "", "vcpus": "2", "memory_gib": "4", "order": "price"},
    ),
)


def cloud_controls(
    result: Comparison, arm: Callable[..., dict[str, list]] | None = None
) -> dict | None:
    """The vendor picker (a box per other vendor with prices, ticked when its region is
    ranked too, and the choice of its regions with prices) and the cross-cloud presets, each
    a link to its question (no script needed); None while only one vendor has prices.

    `arm`: reads each cloud's regions where its Arm types have prices, with their families
    (`family_facts.arm_regions`), called only where there is a picker: "ARM across clouds"
    asks another cloud's there."""
    query = result.query
    chosen = result.cloud_regions(query)
    if len(chosen) < 2 or not result.resolved:
        return None
    # The page's region (a cross-cloud question's first, `_page_region_first`) is the select's.
    region = result.price_menu.regions.get(query.region)
    page_vendor = region.vendor if region else None
    labels = dict(Vendor.choices)
    ranked = set(query.regions)
    offered = dict(result.regions_by_vendor)
    choices = [
        {
            "vendor": vendor,
            "label": labels[vendor],
            "value": f"{vendor}:{code}",
            "checked": (vendor, code) in ranked,
            # Every region of the vendor with prices: the box ranks the one chosen here.
            "regions": [f"{vendor}:{other}" for other in offered.get(vendor, [code])],
        }
        for vendor, code in chosen.items()
        if vendor != page_vendor
    ]
    kept = ("baseline", "region", "regions", "families", "vcpus", "memory_gib", "order")
    question = {name: value for name, value in result.resolved.items() if name not in kept}
    presets = []
    stamp = data_stamp(result.price_menu, result.benchmarks)
    arm_regions = arm(stamp=stamp) if arm else {}
    for key, label, asked in CLOUD_PRESETS:
        where = dict(chosen)
        if key == "arm" and arm_regions:
            where, asked = _arm_question(where, asked, arm_regions, page_vendor)
        everywhere = ",".join(f"{vendor}:{code}" for vendor, code in where.items())
        href = "?" + urlencode({**question, "regions": everywhere, **asked})
        presets.append({"key": key, "label": label, "href": href})
    return {"choices": choices, "presets": presets}


def _arm_question(
    chosen: dict[str, str], asked: dict[str, str], arm: dict, page_vendor: str | None
) -> tuple[dict[str, str], dict[str, str]]:
    """The "ARM across clouds" question: each other cloud's region where its Arm types have
    prices (the demo's bundled prices hold a few regions each), their families beside the
    preset's."""
    where, families = dict(chosen), list(asked["families"].split(","))
    for vendor, regions in arm.items():
        if vendor in where and vendor != page_vendor:
            # The region the box takes, when it is among the best; else the first of them.
            code, theirs = next((pair for pair in regions if pair[0] == where[vendor]), regions[0])
            where[vendor] = code
            families.extend(family for family in theirs if family not in families)
    return where, {**asked, "families": ",".join(families)}
