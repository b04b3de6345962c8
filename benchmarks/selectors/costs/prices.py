"""Reads of prices: the hourly price of instance types on a day, in any region.

Which period is in force on a day is answered in one place, `price_periods.pick_periods`, in
SQL, for EC2 prices and Fargate rates alike: the cheapest period in force, else the period
nearest to the day, with a note that says which one was used (`_quotes_in_force` answers the
commonest case, a price the same in every zone and in force, straight from its rows). What a
type costs from its zones' periods (spot: the median zone or the cheapest) is answered in one
place too, `price_periods.quote_from_zones`, for price-performance and unit prices alike.
Fargate sizes are priced from their rates in selectors/costs/fargate_prices.py.
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Exists, OuterRef, Q, QuerySet

from benchmarks import freshness, per_dollar
from benchmarks.currency import ExchangeRate, exchange_rate
from benchmarks.models import (
    FargateRate,
    InstanceType,
    Price,
    PurchaseOption,
    Region,
    in_force_on,
    is_in_force,
)
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.lookups import REGION_FIELDS, prices_stamp
from benchmarks.selectors.costs.fargate_prices import fargate_quotes
from benchmarks.selectors.costs.price_periods import (
    PeriodPick,
    PriceQuote,
    pick_periods,
    quote_from_zones,
)

COMMITMENT_PARTS = ("upfront_usd", "hourly_usd")
# What another cloud quoted (models.Price.currency, quoted_per_hour): read after the above.
QUOTED_PARTS = ("currency", "quoted_per_hour")

# Past this many types, the region's prices for the option are read whole and the others
# left aside: a thousand ids cost more to send and to match than the few rows they exclude
# (a region prices every type once per option and zone).
MANY_TYPES = 200


def _of_types(prices: QuerySet, ids: list[int]) -> QuerySet:
    """`prices` of the types `ids`, or of every type when they are many (`MANY_TYPES`)."""
    return prices if len(ids) > MANY_TYPES else prices.filter(instance_type_id__in=ids)


def _ec2_quotes(
    instance_types: list[InstanceType],
    region: Region,
    purchase: Purchase,
    day: datetime.date,
) -> dict[int, PriceQuote]:
    """Two queries at most: the prices in force, then the nearest ones for types that have
    prices but none in force."""

    def prices() -> QuerySet:
        # Built only when read: its conditions cost more than the kept periods' look-up.
        return Price.objects.filter(region=region, **purchase.price_fields())

    return _ec2_quotes_from(
        instance_types,
        lambda _pk: region,
        prices,
        lambda ids: _periods(prices, region, purchase, ids),
        purchase,
        day,
    )


def _ec2_quotes_from(
    instance_types: list[InstanceType],
    region_of: Callable[[int], Region],
    prices: Callable[[], QuerySet],
    periods_of: Callable[[list[int]], TypePeriods],
    purchase: Purchase,
    day: datetime.date,
) -> dict[int, PriceQuote]:
    """`_ec2_quotes` from `prices()` (each type's prices in its region, `region_of` its id,
    bought so) and `periods_of` (their periods by type id)."""
    ids = [instance_type.pk for instance_type in instance_types]
    if not ids:
        return {}
    options = {
        "day": day,
        "partition": ["instance_type_id", "availability_zone"],
        "amount": "usd_per_hour",
        "more": (*COMMITMENT_PARTS, *QUOTED_PARTS),
    }
    by_type: dict[int, list[PeriodPick]] = {}
    in_force: dict[int, PriceQuote] = {}
    if purchase.option == PurchaseOption.SPOT:
        picks = pick_periods(
            _of_types(prices().filter(in_force_on(day)), ids), all_in_force=True, **options
        )
        # The zone is a partition, not `zone` (the SQL would read the same column twice).
        for (pk, zone), pick in picks.items():
            by_type.setdefault(pk, []).append(pick._replace(availability_zone=zone))
        missing = [pk for pk in ids if pk not in by_type]
    else:
        every, out_of_force = periods_of(ids).in_force(day)
        in_force = {pk: every[pk] for pk in ids if pk in every}
        # Only types with periods, none in force, have a nearest one to look for.
        missing = [pk for pk in ids if pk not in in_force and pk in out_of_force]
    if missing:
        # Many missing types read the region's whole list again (`_of_types`): only their
        # zones are added, a type priced above keeping its own, each zone counted once.
        wanted = set(missing)
        for (pk, zone), pick in pick_periods(_of_types(prices(), missing), **options).items():
            if pk in wanted:
                by_type.setdefault(pk, []).append(pick._replace(availability_zone=zone))
    quotes = {}
    for instance_type in instance_types:
        quote = in_force.get(instance_type.pk)
        if quote is not None:
            quotes[instance_type.pk] = quote
            continue
        zones = by_type.get(instance_type.pk)
        if zones is None:
            quotes[instance_type.pk] = PriceQuote(
                None,
                f"no {purchase.describe()} price known for {instance_type.name} in "
                f"{region_of(instance_type.pk).code}",
            )
            continue
        quotes[instance_type.pk] = quote_from_zones(zones, purchase, day)
    return quotes


class _Period(NamedTuple):
    """A price period's days, as `is_in_force` reads them, and its quote when in force."""

    effective_from: datetime.date
    effective_to: datetime.date | None
    pk: int
    quote: PriceQuote


