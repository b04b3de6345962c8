"""Google Cloud's prices: Compute Engine SKUs of the Cloud Billing Catalog, turned into a price
per machine type.

Google prices a machine by its parts: each family has a SKU per vCPU-hour ("A2 Instance Core
running in Americas") and one per GiB-hour of memory ("... Ram ..."), by region group
(`serviceRegions`) and usage (`usageType`: OnDemand, Preemptible, Commit1Yr, Commit3Yr). A
SKU's price is `pricingInfo[0].pricingExpression.tieredRates[-1].unitPrice`: whole `units`
and `nanos` (billionths) of `currencyCode`; the catalog converts from US dollars at
`currencyConversionRate` (units of that currency per dollar), which gives the dollar figure
back. A machine type's price is its vCPUs times the core rate plus its GiB times the RAM rate
of its family, region and usage; a type with GPUs adds its GPUs at the rate of its GPU's SKU
("Nvidia Tesla A100 GPU running in Americas"), the GPU its machine series carries
(GPU_MODELS, from Compute Engine's "GPU machine types" page); E2's shared-core types count
their fractional vCPU (e2-micro: 0.25 of a vCPU at E2's core rate, with its 1 GiB), as
Google bills them. What is not priced, and why:

- f1-micro and g1-small (their own SKUs, not a family's rates);
- a GPU type whose GPU's SKU is not among the pages, or whose series is not in GPU_MODELS;
- custom, sole-tenancy and other SKUs that name no machine family.

The live catalog (`fetch_pages`) needs an API key; its pages follow `nextPageToken`.
"""

from __future__ import annotations

import datetime
import re
import urllib.parse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from benchmarks.burstable import burstable_spec
from benchmarks.errors import DomainError
from benchmarks.pricing.records import (
    PLACES,
    QuotedPriceRecord,
    follow_pages,
    load_json_file,
    parse_day,
)

VENDOR = "gcp"
SERVICE = "services/6F81-5844-456A"  # Compute Engine
API_URL = f"https://cloudbilling.googleapis.com/v1/{SERVICE}/skus"
USAGES = {
    "OnDemand": ("on_demand", ""),
    "Preemptible": ("spot", ""),
    "Commit1Yr": ("reserved", "1y"),
    "Commit3Yr": ("reserved", "3y"),
}
# Shared-core types billed by SKUs of their own, not by a family's rates.
OWN_SKUS = frozenset({"f1-micro", "g1-small"})
# The GPU each GPU machine series carries, as its SKU names it ("Nvidia L4 GPU running in").
GPU_MODELS = {
    "a2-highgpu": "Nvidia Tesla A100",
    "a2-megagpu": "Nvidia Tesla A100",
    "a2-ultragpu": "Nvidia A100 80GB",
    "a3-highgpu": "Nvidia H100 80GB",
    "a3-edgegpu": "Nvidia H100 80GB",
    "a3-megagpu": "Nvidia H100 80GB Mega",
    "g2-standard": "Nvidia L4",
}
# A live catalog read stops here: Compute Engine has a few thousand SKUs, 5,000 to a page.
MAX_PAGES = 50
# "A2 Instance Core running in Americas", "T2D AMD Instance Ram running in Singapore",
# "Spot Preemptible N2 Instance Core running in Paris".
_DESCRIPTION = re.compile(
    r"^(?:Spot Preemptible |Preemptible |Commitment v1: )?([A-Z][0-9][A-Z]?)\b(?! Custom)"
    r"(?: (?:AMD|Intel|Arm))? Instance (Core|Ram)\b"
)
# "Nvidia Tesla A100 GPU running in Americas", "Commitment v1: Nvidia L4 GPU in ...".
_GPU_DESCRIPTION = re.compile(
    r"^(?:Spot Preemptible |Preemptible |Commitment v1: )?(Nvidia .+?) GPU (?:running )?in\b"
)
NANO = Decimal("1e-9")


@dataclass(frozen=True)
class PartRate:
    """One SKU: a family's price per vCPU-hour or GiB-hour in some regions."""

    family: str  # a2, t2d, e2; for a GPU, its model ("Nvidia Tesla A100")
    part: str  # CPU, RAM or GPU
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


