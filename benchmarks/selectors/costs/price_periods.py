"""Which price period is in force on a day, picked in SQL, and a type's price from its zones'
periods: the one place for EC2 prices and Fargate rates alike (`pick_periods`,
`quote_from_zones`), below the modules that price types (selectors/costs/prices.py,
selectors/costs/fargate_prices.py)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import NamedTuple

from django.db.models import (
    Case,
    Count,
    DateField,
    DurationField,
    F,
    Max,
    Min,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber

from benchmarks import per_dollar
from benchmarks.models import PurchaseOption, in_force_on, is_in_force
from benchmarks.questions.purchase import Purchase


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
    # A commitment's parts of its effective hourly price (`usd_per_hour`); None otherwise.
    upfront_usd: Decimal | None = None
    hourly_usd: Decimal | None = None
    # The price as its vendor quotes it, where that is not in US dollars (Hetzner: EUR);
    # `usd_per_hour` is it at the ECB's rate of `effective_from`.
    currency: str | None = None
    quoted_per_hour: Decimal | None = None


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
    # The values of the fields `pick_periods` was asked to read as well (`more`).
    more: tuple = ()

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
    more: tuple[str, ...] = (),
) -> dict[tuple, PeriodPick]:
    """For each partition of `periods`: the cheapest period in force on `day`, else the nearest.

    One query. Keys are tuples of the partition fields' values; `zone` names the field that
    tells equally valid periods apart (spot prices' availability zone). `all_in_force`: the
    caller kept only periods in force on `day`, so the cheapest wins with no distance to rank
    by and no fallback to describe: the same picks from a simpler query that sends neither
    the periods' ends nor, without zones, their count. `more` names fields read as well
    (a commitment's upfront and hourly parts), given in each pick's `more`.
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
        .values_list(*read, *more, *partition)
        .order_by()
    )
    width, extra = len(read), len(read) + len(more)
    if not more:
        return {tuple(row[width:]): _pick(row[:width], day) for row in rows}
    return {
        tuple(row[extra:]): _pick(row[:width], day)._replace(more=row[width:extra]) for row in rows
    }


class Period(NamedTuple):
    """A period already read, for `pick_read_periods`: its partition's key, its amount, id
    and days."""

    key: tuple
    amount: Decimal
    pk: int
    effective_from: datetime.date
    effective_to: datetime.date | None


def pick_read_periods(periods: list[Period], *, day: datetime.date) -> dict[tuple, PeriodPick]:
    """`pick_periods` (without zones, `all_in_force` or `more`) of periods already read: for a
    few periods kept in the process (a region's Fargate rates), the same picks without a query
    built and sent for each day asked. The same order: in force first, else the nearest; then
    the cheapest; then the lowest id."""
    by_key: dict[tuple, list[Period]] = {}
    for period in periods:
        by_key.setdefault(period.key, []).append(period)
    picks = {}
    for key, partition in by_key.items():
        in_force = sum(is_in_force(period, day) for period in partition)

        def rank(period: Period) -> tuple:
            if is_in_force(period, day):
                distance = 0
            elif period.effective_from > day:
                distance = (period.effective_from - day).days
            else:
                distance = (day - period.effective_to).days
            return distance, period.amount, period.pk

        chosen = min(partition, key=rank)
        first_from = min(period.effective_from for period in partition)
        last_from = max(period.effective_from for period in partition)
        picks[key] = _pick(
            (chosen.amount, "", in_force, chosen.effective_from, chosen.effective_to,
             first_from, last_from),
            day,
        )  # fmt: skip
    return picks


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


def quote_from_zones(zones: list[PeriodPick], purchase: Purchase, day: datetime.date) -> PriceQuote:
    """A type's price from its zones' periods (one zone, "", for all but spot): the zones in
    force, else the nearest; spot is their median or the cheapest (`purchase.spot_zone`).

    Each pick's `more` holds its upfront and hourly parts (COMMITMENT_PARTS), then, when
    asked, its currency and quoted price (QUOTED_PARTS).
    """
    notes = []
    if purchase.option != PurchaseOption.SPOT:
        # One period but for spot: the zones' list is only built for spot.
        used = zones if len(zones) == 1 else [pick for pick in zones if pick.in_force] or zones
        chosen = used[0] if len(used) == 1 else max(used, key=lambda pick: pick.effective_from)
        usd = chosen.amount
    else:
        used = [pick for pick in zones if pick.in_force] or list(zones)
        if purchase.spot_zone == "cheapest":
            chosen = min(used, key=lambda pick: (pick.amount, pick.availability_zone))
            usd = chosen.amount
            notes.append(f"cheapest of {len(used)} availability zones: {chosen.availability_zone}")
        else:
            chosen = max(used, key=lambda pick: pick.effective_from)
            amounts = sorted(pick.amount for pick in used)
            usd = Decimal(str(per_dollar.median_price([float(amount) for amount in amounts])))
            if len(used) > 1:
                notes.append(f"median of {len(used)} availability zones")
    if chosen.nearest:
        notes.append(chosen.note(day))
    upfront, hourly, currency, quoted = (*chosen.more, None, None, None, None)[:4]
    return PriceQuote(
        usd,
        "; ".join(notes) or None,
        chosen.effective_from,
        chosen.nearest is None,
        upfront,
        hourly,
        # A median of zones is no vendor's quote.
        currency if usd == chosen.amount else None,
        quoted if usd == chosen.amount else None,
    )