def _cheapest(period: _Period) -> tuple[Decimal, int]:
    return period.quote.usd_per_hour, period.pk


def _periods(
    prices: Callable[[], QuerySet], region: Region, purchase: Purchase, ids: list[int]
) -> TypePeriods:
    """The periods of `prices()` (the region's for the purchase), by type id: of the types
    `ids`, or, for a question of many types (`MANY_TYPES`), the region's whole list, kept in
    this process while the region's prices stay as they are (`freshness.kept_read` with the
    region's stamp; forgotten on a price's write)."""
    if len(ids) <= MANY_TYPES:
        return _read_periods(_of_types(prices(), ids))
    key = f"price-periods:{region.pk}|{sorted(purchase.price_fields().items())}"
    return freshness.kept_read(key, lambda: _read_periods(prices()), stamp=prices_stamp(region))


class TypePeriods(dict):
    """Price periods by type id (`_read_periods`), with what is in force on the days asked:
    worked out for every type once per stretch of days on which no period starts or ends
    (`in_force`), so that a region's whole list, kept by `_periods`, is not gone through for
    a question's thousand types each time (a millisecond of a thousand-row answer,
    docs/performance.md). Shared like the rest of what `freshness` keeps: `in_force` only
    adds to its own memo, the same answer whoever adds it."""

    # Stretches remembered at most (questions are asked of a few days: today's, mostly).
    STRETCHES = 8

    def __init__(self, periods: dict[int, list[_Period]]):
        super().__init__(periods)
        self._dates: list[datetime.date] | None = None
        self._stretches: dict[int, tuple[dict[int, PriceQuote], set[int]]] = {}

    def in_force(self, day: datetime.date) -> tuple[dict[int, PriceQuote], set[int]]:
        """`_quotes_in_force` of every type on `day`."""
        if self._dates is None:
            self._dates = _period_dates(self)
        stretch = bisect.bisect_right(self._dates, day)
        found = self._stretches.get(stretch)
        if found is None:
            if len(self._stretches) >= self.STRETCHES:
                self._stretches = {}
            found = _quotes_in_force(self, list(self), day)
            self._stretches[stretch] = found
        return found


def _period_dates(periods: dict[int, list[_Period]]) -> list[datetime.date]:
    """The days on which a period of `periods` comes into force or the day after its last,
    in order: between two of them, every period is in force on every day or on none."""
    dates = set()
    for known in periods.values():
        for period in known:
            dates.add(period.effective_from)
            if period.effective_to is not None and period.effective_to < datetime.date.max:
                dates.add(period.effective_to + datetime.timedelta(days=1))
    return sorted(dates)


def _read_periods(prices: QuerySet) -> TypePeriods:
    read = (*COMMITMENT_PARTS, *QUOTED_PARTS)
    rows = prices.values_list(
        "instance_type_id", "usd_per_hour", "id", "effective_from", "effective_to", *read
    ).order_by()
    periods: dict[int, list[_Period]] = {}
    for type_id, usd, pk, start, end, *rest in rows:
        quote = PriceQuote(usd, None, start, True, *rest)
        periods.setdefault(type_id, []).append(_Period(start, end, pk, quote))
    return TypePeriods(periods)


def _quotes_in_force(
    periods: dict[int, list[_Period]], ids: list[int], day: datetime.date
) -> tuple[dict[int, PriceQuote], set[int]]:
    """Each type's quote from its price in force on `day`, for prices the same in every zone
    (all but spot), and the types with periods, none in force on that day.

    What `pick_periods(all_in_force=True)` and `quote_from_zones` answer for one zone,
    without their window (a type's periods never overlap, so at most one is in force; were
    there more, the cheapest wins, as there) and without a pick per row: for a thousand types
    both cost more than reading the periods. A type in neither has no price at all: nothing
    nearer to look for (`pick_periods` is then not asked).
    """
    quotes: dict[int, PriceQuote] = {}
    others: set[int] = set()
    for type_id in ids:
        known = periods.get(type_id)
        if not known:
            continue
        in_force = [period for period in known if is_in_force(period, day)]
        if len(in_force) == 1:  # nearly always: no cheapest to look for
            quotes[type_id] = in_force[0].quote
        elif in_force:
            quotes[type_id] = min(in_force, key=_cheapest).quote
        else:
            others.add(type_id)
    return quotes, others