def fetch_pages(base_url: str, *, key: str) -> Iterator[dict]:
    """The catalog's pages of Compute Engine SKUs, in US dollars, following `nextPageToken`
    to the last (`key`: an API key, sent as the `X-Goog-Api-Key` header so that no URL or
    message shows it); a DomainError (502) names a page that cannot be read."""

    def next_url(_url: str, page: dict) -> str | None:
        token = page.get("nextPageToken")
        return f"{base_url}?{urllib.parse.urlencode({'pageToken': token})}" if token else None

    return follow_pages(
        base_url,
        items="skus",
        next_url=next_url,
        what="a Cloud Billing Catalog page",
        max_pages=MAX_PAGES,
        headers={"X-Goog-Api-Key": key},
    )


def part_rates(pages: Iterable[dict]) -> tuple[list[PartRate], list[str]]:
    """The per-vCPU, per-GiB and per-GPU rates among the pages' SKUs, and the descriptions
    of the Compute SKUs left out (custom machines, licences, ...)."""
    rates, left_out = [], []
    for page in pages:
        for sku in page["skus"]:
            description = str(sku.get("description", ""))
            category = sku.get("category") or {}
            if category.get("resourceFamily") != "Compute":
                continue
            usage = category.get("usageType")
            group = category.get("resourceGroup")
            if group == "GPU":
                match = _GPU_DESCRIPTION.match(description)
                family = match[1] if match else ""
            else:
                match = _DESCRIPTION.match(description)
                family = match[1].lower() if match and group in ("CPU", "RAM") else ""
            if not family or usage not in USAGES:
                left_out.append(description)
                continue
            rates.append(_rate(sku, description, family, category, usage))
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


def gpu_model(name: str) -> str | None:
    """The GPU a machine type carries, as its SKU names it (`a2-highgpu-1g`: "Nvidia Tesla
    A100"), or None for a series GPU_MODELS does not know."""
    return GPU_MODELS.get(name.rsplit("-", 1)[0])


def billed_vcpus(machine: Machine) -> Decimal:
    """The vCPUs Google bills: a shared-core E2 type's fractional vCPU (e2-micro 0.25 of its
    2, benchmarks/burstable.py), every vCPU of any other type."""
    spec = burstable_spec(machine.name, VENDOR)
    return spec.baseline_share * spec.vcpus if spec is not None else machine.vcpus


def machine_prices(
    rates: list[PartRate], machines: Iterable[Machine], *, day: datetime.date, source: str
) -> Iterator[QuotedPriceRecord]:
    """Each machine's price in each region where its family has both a core and a RAM rate
    of one usage and currency (and, for a GPU type, its GPU a rate of the same)."""
    by_key: dict[tuple, dict[str, PartRate]] = {}
    gpus: dict[tuple, PartRate] = {}
    for rate in rates:
        for region in rate.regions:
            if rate.part == "GPU":
                gpus[(rate.family, rate.usage, region, rate.currency)] = rate
                continue
            by_key.setdefault((rate.family, rate.usage, region, rate.currency), {})[rate.part] = (
                rate
            )
    machines_by_family: dict[str, list[Machine]] = {}
    for machine in machines:
        if machine.name in OWN_SKUS or (machine.gpus and gpu_model(machine.name) is None):
            continue
        machines_by_family.setdefault(machine.family, []).append(machine)
    for (family, usage, region, currency), parts in sorted(by_key.items()):
        core, ram = parts.get("CPU"), parts.get("RAM")
        if core is None or ram is None:
            continue
        option, term = USAGES[usage]
        for machine in machines_by_family.get(family, ()):
            gpu = None
            if machine.gpus:
                gpu = gpus.get((gpu_model(machine.name), usage, region, currency))
                if gpu is None:
                    continue
            used = [rate for rate in (core, ram, gpu) if rate is not None]
            starts = [rate.effective_from for rate in used if rate.effective_from]
            effective_from = max(starts) if starts else day
            vcpus = billed_vcpus(machine)
            quoted = vcpus * core.amount + machine.memory_gib * ram.amount
            usd = vcpus * core.usd + machine.memory_gib * ram.usd
            parts_text = (
                f"{vcpus.normalize():f} x {core.description} ({core.amount} {currency}) + "
                f"{machine.memory_gib} GiB x {ram.description} ({ram.amount} {currency})"
            )
            if gpu is not None:
                quoted += machine.gpus * gpu.amount
                usd += machine.gpus * gpu.usd
                parts_text += f" + {machine.gpus} x {gpu.description} ({gpu.amount} {currency})"
            quoted, usd = quoted.quantize(PLACES), usd.quantize(PLACES)
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
                source=f"{source}: {parts_text}",
            )
