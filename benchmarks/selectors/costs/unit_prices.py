"""Unit prices: what a vCPU-hour and a GiB-hour cost on each type of a few families, the
one thing Fargate, t2, c7g, c7a and c7i always share, whatever was measured on them (or another
cloud's families, in its region: Hetzner's cax, Azure's Dpsv6, Google Cloud's n2).

Types (EC2's and other clouds') from their price in the region on the day, matched by their
family (`kept_series.in_families`), Fargate task sizes (in an AWS region) from Fargate's rates
(per vCPU-hour and per GB-hour, per architecture, exactly); both divided, as Decimals, through
`benchmarks.per_dollar.unit_prices`; a burstable type's vCPU-hour is also given at what it
sustains (`per_dollar.sustained_vcpu_hour`: over its baseline share). Spot is the median of
the region's zones (or the cheapest, as asked: `price_periods.quote_from_zones`, as
price-performance prices it). The periods in force are picked by
`price_periods.pick_periods`, in SQL: two queries for the prices whatever the number of
types (one for the types, one for Fargate), and one for the region.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from benchmarks import per_dollar as arithmetic
from benchmarks.models import (
    Architecture,
    FargateRate,
    InstanceType,
    Price,
    PurchaseOption,
    Region,
    Vendor,
    family_of,
    fargate_name,
)
from benchmarks.questions.price_performance import VENDOR_DEFAULT_FAMILIES
from benchmarks.questions.purchase import Purchase
from benchmarks.questions.unit_prices import UnitPricesQuery
from benchmarks.reference import fargate_task_sizes, fargate_unsold
from benchmarks.selectors.answer import lookups
from benchmarks.selectors.answer.kept_series import in_families
from benchmarks.selectors.costs.fargate_prices import FARGATE_OPTIONS
from benchmarks.selectors.costs.price_periods import PeriodPick, pick_periods, quote_from_zones
from benchmarks.selectors.costs.prices import COMMITMENT_PARTS

FARGATE = "fargate"
FARGATE_SPOT_MISSING = (
    "Fargate has no spot price: Fargate Spot is purchase_option=fargate_spot, so Fargate is "
    "left out of a spot answer"
)
FARGATE_RESERVED_MISSING = (
    "Fargate has no Reserved price: a Compute Savings Plan covers it "
    "(purchase_option=savings_plan), so Fargate is left out of a reserved answer"
)
ARCHITECTURE_ORDER = {Architecture.X86_64: 0, Architecture.ARM64: 1}


@dataclass(slots=True)
class UnitPriceRow:
    """One type (EC2's or another cloud's) or Fargate task size: its hourly price, per vCPU
    and per GiB."""

    instance_type: str
    family: str
    kind: str
    architecture: str | None
    vcpus: float | None
    memory_gib: float | None
    usd_per_hour: float
    usd_per_vcpu_hour: float | None
    usd_per_gib_hour: float | None
    # The day the price used came into force (for a task: the later of its two rates').
    price_effective_from: datetime.date
    price_note: str | None
    # A commitment's parts of its effective hourly price (`usd_per_hour`).
    upfront_usd: float | None = None
    hourly_usd: float | None = None
    # A burstable type's vCPU-hour at what it sustains once its CPU credits are spent (the
    # vCPU-hour over its baseline share); None for any other type and for Fargate.
    usd_per_sustained_vcpu_hour: float | None = None


@dataclass(frozen=True)
class FamilySummary:
    """A family on one architecture: its cheapest vCPU-hour and GiB-hour, and which type."""

    family: str
    architecture: str | None
    instance_types: int
    usd_per_vcpu_hour: float | None
    vcpu_hour_instance_type: str | None
    usd_per_gib_hour: float | None
    gib_hour_instance_type: str | None
    # Burstable types only: the cheapest vCPU-hour at what they sustain, and which type.
    usd_per_sustained_vcpu_hour: float | None = None
    sustained_vcpu_hour_instance_type: str | None = None


@dataclass(frozen=True)
class Missing:
    """What the answer lacks and why: a family, or one type of it."""

    family: str
    instance_type: str | None
    reason: str


@dataclass(frozen=True)
class FargateRates:
    """Fargate's own rates on one architecture, from which its task sizes are priced."""

    architecture: str
    usd_per_vcpu_hour: Decimal
    usd_per_gb_hour: Decimal
    effective_from: datetime.date
    price_note: str | None


@dataclass
class UnitPrices:
    """The answer of `GET /api/v1/unit-prices/`."""

    region: Region
    families: tuple[str, ...]
    purchase_option: str
    at: datetime.date
    purchase: Purchase = field(default_factory=Purchase)
    results: list[UnitPriceRow] = field(default_factory=list)
    summary: list[FamilySummary] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)
    fargate_rates: list[FargateRates] = field(default_factory=list)

    def summary_of(self, family: str, architecture: str | None) -> FamilySummary | None:
        return next(
            (
                row
                for row in self.summary
                if row.family == family and row.architecture == architecture
            ),
            None,
        )


