"""The pricing page's Fargate Spot feed -> Fargate Spot rates per vCPU-hour and per GB-hour.

Layout: {"metadata": {"source:version": "20190730194642", ...},
         "prices": [{"unit": "vCPU-Hours" | "GB-Hours", "price": {"USD": "0.01458"},
                     "attributes": {"aws:region": "us-east-1", ...}}]}
Rates are for x86_64 unless an attribute names the architecture (the feed has added ARM
rates with `aws:ecs:cpuArchitecture` or an "ARM" unit). The rates take effect on the day of
the feed's version. A region with one of the two rates but not the other is named in `missing`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.pricing.records import (
    FARGATE_SPOT,
    KNOWN_REGIONS,
    FargateRateRecord,
    load_json_file,
    parse_usd,
)

COMPONENT_OF_UNIT = {"vcpu-hours": "vcpu", "gb-hours": "memory_gb"}


@dataclass
class FargateSpotFeed:
    """The feed's rates, and what it lacks: regions missing a vCPU-hour or GB-hour rate."""

    records: list[FargateRateRecord] = field(default_factory=list)
    read: int = 0
    skipped: int = 0
    missing: list[str] = field(default_factory=list)
    source: str = ""


def read_fargate_spot(data: object, *, name: str) -> FargateSpotFeed:
    """The feed's records; DomainError when it is not such a feed."""
    if not isinstance(data, dict) or not isinstance(data.get("prices"), list):
        raise DomainError(f"{name}: not the Fargate Spot feed (no prices list)")
    version = str((data.get("metadata") or {}).get("source:version") or "")
    try:
        day = datetime.datetime.strptime(version[:8], "%Y%m%d").date()
    except ValueError:
        raise DomainError(
            f"{name}: metadata source:version {version!r} does not start with a date (YYYYMMDD)"
        ) from None
    feed = FargateSpotFeed(source=f"AWS Fargate Spot pricing feed version {version} ({name})")
    seen: dict[tuple[str, str], set[str]] = {}
    for index, entry in enumerate(data["prices"]):
        feed.read += 1
        attributes = (entry or {}).get("attributes") or {}
        region = attributes.get("aws:region") or ""
        unit = str(entry.get("unit") or "").lower()
        architecture = "x86_64"
        if "arm" in unit or "arm" in str(attributes.get("aws:ecs:cpuArchitecture", "")).lower():
            architecture = "arm64"
            unit = unit.replace("arm-", "").replace("arm ", "")
        component = COMPONENT_OF_UNIT.get(unit)
        usd = (entry.get("price") or {}).get("USD")
        if component is None or usd is None or region not in KNOWN_REGIONS:
            feed.skipped += 1
            continue
        price = parse_usd(usd, where=f"{name}: prices[{index}]")
        feed.records.append(
            FargateRateRecord(
                region=region,
                architecture=architecture,
                component=component,
                usd_per_unit_hour=price,
                effective_from=day,
                source=feed.source,
                purchase_option=FARGATE_SPOT,
            )
        )
        seen.setdefault((region, architecture), set()).add(component)
    for (region, architecture), components in sorted(seen.items()):
        for component, words in (("vcpu", "vCPU-hour"), ("memory_gb", "GB-hour")):
            if component not in components:
                feed.missing.append(f"{region} ({architecture}) has no {words} rate")
    return feed


def load_fargate_spot_file(path: Path) -> FargateSpotFeed:
    """The feed saved in a file."""
    return read_fargate_spot(load_json_file(path), name=path.name)
