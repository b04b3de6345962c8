"""Google Cloud's prices: Compute Engine SKUs of the Cloud Billing Catalog, turned into a price
per machine type.

Google prices a machine by its parts: each family has a SKU per vCPU-hour ("A2 Instance Core
running in Americas") and one per GiB-hour of memory ("... Ram ..."), by region group
(`serviceRegions`) and usage (`usageType`: OnDemand, Preemptible, Commit1Yr, Commit3Yr). A
SKU's price is `pricingInfo[0].pricingExpression.tieredRates[-1].unitPrice`: whole `units`
and `nanos` (billionths) of `currencyCode`; the catalog converts from US dollars at
`currencyConversionRate` (units of that currency per dollar), which gives the dollar figure
back. A machine type's price is its vCPUs times the core rate plus its GiB times the RAM rate
of its family, region and usage. What is not priced so, and why:

- types with GPUs (their GPUs are SKUs of their own, not matched to types here);
- shared-core types (e2-micro, e2-small, e2-medium, f1-micro, g1-small: billed as a fraction
  of a vCPU);
- custom, sole-tenancy and other SKUs that name no machine family.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.pricing.records import QuotedPriceRecord, load_json_file, parse_day

VENDOR = "gcp"
SERVICE = "services/6F81-5844-456A"  # Compute Engine
API_URL = f"https://cloudbilling.googleapis.com/v1/{SERVICE}/skus"
USAGES = {
    "OnDemand": ("on_demand", ""),
    "Preemptible": ("spot", ""),
    "Commit1Yr": ("reserved", "1y"),
    "Commit3Yr": ("reserved", "3y"),
}
SHARED_CORE = frozenset({"e2-micro", "e2-small", "e2-medium", "f1-micro", "g1-small"})
# "A2 Instance Core running in Americas", "T2D AMD Instance Ram running in Singapore",
# "Spot Preemptible N2 Instance Core running in Paris".
_DESCRIPTION = re.compile(
    r"^(?:Spot Preemptible |Preemptible |Commitment v1: )?([A-Z][0-9][A-Z]?)\b(?! Custom)"
    r"(?: (?:AMD|Intel|Arm))? Instance (Core|Ram)\b"
)
PLACES = Decimal("1e-8")
NANO = Decimal("1e-9")


@dataclass(frozen=True)
class PartRate:
    """One SKU: a family's price per vCPU-hour or GiB-hour in some regions."""

    family: str  # a2, t2d, e2
    part: str  # CPU or RAM
    usage: str  # OnDemand, Preemptible, Commit1Yr, Commit3Yr
    regions: tuple[str, ...]
    currency: str
    amount: Decimal  # per hour (CPU) or per GiB-hour (RAM), in `currency`
    usd: Decimal
    effective_from: datetime.date | None
    description: str


def load_pages(path: Path) -> list[dict]:
    """A saved `skus` page, or a list of them; DomainError naming the file otherwise."""
    data = load_json_file(path)
    pages = data if isinstance(data, list) else [data]
    if not all(isinstance(page, dict) and isinstance(page.get("skus"), list) for page in pages):
        raise DomainError("not Cloud Billing Catalog pages: each needs a `skus` list")
    return pages


def part_rates(pages: Iterable[dict]) -> tuple[list[PartRate], list[str]]:
    """The per-vCPU and per-GiB rates among the pages' SKUs, and the descriptions of the
    Compute SKUs left out (GPUs, custom machines, ...)."""
    rates, left_out = [], []
    for page in pages:
        for sku in page["skus"]:
            description = str(sku.get("description", ""))
            category = sku.get("category") or {}
            if category.get("resourceFamily") != "Compute":
                continue
            match = _DESCRIPTION.match(description)
            usage = category.get("usageType")
            if (
                not match
                or usage not in USAGES
                or category.get("resourceGroup")
                not in (
                    "CPU",
                    "RAM",
                )
            ):
                left_out.append(description)
                continue
            rates.append(_rate(sku, description, match[1].lower(), category, usage))
    return rates, left_out


def _rate(sku: dict, description: str, family: str, category: dict, usage: str) -> PartRate:
    try:
        info = sku["pricingInfo"][0]
        price = info["pricingExpression"]["tieredRates"][-1]["unitPrice"]
        currency = price["currencyCode"]
        amount = Decimal(str(price.get("units") or 0)) + Decimal(price.get("nanos") or 0) * NANO
        conversion = Decimal(str(info.get("currencyConversionRate") or 1))
        regions = tuple(sku["serviceRegions"])
    except (KeyError, IndexError, TypeError, ArithmeticError):
        raise DomainError(
            f"{description!r}: a SKU has pricingInfo[0].pricingExpression.tieredRates with a "
            "unitPrice, and serviceRegions"
        ) from None
    if amount < 0 or conversion <= 0:
        raise DomainError(f"{description!r}: price {amount} at conversion rate {conversion}")
    started = info.get("effectiveTime")
    return PartRate(
        family=family,
        part=category["resourceGroup"],
        usage=usage,
        regions=regions,
        currency=currency,
        amount=amount,
        usd=amount / conversion,
        effective_from=parse_day(started, where=description) if started else None,
        description=description,
    )


@dataclass(frozen=True)
class Machine:
    """A machine type to price: its name, family, vCPUs, GiB and GPUs."""

    name: str
    family: str
    vcpus: Decimal
    memory_gib: Decimal
    gpus: int


def machine_prices(
    rates: list[PartRate], machines: Iterable[Machine], *, day: datetime.date, source: str
) -> Iterator[QuotedPriceRecord]:
    """Each machine's price in each region where its family has both a core and a RAM rate
    of one usage and currency."""
    by_key: dict[tuple, dict[str, PartRate]] = {}
    for rate in rates:
        for region in rate.regions:
            by_key.setdefault((rate.family, rate.usage, region, rate.currency), {})[rate.part] = (
                rate
            )
    machines_by_family: dict[str, list[Machine]] = {}
    for machine in machines:
        if machine.gpus or machine.name in SHARED_CORE:
            continue
        machines_by_family.setdefault(machine.family, []).append(machine)
    for (family, usage, region, currency), parts in sorted(by_key.items()):
        core, ram = parts.get("CPU"), parts.get("RAM")
        if core is None or ram is None:
            continue
        option, term = USAGES[usage]
        starts = [rate.effective_from for rate in (core, ram) if rate.effective_from]
        effective_from = max(starts) if starts else day
        for machine in machines_by_family.get(family, ()):
            quoted = (machine.vcpus * core.amount + machine.memory_gib * ram.amount).quantize(
                PLACES
            )
            usd = (machine.vcpus * core.usd + machine.memory_gib * ram.usd).quantize(PLACES)
            yield QuotedPriceRecord(
                vendor=VENDOR,
                instance_type=machine.name,
                region=region,
                currency=currency,
                quoted_per_hour=quoted,
                usd_per_hour=usd,
                effective_from=effective_from,
                purchase_option=option,
                term=term,
                payment="no_upfront" if term else "",
                offering_class="standard" if term else "",
                upfront_usd=Decimal(0) if term else None,
                hourly_usd=usd if term else None,
                source=f"{source}: {machine.vcpus} x {core.description} "
                f"({core.amount} {currency}) + {machine.memory_gib} GiB x {ram.description} "
                f"({ram.amount} {currency})",
            )