def unit_prices(*, query: UnitPricesQuery) -> UnitPrices:
    """The unit prices of the query's families: three queries whatever the number of types.

    When the families are the region's vendor's defaults (the form's when none is named) and
    none of them has a price in the region, the answer adds every family of the vendor that
    has one (one query more), as the comparison page widens its families
    (`comparison_families.priced_note`); the defaults stay listed, each under `missing` with
    its reason."""
    region = lookups.get_region(query.region)
    day = query.at or timezone.localdate()
    option = query.purchase.option
    families = query.families
    answer = answers_by_option(region, families, (query.purchase,), day)[option]
    if answer.results or families != VENDOR_DEFAULT_FAMILIES[region.vendor]:
        return answer
    priced = tuple(f for f in _priced_families(region, query.purchase, day) if f not in families)
    if not priced:
        return answer
    return answers_by_option(region, (*families, *priced), (query.purchase,), day)[option]


def _priced_families(region: Region, purchase: Purchase, day: datetime.date) -> list[str]:
    """The families of the types (EC2's or another cloud's) with a price of `purchase` in
    `region` from `day` or before, by name. One query."""
    names = (
        Price.objects.filter(
            region=region,
            effective_from__lte=day,
            instance_type__kind__in=(InstanceType.Kind.EC2, InstanceType.Kind.VM),
            **purchase.price_fields(),
        )
        .values_list("instance_type__kind", "instance_type__name")
        .distinct()
    )
    return sorted({family_of(kind, name) for kind, name in names})


def answers_by_option(
    region: Region,
    families: tuple[str, ...],
    options: tuple[Purchase | str, ...],
    day: datetime.date,
) -> dict[str, UnitPrices]:
    """One answer per purchase option (by option), from one query of the types' prices (every
    option together) and one of Fargate's rates (every option it is sold by together, in an
    AWS region)."""
    purchases = {purchase.option: purchase for purchase in map(Purchase.of, options)}
    type_families = tuple(family for family in families if family != FARGATE)
    answers = {
        option: UnitPrices(
            region=region, families=families, purchase_option=option, at=day, purchase=purchase
        )
        for option, purchase in purchases.items()
    }
    if type_families:
        picks = _type_picks(region, type_families, tuple(purchases.values()), day)
        for (option, _type_id), zones in picks.items():
            answers[option].results.append(_type_row(zones, purchases[option], day))
    if FARGATE in families:
        sold = (
            {option: purchases[option] for option in purchases if option in FARGATE_OPTIONS}
            if region.vendor == Vendor.AWS
            else {}
        )
        rates_by_option = _fargate_rates(region, day, sold) if sold else {}
        for option, answer in answers.items():
            if region.vendor != Vendor.AWS:
                answer.missing.append(Missing(FARGATE, None, _fargate_elsewhere(region)))
                continue
            if option not in FARGATE_OPTIONS:
                reason = (
                    FARGATE_RESERVED_MISSING
                    if option == PurchaseOption.RESERVED
                    else FARGATE_SPOT_MISSING
                )
                answer.missing.append(Missing(FARGATE, None, reason))
                continue
            rates = rates_by_option[option]
            answer.fargate_rates = rates
            answer.results.extend(_fargate_rows(rates, day))
            answer.missing.extend(_fargate_not_sold(rates, day))
            priced = {rate.architecture for rate in rates}
            answer.missing.extend(
                Missing(FARGATE, None, f"no Fargate {architecture} rates known in {region.code}")
                for architecture in Architecture.values
                if architecture not in priced
            )
    for answer in answers.values():
        _finish(answer, families)
    return answers


# The partition of a price: the type and its zone, and the type's specifications, which the
# type's id decides (partitioning by them changes nothing and reads them in the same query).
TYPE_PARTITION = [
    "purchase_option",
    "instance_type_id",
    "availability_zone",
    "instance_type__kind",
    "instance_type__name",
    "instance_type__vcpus",
    "instance_type__memory_gib",
    "instance_type__architecture",
    "instance_type__baseline_share",
]


def _type_picks(
    region: Region, families: tuple[str, ...], purchases: tuple[Purchase, ...], day: datetime.date
) -> dict[tuple[str, int], list[tuple[tuple, PeriodPick]]]:
    """For each purchase option and type (an EC2 type or another cloud's VM of one of
    `families`): each zone's period (one but for spot). One query."""
    bought = Q()
    for purchase in purchases:
        bought |= Q(**purchase.price_fields())
    periods = Price.objects.filter(
        bought,
        instance_type__in=InstanceType.objects.filter(
            in_families(families), kind__in=(InstanceType.Kind.EC2, InstanceType.Kind.VM)
        ),
        region=region,
    )
    more = COMMITMENT_PARTS if any(purchase.is_commitment for purchase in purchases) else ()
    picks = pick_periods(
        periods, day=day, partition=TYPE_PARTITION, amount="usd_per_hour", more=more
    )
    by_type: dict[tuple[str, int], list] = defaultdict(list)
    for key, pick in picks.items():
        by_type[(key[0], key[1])].append((key, pick._replace(availability_zone=key[2])))
    return by_type


