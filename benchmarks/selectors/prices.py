"""Reads of prices: the hourly price of instance types on a day, in any region.

Which period is in force on a day is answered in one place, `pick_periods`, in SQL, for EC2
prices and Fargate rates alike: the cheapest period in force (spot: the cheapest zone), else
the period nearest to the day, with a note that says which one was used.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import NamedTuple

from django.db.models import (
    Case,
    Count,
    DateField,
    DurationField,
    Exists,
    F,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber

from benchmarks.models import (
    FargateRate,
    InstanceType,
    Price,
    PurchaseOption,
    Region,
    in_force_on,
)


# Named tuples, not dataclasses: a 1,000-row answer builds a thousand of each, and a frozen
# dataclass's constructor costs several times a tuple's.
class PriceQuote(NamedTuple):
    """An hourly price for a day, or None, with a note whenever it is not simply in force."""

    usd_per_hour: Decimal | None
    note: str | None = None
    # The day the price used came into force (for Fargate, its later rate's).
    effective_from: datetime.date | None = None
    # False: no price was in force on the day; the nearest known was used (`note` says which).
    in_force: bool = True


class PeriodPick(NamedTuple):
    """The period chosen for one partition (an instance type, a Fargate rate component)."""

    amount: Decimal
    effective_from: datetime.date
    # None when the query was `all_in_force` (nothing reads an in-force period's end).
    effective_to: datetime.date | None
    availability_zone: str
    # How many periods (zones) of the partition are in force on the day; 0 for a fallback.
    in_force: int
    # For a fallback: 'the earliest price known', 'the next price known', ...
    nearest: str | None = None

    def note(self, day: datetime.date) -> str | None:
        """Why this period, when it is not simply the one in force on `day`."""
        if self.nearest is None:
            return None
        until = f" to {self.effective_to}" if self.effective_to else ""
        return (
            f"no price in force on {day}; using {self.nearest}, "
            f"in force from {self.effective_from}{until}"
        )


def pick_periods(
    periods: QuerySet,
    *,
    day: datetime.date,
    partition: list[str],
    amount: str,
    zone: str | None = None,
    all_in_force: bool = False,
) -> dict[tuple, PeriodPick]:
    """For each partition of `periods`: the cheapest period in force on `day`, else the nearest.

    One query. Keys are tuples of the partition fields' values; `zone` names the field that
    tells equally valid periods apart (spot prices' availability zone). `all_in_force`: the
    caller kept only periods in force on `day`, so the cheapest wins with no distance to rank
    by and no fallback to describe: the same picks from a simpler query that sends neither
    the periods' ends nor, without zones, their count.
    """
    by = [F(name) for name in partition]
    if all_in_force:
        ranking = {
            "rank": Window(RowNumber(), partition_by=by, order_by=[F(amount).asc(), F("pk").asc()]),
            # Only a zone's note counts them ("cheapest of 3 availability zones").
            "periods_in_force": Window(Count("pk"), partition_by=by) if zone else Value(1),
        }
    else:
        the_day = Value(day, output_field=DateField())
        ranking = {
            "distance": Case(
                When(in_force_on(day), then=Value(datetime.timedelta(0))),
                When(effective_from__gt=day, then=F("effective_from") - the_day),
                default=the_day - F("effective_to"),
                output_field=DurationField(),
            ),
            "rank": Window(
                RowNumber(),
                partition_by=by,
                order_by=[F("distance").asc(), F(amount).asc(), F("pk").asc()],
            ),
            "periods_in_force": Window(Count("pk", filter=in_force_on(day)), partition_by=by),
            # The partition's first and last starts: only a fallback's note reads them.
            "first_from": Window(Min("effective_from"), partition_by=by),
            "last_from": Window(Max("effective_from"), partition_by=by),
        }
    read = [amount, "zone_name", "periods_in_force", "effective_from"]
    if not all_in_force:
        read += ["effective_to", "first_from", "last_from"]
    rows = (
        periods.annotate(**ranking, zone_name=F(zone) if zone else Value(""))
        .filter(rank=1)
        .values_list(*read, *partition)
        .order_by()
    )
    width = len(read)
    return {tuple(row[width:]): _pick(row[:width], day) for row in rows}


def _pick(row: tuple, day: datetime.date) -> PeriodPick:
    """A picked row: (amount, zone, periods in force, from[, to, first from, last from])."""
    amount, zone, in_force, start, *period = row
    end, first_from, last_from = period or (None, None, None)
    if in_force:
        nearest = None
    elif start > day:
        first = start == first_from
        nearest = "the earliest price known" if first else "the next price known"
    else:
        last = start == last_from
        nearest = "the latest price known" if last else "the previous price known"
    return PeriodPick(amount, start, end, zone, in_force, nearest)


def _ec2_quotes(
    instance_types: list[InstanceType],
    region: Region,
    purchase_option: str,
    day: datetime.date,
    among: QuerySet | None,
) -> dict[int, PriceQuote]:
    """Two queries: the prices in force, then the nearest ones for types that have none."""
    ids = [instance_type.pk for instance_type in instance_types]
    if not ids:
        return {}
    prices = Price.objects.filter(region=region, purchase_option=purchase_option)
    options = {"day": day, "partition": ["instance_type_id"], "amount": "usd_per_hour"}
    if purchase_option == PurchaseOption.SPOT:
        options["zone"] = "availability_zone"
    # A query of the ids, when the caller has one, is far cheaper to send than a thousand ids.
    wanted = ids if among is None else among
    picks = pick_periods(
        prices.filter(in_force_on(day), instance_type_id__in=wanted), all_in_force=True, **options
    )
    missing = [pk for pk in ids if (pk,) not in picks]
    if missing:
        picks.update(pick_periods(prices.filter(instance_type_id__in=missing), **options))
    quotes = {}
    for instance_type in instance_types:
        pick = picks.get((instance_type.pk,))
        if pick is None:
            quotes[instance_type.pk] = PriceQuote(
                None,
                f"no {purchase_option} price known for {instance_type.name} in {region.code}",
            )
            continue
        notes = []
        if pick.availability_zone:
            count = max(pick.in_force, 1)
            notes.append(f"cheapest of {count} availability zones: {pick.availability_zone}")
        if pick.nearest:
            notes.append(pick.note(day))
        quotes[instance_type.pk] = PriceQuote(
            pick.amount, "; ".join(notes) or None, pick.effective_from, pick.nearest is None
        )
    return quotes


FARGATE_COMPONENTS = (
    (FargateRate.Component.VCPU, "vcpus"),
    (FargateRate.Component.MEMORY_GB, "memory_gib"),
)


def _fargate_quotes(
    instance_types: list[InstanceType], region: Region, purchase_option: str, day: datetime.date
) -> dict[int, PriceQuote]:
    """One query: every Fargate rate of the region, the right period picked in SQL."""
    if not instance_types:
        return {}
    if purchase_option != PurchaseOption.ON_DEMAND:
        note = f"no Fargate {purchase_option} price known"
        return {instance_type.pk: PriceQuote(None, note) for instance_type in instance_types}
    picks = pick_periods(
        FargateRate.objects.filter(region=region, operating_system="linux"),
        day=day,
        partition=["architecture", "component"],
        amount="usd_per_unit_hour",
    )
    quotes = {}
    for instance_type in instance_types:
        architecture = instance_type.architecture or "x86_64"
        total, notes, missing, starts = Decimal(0), [], None, []
        for component, size in FARGATE_COMPONENTS:
            pick = picks.get((architecture, component))
            if pick is None:
                missing = f"no Fargate {architecture} {component} rate known in {region.code}"
                break
            total += pick.amount * getattr(instance_type, size)
            starts.append(pick.effective_from)
            if pick.nearest:
                notes.append(f"{component}: {pick.note(day)}")
        quotes[instance_type.pk] = (
            PriceQuote(None, missing)
            if missing
            else PriceQuote(total, "; ".join(notes) or None, max(starts), not notes)
        )
    return quotes


def hourly_prices(
    *,
    instance_types: Iterable[InstanceType],
    region: Region,
    purchase_option: str,
    day: datetime.date,
    among: QuerySet | None = None,
) -> dict[int, PriceQuote]:
    """Price quotes by instance type id: EC2 from its prices, Fargate from its rates.

    Three queries at most, whatever the number of types. `among` may give the types' ids as
    a query (a superset is fine).
    """
    ec2, fargate = [], []
    for instance_type in instance_types:
        is_fargate = instance_type.kind == InstanceType.Kind.FARGATE
        (fargate if is_fargate else ec2).append(instance_type)
    return {
        **_ec2_quotes(ec2, region, purchase_option, day, among),
        **_fargate_quotes(fargate, region, purchase_option, day),
    }


def priced_regions() -> list[Region]:
    """Regions with at least one EC2 price or Fargate rate, for the pages' region menu."""
    return list(
        Region.objects.filter(
            Exists(Price.objects.filter(region=OuterRef("pk")))
            | Exists(FargateRate.objects.filter(region=OuterRef("pk")))
        )
    )


def price_menu() -> dict[str, list[str]]:
    """Regions with prices, by code, each with its purchase options that have a price.

    One query: the pages' region and purchase-option menus offer only choices with data.
    On-demand counts where only Fargate rates are known.
    """
    options = {
        option: Exists(Price.objects.filter(region=OuterRef("pk"), purchase_option=option))
        for option in PurchaseOption.values
    }
    rows = (
        Region.objects.annotate(
            **options, fargate=Exists(FargateRate.objects.filter(region=OuterRef("pk")))
        )
        .filter(_any_true([*options, "fargate"]))
        .order_by("code")
        .values("code", *PurchaseOption.values, "fargate")
    )
    menu = {}
    for row in rows:
        found = [option for option in PurchaseOption.values if row[option]]
        if row["fargate"] and PurchaseOption.ON_DEMAND not in found:
            found.insert(0, PurchaseOption.ON_DEMAND)
        menu[row["code"]] = found
    return menu


def _any_true(names: list[str]) -> Q:
    condition = Q()
    for name in names:
        condition |= Q(**{name: True})
    return condition


def purchase_options_in(region: Region) -> list[str]:
    """The purchase options with at least one price in the region (one query)."""
    flags = (
        Region.objects.filter(pk=region.pk)
        .annotate(
            **{
                option: Exists(Price.objects.filter(region=OuterRef("pk"), purchase_option=option))
                for option in PurchaseOption.values
            },
            fargate=Exists(FargateRate.objects.filter(region=OuterRef("pk"))),
        )
        .values(*PurchaseOption.values, "fargate")
    )
    found = flags.first() or {}
    options = [option for option in PurchaseOption.values if found.get(option)]
    if found.get("fargate") and PurchaseOption.ON_DEMAND not in options:
        options.insert(0, PurchaseOption.ON_DEMAND)
    return options
