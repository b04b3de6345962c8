"""Azure sizes the bundled specifications name that neither Spare Cores' table nor the
inspector archive specifies (scripts/build_demo_specs.py's last resort): from their size pages
on Microsoft Learn (AZURE_DOCUMENTED), else by Microsoft's naming conventions for VM sizes, as
the same size as a known one or of a series whose known sizes all have one memory per vCPU.
Imported by build_demo_specs.py once Django is set up."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal

from benchmarks.burstable import cpu_allocation_of
from benchmarks.models import vm_family
from benchmarks.pricing.snapshot import plain_figure

AZURE_NAMING_SOURCE = (
    "Microsoft Learn, Azure VM sizes naming conventions ([Family] + [# of vCPUs] + "
    "[Constrained vCPUs] + [Additive Features] + [Accelerator Type] + [Version]): {}"
)
AZURE_DOCUMENTATION_SOURCE = (
    "Microsoft Learn, {} (MicrosoftDocs/azure-compute-docs, articles/virtual-machines/sizes/{})"
)
# Azure sizes the demo has prices for that neither Spare Cores nor the naming conventions
# specify: name: (vCPUs, memory GiB, GPUs, the size page's title, its path).
AZURE_DOCUMENTED = {
    "Standard_M64lds_v4": (
        64,
        "1024",
        0,
        "Mdsv4 Medium Memory sizes series",
        "memory-optimized/mdsv4-series.md",
    ),
    "Standard_NC320ds_xl_RTXPRO6000BSE_v6": (
        320,
        "1280",
        2,
        "NC RTX PRO 6000 Blackwell Server Edition v6 sizes series",
        "gpu-accelerated/nc-rtxpro6000-bse-v6-series.md",
    ),
    "Standard_NC320lds_xl_RTXPRO6000BSE_v6": (
        320,
        "640",
        2,
        "NC RTX PRO 6000 Blackwell Server Edition v6 sizes series",
        "gpu-accelerated/nc-rtxpro6000-bse-v6-series.md",
    ),
}
# Standard_<series><vCPUs>[-<constrained>]<features>[-<constrained>][_<more>][_v<N>]: Azure's
# naming conventions (M416s-208_6_v3 writes its constrained vCPUs after the features).
AZURE_SIZE = re.compile(
    r"^(?P<tier>Standard|Basic)_(?P<series>[A-Z]+)(?P<vcpus>\d+)(?:-(?P<before>\d+))?"
    r"(?P<features>[a-z]*)(?:-(?P<after>\d+))?(?P<rest>(?:_[A-Za-z0-9]+)*?)(?P<version>_v\d+)?$"
)
# Additive features that change neither vCPUs nor memory (the naming conventions: b block
# storage performance, i isolated size, n network optimised, r RDMA).
NEUTRAL_FEATURES = {
    "b": "block storage performance",
    "i": "an isolated size",
    "n": "network optimised",
    "r": "RDMA",
}


def azure_named_rows(rows: list[dict], wanted: set[str]) -> list[dict]:
    """Rows for the `wanted` types `rows` lack, each the same size as a known one by Azure's
    naming conventions, or of a series whose known sizes all have one memory per vCPU."""
    known = {row["name"]: row for row in rows}
    named = []
    for name in sorted(wanted - set(known)):
        found = (
            _azure_documented(name)
            or _azure_same_size(name, known)
            or _azure_series_size(name, rows)
        )
        if found is None:
            print(f"{name}: no rule of Azure's naming specifies it; left out")
            continue
        named.append(found)
    return named


def _azure_documented(name: str) -> dict | None:
    if name not in AZURE_DOCUMENTED:
        return None
    vcpus, memory, gpus, page, path = AZURE_DOCUMENTED[name]
    return {
        "name": name,
        "vcpus": vcpus,
        "physical_cores": "",
        "threads_per_core": "",
        "memory_gib": memory,
        # No `p` (an ARM CPU) among its features.
        "architecture": "x86_64",
        "cpu_allocation": cpu_allocation_of(name, "azure"),
        "cpu_model": "",
        "gpu_count": gpus,
        "gpu_model": "",
        "gpu_memory_gib": "",
        "network_gbps": "",
        "spec_source": "vendor_documentation",
        "source": AZURE_DOCUMENTATION_SOURCE.format(page, path),
    }


def _azure_same_size(name: str, known: dict[str, dict]) -> dict | None:
    if name.endswith("_Promo"):
        # A promotional price of the size the name carries before it.
        base = known.get(name.removesuffix("_Promo"))
        return base and _named(name, base, f"{base['name']} at a promotional price")
    size = AZURE_SIZE.match(name)
    if not size:
        return None
    parts = size.groupdict(default="")
    constrained = parts["before"] or parts["after"]
    features = parts["features"]
    neutral = [letter for letter in features if letter in NEUTRAL_FEATURES]
    # Every spelling of the same size: no constrained count, neutral features dropped or an
    # RDMA `r` added, the Standard tier for the Basic.
    for drop in _subsets(neutral):
        kept = "".join(letter for letter in features if letter not in drop)
        for candidate_features in dict.fromkeys([kept, f"{kept}r"]):
            base_name = (
                f"Standard_{parts['series']}{parts['vcpus']}{candidate_features}"
                f"{parts['rest']}{parts['version']}"
            )
            base = known.get(base_name)
            if base is None or base_name == name:
                continue
            why = [f"the size of {base_name}"]
            if parts["tier"] == "Basic":
                why.append("in the Basic tier")
            if constrained:
                why.append(f"constrained to {constrained} vCPUs, with its memory")
            changed = sorted(set(features) ^ set(candidate_features))
            if changed:
                why.append(
                    "; ".join(f"`{letter}` {NEUTRAL_FEATURES[letter]}" for letter in changed)
                )
            return _named(name, base, ", ".join(why), vcpus=constrained)
    return None


def _azure_series_size(name: str, rows: list[dict]) -> dict | None:
    size = AZURE_SIZE.match(name)
    if not size or size["before"] or size["after"] or size["tier"] != "Standard":
        return None
    family = vm_family(name)
    series = [
        row
        for row in rows
        if row["memory_gib"] and vm_family(row["name"]) == family and "-" not in row["name"]
    ]
    ratios = {Decimal(row["memory_gib"]) / Decimal(row["vcpus"]) for row in series}
    if len(series) < 2 or len(ratios) != 1:
        return None
    vcpus = int(size["vcpus"])
    ratio = ratios.pop()
    base = dict(series[0], vcpus=vcpus, memory_gib=plain_figure(ratio * vcpus))
    return _named(
        name,
        base,
        f"{vcpus} vCPUs by its name, and {plain_figure(ratio)} GiB per vCPU as every known size "
        f"of the {family} series ({len(series)}) has",
        keep_size=False,
    )


def _named(name: str, base: dict, why: str, vcpus: str = "", keep_size: bool = True) -> dict:
    """A row of `name` with `base`'s figures (its vCPUs when constrained) and why."""
    return {
        "name": name,
        "vcpus": vcpus or base["vcpus"],
        # A constrained size runs fewer cores than its parent: not known.
        "physical_cores": "" if vcpus or not keep_size else base["physical_cores"],
        "threads_per_core": "" if vcpus or not keep_size else base["threads_per_core"],
        "memory_gib": base["memory_gib"],
        "architecture": base["architecture"],
        "cpu_allocation": cpu_allocation_of(name, "azure"),
        "cpu_model": base["cpu_model"],
        "gpu_count": base["gpu_count"],
        "gpu_model": base["gpu_model"],
        "gpu_memory_gib": base["gpu_memory_gib"],
        "network_gbps": "",
        "spec_source": "vendor_naming",
        "source": AZURE_NAMING_SOURCE.format(why) + f" ({base['source']})",
    }


def _subsets(letters: list[str]) -> list[tuple[str, ...]]:
    """Every subset of `letters`, the smallest first."""
    return [
        combination
        for size in range(len(letters) + 1)
        for combination in itertools.combinations(letters, size)
    ]