def _type_row(zones: list[tuple[tuple, PeriodPick]], purchase: Purchase, day: datetime.date):
    """A type's row from its zones' periods, priced as price-performance prices it."""
    (_option, _id, _zone, kind, name, vcpus, memory_gib, architecture, baseline_share) = zones[0][0]
    quote = quote_from_zones([pick for _key, pick in zones], purchase, day)
    per_vcpu, per_gib = arithmetic.unit_prices(
        quote.usd_per_hour, vcpus=vcpus, memory_gib=memory_gib
    )
    return UnitPriceRow(
        instance_type=name,
        family=family_of(kind, name),
        kind=kind,
        architecture=architecture or None,
        vcpus=float(vcpus) if vcpus is not None else None,
        memory_gib=float(memory_gib) if memory_gib is not None else None,
        usd_per_hour=float(quote.usd_per_hour),
        usd_per_vcpu_hour=per_vcpu,
        usd_per_gib_hour=per_gib,
        price_effective_from=quote.effective_from,
        price_note=quote.note,
        upfront_usd=None if quote.upfront_usd is None else float(quote.upfront_usd),
        hourly_usd=None if quote.hourly_usd is None else float(quote.hourly_usd),
        usd_per_sustained_vcpu_hour=arithmetic.sustained_vcpu_hour(
            quote.usd_per_hour, vcpus=vcpus, baseline_share=baseline_share
        ),
    )


def _fargate_elsewhere(region: Region) -> str:
    return (
        f"Fargate is sold by Amazon Web Services only: {region.code} is "
        f"{Vendor(region.vendor).label}'s region"
    )


# What tells one way of paying Fargate from another in its rates (`Purchase.fargate_fields`).
_FARGATE_BOUGHT = ("purchase_option", "term", "payment", "plan")


def _fargate_rates(
    region: Region, day: datetime.date, purchases: dict[str, Purchase]
) -> dict[str, list[FargateRates]]:
    """Fargate's vCPU-hour and GB-hour rates per architecture on the day, for each way of
    paying (by option). One query for them all: each is its own partition of the periods."""
    components = (FargateRate.Component.VCPU, FargateRate.Component.MEMORY_GB)
    bought = Q()
    for purchase in purchases.values():
        bought |= Q(**purchase.fargate_fields())
    picks = pick_periods(
        FargateRate.objects.filter(
            bought, region=region, operating_system="linux", component__in=components
        ),
        day=day,
        partition=[*_FARGATE_BOUGHT, "architecture", "component"],
        amount="usd_per_unit_hour",
    )
    width = len(_FARGATE_BOUGHT)
    by_bought: dict[tuple, dict[tuple, PeriodPick]] = defaultdict(dict)
    for key, pick in picks.items():
        by_bought[key[:width]][key[width:]] = pick
    answer = {}
    for option, purchase in purchases.items():
        fields = purchase.fargate_fields()
        bought_so = tuple(fields[name] for name in _FARGATE_BOUGHT)
        answer[option] = _fargate_rates_of(by_bought.get(bought_so, {}), day, components)
    return answer


def _fargate_rates_of(
    picks: dict[tuple, PeriodPick], day: datetime.date, components: tuple[str, str]
) -> list[FargateRates]:
    """One way of paying's rates per architecture, from its picks by (architecture, component)."""
    rates = []
    for architecture in Architecture.values:
        vcpu = picks.get((architecture, FargateRate.Component.VCPU))
        memory = picks.get((architecture, FargateRate.Component.MEMORY_GB))
        if vcpu is None or memory is None:
            continue
        notes = [
            f"{component}: {pick.note(day)}"
            for component, pick in ((components[0], vcpu), (components[1], memory))
            if pick.nearest
        ]
        rates.append(
            FargateRates(
                architecture=architecture,
                usd_per_vcpu_hour=vcpu.amount,
                usd_per_gb_hour=memory.amount,
                effective_from=max(vcpu.effective_from, memory.effective_from),
                price_note="; ".join(notes) or None,
            )
        )
    return rates


