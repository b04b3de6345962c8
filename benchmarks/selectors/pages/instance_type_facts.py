"""What the instance type page says around a type's figures: its network as the vendor sells
it, its hourly price now in the page's region, and each vendor's own wording for its prices.

Pure functions over the type and the price lines the page has read: no query of their own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from benchmarks.models import InstanceType, Vendor
from benchmarks.questions.price_performance import DEFAULT_REGION

# How each vendor's prices reach the page: the sentence above its price table.
_PRICE_BASIS = {
    Vendor.AWS: "AWS prices, as imported with their periods",
    Vendor.AZURE: "Azure's retail prices (its Retail Prices API), as imported with their periods",
    Vendor.GCP: (
        "Google Cloud's prices, its Cloud Billing Catalog's vCPU, memory and GPU rates for the "
        "type's size, as imported with their periods"
    ),
    Vendor.HCLOUD: (
        "Hetzner Cloud's net prices (without VAT), quoted in euros and shown in US dollars at the "
        "ECB's reference rate of the day each came into force, as imported with their periods"
    ),
}
# A month of use is 730 hours everywhere on the page (8,760 / 12): whose convention that is.
_MONTH = {
    Vendor.AWS: "AWS's convention",
    Vendor.AZURE: "Azure's convention, as its pricing calculator counts a month",
    Vendor.GCP: "Google Cloud's convention, as its pricing calculator counts a month",
    Vendor.HCLOUD: (
        "the convention of AWS, Azure and Google Cloud: Hetzner Cloud bills by the hour up to "
        "each type's monthly price, a cap this table does not apply, so a month of always-on "
        "use costs less than it shows"
    ),
}

# AWS's words for a network sold up to a burst ("Up to 5 Gigabit") or at one rate ("25
# Gigabit"); the others ("Moderate", "High") name no figure.
_UP_TO = re.compile(r"^Up to (\d+(?:\.\d+)?) Gigabit$", re.IGNORECASE)
_FIXED = re.compile(r"^(\d+(?:\.\d+)?) Gigabit$", re.IGNORECASE)


def price_basis(vendor: str) -> str:
    """Where the page's prices of a `vendor` type come from, in that vendor's terms."""
    return _PRICE_BASIS.get(vendor) or f"{Vendor(vendor).label}'s prices, as imported"


def month_convention(vendor: str) -> str:
    """Whose convention a 730-hour month is, for a `vendor` type's costs."""
    return _MONTH.get(vendor) or "the convention of AWS, Azure and Google Cloud"


@dataclass(frozen=True)
class Network:
    """A type's network as the vendor sells it: `up_to_gbps` the burst it is sold "up to",
    `gbps` a rate sold as such (or the only figure known), `baseline_gbps` the rate it keeps
    once the burst is spent; `vendor_words` the vendor's own ("Up to 5 Gigabit")."""

    vendor_name: str
    vendor_words: str = ""
    up_to_gbps: Decimal | None = None
    gbps: Decimal | None = None
    baseline_gbps: Decimal | None = None

    @property
    def text(self) -> str:
        """As the page says it: 'up to 5 Gbit/s, 0.256 Gbit/s baseline once the burst is
        spent (AWS: “Up to 5 Gigabit”)'."""
        parts = []
        if self.up_to_gbps is not None:
            parts.append(f"up to {_gbps(self.up_to_gbps)}")
            if self.baseline_gbps is not None:
                parts.append(f"{_gbps(self.baseline_gbps)} baseline once the burst is spent")
        elif self.gbps is not None:
            parts.append(_gbps(self.gbps))
        figures = ", ".join(parts)
        if not self.vendor_words:
            return figures
        words = f"{self.vendor_name}: “{self.vendor_words}”"
        return f"{figures} ({words})" if figures else words


def _gbps(value: Decimal) -> str:
    return f"{format(value.normalize(), 'f')} Gbit/s"


def network_of(instance_type: InstanceType) -> Network | None:
    """What the page says of the type's network; None when nothing is known.

    `network_gbps` is Spare Cores' figure: for an AWS type sold "up to" a burst, the baseline
    (t4g.medium: 0.256 Gbit/s, sold "Up to 5 Gigabit")."""
    words = instance_type.network_performance or ""
    known = instance_type.network_gbps
    if not words and known is None:
        return None
    vendor = instance_type.vendor or Vendor.AWS
    vendor_name = "AWS" if vendor == Vendor.AWS else Vendor(vendor).label
    up_to, fixed = _UP_TO.match(words), _FIXED.match(words)
    if up_to:
        burst = Decimal(up_to.group(1))
        baseline = known if known is not None and known != burst else None
        return Network(vendor_name, words, up_to_gbps=burst, baseline_gbps=baseline)
    if fixed:
        return Network(vendor_name, words, gbps=Decimal(fixed.group(1)))
    return Network(vendor_name, words, gbps=known)


@dataclass(frozen=True)
class PriceNow:
    """The type's price in force now in one region: on demand and the cheapest spot zone."""

    region: str
    on_demand: float | None
    spot: float | None
    spot_zone: str
    # How many regions price the type now, and the cheapest on demand of them.
    regions: int
    cheapest_region: str | None
    cheapest_on_demand: float | None


def page_region(regions_by_price: list, asked: str | None) -> str | None:
    """The region the page shows first: the one asked when the type has a price there, else
    the questions' default region (us-east-1) when it has, else the cheapest on demand
    (`regions_by_price` is cheapest first)."""
    codes = [prices.region for prices in regions_by_price]
    for wanted in (asked, DEFAULT_REGION):
        if wanted and wanted in codes:
            return wanted
    return codes[0] if codes else None


def price_now(regions_by_price: list, asked: str | None) -> PriceNow | None:
    """The first screen's price: the page region's (`page_region`), with the cheapest region
    beside it; None when no price is in force."""
    region = page_region(regions_by_price, asked)
    if region is None:
        return None
    here = next(prices for prices in regions_by_price if prices.region == region)
    cheapest = regions_by_price[0]
    return PriceNow(
        region=region,
        on_demand=here.on_demand,
        spot=here.spot,
        spot_zone=here.spot_zone,
        regions=len(regions_by_price),
        cheapest_region=cheapest.region if cheapest.on_demand is not None else None,
        cheapest_on_demand=cheapest.on_demand,
    )