def hourly_prices(
    *,
    instance_types: Iterable[InstanceType],
    region: Region,
    purchase_option: Purchase | str,
    day: datetime.date,
) -> dict[int, PriceQuote]:
    """Price quotes by instance type id: EC2 from its prices, Fargate from its rates.

    Three queries at most, whatever the number of types. `purchase_option`: a Purchase, or a
    bare option with its defaults.
    """
    purchase = Purchase.of(purchase_option)
    ec2, fargate = [], []
    for instance_type in instance_types:
        is_fargate = instance_type.kind == InstanceType.Kind.FARGATE
        (fargate if is_fargate else ec2).append(instance_type)
    return {
        **_ec2_quotes(ec2, region, purchase, day),
        **fargate_quotes(fargate, region, purchase, day),
    }


def placed_hourly_prices(
    *,
    placed: list[tuple[InstanceType, Region]],
    purchase_option: Purchase | str,
    day: datetime.date,
) -> dict[int, PriceQuote]:
    """`hourly_prices` of each type in its own region (a type at most once): the EC2 types'
    in two queries at most whatever their regions (compare prices each type in its cloud),
    the Fargate sizes' in one per region."""
    purchase = Purchase.of(purchase_option)
    region_by_type = {instance_type.pk: region for instance_type, region in placed}
    ec2: dict[int, list[int]] = {}
    fargate: dict[int, list[InstanceType]] = {}
    regions: dict[int, Region] = {}
    for instance_type, region in placed:
        regions[region.pk] = region
        if instance_type.kind == InstanceType.Kind.FARGATE:
            fargate.setdefault(region.pk, []).append(instance_type)
        else:
            ec2.setdefault(region.pk, []).append(instance_type.pk)
    quotes: dict[int, PriceQuote] = {}
    if ec2:
        # A type is in one region: each region's types, one condition each.
        where = Q()
        for pk, ids in ec2.items():
            where |= Q(region_id=pk, instance_type_id__in=ids)

        def prices() -> QuerySet:
            return Price.objects.filter(where, **purchase.price_fields())

        quotes |= _ec2_quotes_from(
            [t for t, _r in placed if t.kind != InstanceType.Kind.FARGATE],
            region_by_type.__getitem__,
            prices,
            lambda ids: _read_periods(_of_types(prices(), ids)),
            purchase,
            day,
        )
    for pk, sizes in fargate.items():
        quotes |= fargate_quotes(sizes, regions[pk], purchase, day)
    return quotes


def priced_regions() -> list[Region]:
    """Regions with at least one EC2 price or Fargate rate, for the pages' region menu."""
    return list(
        Region.objects.filter(
            Exists(Price.objects.filter(region=OuterRef("pk")))
            | Exists(FargateRate.objects.filter(region=OuterRef("pk")))
        )
    )


def _option_flags() -> dict[str, Exists]:
    """For a region (OuterRef "pk"): per purchase option, whether an EC2 price or a Fargate
    rate is sold that way there."""
    return {
        option: Exists(Price.objects.filter(region=OuterRef("pk"), purchase_option=option))
        | Exists(FargateRate.objects.filter(region=OuterRef("pk"), purchase_option=option))
        for option in PurchaseOption.values
    }


class PriceMenu(dict):
    """Regions with prices, by code, each with its purchase options that have a price; and
    `regions`, each region as the same query read it (a page then names its region without
    reading it again)."""

    def __init__(self, options: dict[str, list[str]], regions: dict[str, Region]) -> None:
        super().__init__(options)
        self.regions = regions


def price_menu() -> PriceMenu:
    """Regions with prices, by code, each with its purchase options that have a price.

    One query: the pages' region and purchase-option menus offer only choices with data.
    """
    rows = (
        Region.objects.annotate(**_option_flags())
        .filter(_any_true(PurchaseOption.values))
        .order_by("code")
        .values(*REGION_FIELDS, *PurchaseOption.values)
    )
    options, regions = {}, {}
    for row in rows:
        options[row["code"]] = [option for option in PurchaseOption.values if row[option]]
        regions[row["code"]] = Region(**{name: row[name] for name in REGION_FIELDS})
    return PriceMenu(options, regions)


def _any_true(names: list[str]) -> Q:
    condition = Q()
    for name in names:
        condition |= Q(**{name: True})
    return condition


def purchase_options_in(region: Region) -> list[str]:
    """The purchase options with at least one price in the region (one query)."""
    flags = (
        Region.objects.filter(pk=region.pk)
        .annotate(**_option_flags())
        .values(*PurchaseOption.values)
    )
    found = flags.first() or {}
    return [option for option in PurchaseOption.values if found.get(option)]


def in_currency(quote: PriceQuote, usd: float, rate: ExchangeRate) -> tuple[float, ExchangeRate]:
    """A row's hourly price in the currency asked (`rate`'s), and the rate it stands at: as
    its vendor quoted it when quoted in that currency (with the rate that made its US-dollar
    figure), else converted at `rate`."""
    if quote.quoted_per_hour is not None and quote.currency == rate.currency:
        quoted = per_dollar.significant(float(quote.quoted_per_hour), per_dollar.PRICE_DIGITS)
        return quoted, exchange_rate(rate.currency, quote.effective_from)
    return rate.convert(usd), rate