def _fargate_rows(rates: list[FargateRates], day: datetime.date) -> list[UnitPriceRow]:
    """Every valid task size of each architecture with rates, priced from them, but those
    not sold yet on `day` (reference.fargate_unsold; `_fargate_not_sold` says so)."""
    by_architecture = {rate.architecture: rate for rate in rates}
    rows = []
    for size in fargate_task_sizes():
        rate = by_architecture.get(size.architecture)
        if rate is None or fargate_unsold(size.vcpus, size.architecture, day):
            continue
        usd = arithmetic.fargate_hourly(
            vcpus=size.vcpus,
            memory_gib=size.memory_gib,
            usd_per_vcpu_hour=rate.usd_per_vcpu_hour,
            usd_per_gb_hour=rate.usd_per_gb_hour,
        )
        per_vcpu, per_gib = arithmetic.unit_prices(
            usd, vcpus=size.vcpus, memory_gib=size.memory_gib
        )
        rows.append(
            UnitPriceRow(
                instance_type=fargate_name(size.vcpus, size.memory_gib, size.architecture),
                family=FARGATE,
                kind=InstanceType.Kind.FARGATE,
                architecture=size.architecture,
                vcpus=float(size.vcpus),
                memory_gib=float(size.memory_gib),
                usd_per_hour=float(usd),
                usd_per_vcpu_hour=per_vcpu,
                usd_per_gib_hour=per_gib,
                price_effective_from=rate.effective_from,
                price_note=rate.price_note,
            )
        )
    return rows


def _finish(answer: UnitPrices, families: tuple[str, ...]) -> None:
    """Rows in the families' order, each family's summary, and what is missing."""
    order = {family: index for index, family in enumerate(families)}
    answer.results.sort(
        key=lambda row: (
            order.get(row.family, len(order)),
            ARCHITECTURE_ORDER.get(row.architecture, 2),
            row.vcpus is None,
            row.vcpus or 0,
            row.memory_gib or 0,
            row.instance_type,
        )
    )
    groups: dict[tuple[str, str | None], list[UnitPriceRow]] = defaultdict(list)
    for row in answer.results:
        groups[(row.family, row.architecture)].append(row)
        lacking = [
            (size, price)
            for size, price, value in (
                ("vCPU count", "vCPU-hour", row.vcpus),
                ("memory size", "GiB-hour", row.memory_gib),
            )
            if not value
        ]
        if lacking:
            sizes, prices = (" or ".join(words) for words in zip(*lacking, strict=True))
            answer.missing.append(
                Missing(
                    row.family,
                    row.instance_type,
                    f"no {sizes} known for {row.instance_type}: no price per {prices}",
                )
            )
    answer.summary = [
        _summary(family, architecture, rows) for (family, architecture), rows in groups.items()
    ]
    priced = {row.family for row in answer.results}
    for family in families:
        if family not in priced and family != FARGATE:
            answer.missing.append(
                Missing(
                    family,
                    None,
                    f"no {answer.purchase.describe()} price known for any {family} type in "
                    f"{answer.region.code}",
                )
            )
    answer.missing.sort(key=lambda missing: order.get(missing.family, len(order)))


def _summary(family: str, architecture: str | None, rows: list[UnitPriceRow]) -> FamilySummary:
    per_vcpu = [row for row in rows if row.usd_per_vcpu_hour is not None]
    per_gib = [row for row in rows if row.usd_per_gib_hour is not None]
    sustained = [row for row in rows if row.usd_per_sustained_vcpu_hour is not None]
    vcpu_best = min(per_vcpu, key=lambda row: row.usd_per_vcpu_hour, default=None)
    gib_best = min(per_gib, key=lambda row: row.usd_per_gib_hour, default=None)
    sustained_best = min(sustained, key=lambda row: row.usd_per_sustained_vcpu_hour, default=None)
    return FamilySummary(
        family=family,
        architecture=architecture,
        instance_types=len(rows),
        usd_per_vcpu_hour=vcpu_best.usd_per_vcpu_hour if vcpu_best else None,
        vcpu_hour_instance_type=vcpu_best.instance_type if vcpu_best else None,
        usd_per_gib_hour=gib_best.usd_per_gib_hour if gib_best else None,
        gib_hour_instance_type=gib_best.instance_type if gib_best else None,
        usd_per_sustained_vcpu_hour=(
            sustained_best.usd_per_sustained_vcpu_hour if sustained_best else None
        ),
        sustained_vcpu_hour_instance_type=sustained_best.instance_type if sustained_best else None,
    )


def _fargate_not_sold(rates: list[FargateRates], day: datetime.date) -> list[Missing]:
    """What Fargate lacks on `day` because AWS did not sell it yet, once per reason."""
    architectures = {rate.architecture for rate in rates}
    sales = {
        fargate_unsold(size.vcpus, size.architecture, day)
        for size in fargate_task_sizes()
        if size.architecture in architectures
    } - {None}
    return [
        Missing(FARGATE, None, f"{sale.what} were first sold on {sale.first_sold}, after {day}")
        for sale in sorted(sales)
    ]
