"""Where one instance type costs least: every region with a price for it, bought one way,
cheapest first. Two queries whatever the number of regions (the type, then its prices or,
for a Fargate task size, its rates), the period of each region picked in SQL; the cheapest
region of several EC2 types in one."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from benchmarks.models import FargateRate, InstanceType, Price
from benchmarks.questions.cheapest_regions import CheapestRegionsQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer import lookups
from benchmarks.selectors.costs.fargate_prices import FARGATE_OPTIONS, fargate_quote
from benchmarks.selectors.costs.price_periods import (
    PeriodPick,
    PriceQuote,
    pick_periods,
    quote_from_zones,
)
from benchmarks.selectors.costs.prices import COMMITMENT_PARTS


@dataclass(frozen=True)
class RegionPrice:
    """One region's price of the type."""

    region: str
    usd_per_hour: float
    price_effective_from: datetime.date | None
    price_note: str | None
    upfront_usd: float | None = None
    hourly_usd: float | None = None


@dataclass
class CheapestRegions:
    """The answer of `GET /api/v1/cheapest-regions/`."""

    instance_type: str
    purchase_option: str
    purchase: Purchase
    at: datetime.date
    results: list[RegionPrice] = field(default_factory=list)


def cheapest_regions(*, query: CheapestRegionsQuery) -> CheapestRegions:
    """Every region with a price for the type, cheapest first (ties by region code)."""
    instance_type = lookups.get_instance_type(query.instance_type)
    day = query.at or timezone.localdate()
    purchase = query.purchase
    answer = CheapestRegions(
        instance_type=instance_type.name, purchase_option=purchase.option, purchase=purchase, at=day
    )
    quotes = _quotes(instance_type, purchase, day)
    answer.results = sorted(
        (
            RegionPrice(
                region=region,
                usd_per_hour=float(quote.usd_per_hour),
                price_effective_from=quote.effective_from,
                price_note=quote.note,
                upfront_usd=None if quote.upfront_usd is None else float(quote.upfront_usd),
                hourly_usd=None if quote.hourly_usd is None else float(quote.hourly_usd),
            )
            for region, quote in quotes.items()
        ),
        key=lambda row: (row.usd_per_hour, row.region),
    )
    return answer


def cheapest_region(
    instance_type: InstanceType, purchase: Purchase, day: datetime.date
) -> str | None:
    """The code of the region where the type costs least bought so on the day (a price in
    force before one that is not, then the cheapest, then the first code); None where no
    region prices it. One query."""
    return cheapest_region_codes([instance_type], purchase, day)[instance_type.pk]


def cheapest_region_codes(
    instance_types: list[InstanceType], purchase: Purchase, day: datetime.date
) -> dict[int, str | None]:
    """`cheapest_region` of each type, by id: one query for every EC2 type whatever their
    number (a compare page of types from several clouds asked one per type), and one per
    Fargate task size."""
    ec2 = [t.pk for t in instance_types if t.kind != InstanceType.Kind.FARGATE]
    by_type = _ec2_quotes_of(ec2, purchase, day) if ec2 else {}
    codes = {}
    for instance_type in instance_types:
        if instance_type.kind == InstanceType.Kind.FARGATE:
            quotes = _fargate_quotes(instance_type, purchase, day)
        else:
            quotes = by_type.get(instance_type.pk, {})
        priced = [
            (not quote.in_force, quote.usd_per_hour, code)
            for code, quote in quotes.items()
            if quote.usd_per_hour is not None
        ]
        codes[instance_type.pk] = min(priced)[2] if priced else None
    return codes


def _quotes(
    instance_type: InstanceType, purchase: Purchase, day: datetime.date
) -> dict[str, PriceQuote]:
    """The type's price in each region that has one, bought so on the day: an EC2 type's
    prices, a Fargate task size's rates."""
    if instance_type.kind == InstanceType.Kind.FARGATE:
        return _fargate_quotes(instance_type, purchase, day)
    return _ec2_quotes_of([instance_type.pk], purchase, day).get(instance_type.pk, {})


def _ec2_quotes_of(
    ids: list[int], purchase: Purchase, day: datetime.date
) -> dict[int, dict[str, PriceQuote]]:
    """The EC2 types' prices in each region that has one, by type id then region code."""
    picks = pick_periods(
        Price.objects.filter(instance_type_id__in=ids, **purchase.price_fields()),
        day=day,
        partition=["instance_type_id", "region__code", "availability_zone"],
        amount="usd_per_hour",
        more=COMMITMENT_PARTS if purchase.is_commitment else (),
    )
    zones: dict[int, dict[str, list[PeriodPick]]] = defaultdict(lambda: defaultdict(list))
    for (pk, region, zone), pick in picks.items():
        zones[pk][region].append(pick._replace(availability_zone=zone))
    return {
        pk: {region: quote_from_zones(found, purchase, day) for region, found in regions.items()}
        for pk, regions in zones.items()
    }


def _fargate_quotes(
    instance_type: InstanceType, purchase: Purchase, day: datetime.date
) -> dict[str, PriceQuote]:
    if purchase.option not in FARGATE_OPTIONS:
        return {}
    picks = pick_periods(
        FargateRate.objects.filter(
            operating_system="linux",
            architecture=instance_type.architecture or "x86_64",
            **purchase.fargate_fields(),
        ),
        day=day,
        partition=["region__code", "component"],
        amount="usd_per_unit_hour",
    )
    by_region: dict[str, dict[str, PeriodPick]] = defaultdict(dict)
    for (region, component), pick in picks.items():
        by_region[region][component] = pick
    quotes = {}
    for region, rates in by_region.items():
        quote = fargate_quote(instance_type, rates, day)
        # A region with one rate of the two has no task price, nor has any region a size
        # not sold yet on the day.
        if quote is not None and quote.usd_per_hour is not None:
            quotes[region] = quote
    return quotes
