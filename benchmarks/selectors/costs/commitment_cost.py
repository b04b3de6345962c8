"""What one instance type costs over a period in one region, every way it can be paid: for
1 month, 1 year and 3 years of use, on demand, spot (the median zone), each Reserved term and
each Savings Plan with a price, split into upfront and hourly parts, with each commitment's
break-even month against on demand. Two queries whatever the number of prices (the type, then
every price's period picked in SQL), and the region when it has none."""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from benchmarks import per_dollar
from benchmarks.models import (
    InstanceType,
    OfferingClass,
    Payment,
    Plan,
    Price,
    PurchaseOption,
    Term,
)
from benchmarks.questions.commitment_cost import CommitmentCostQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer import lookups
from benchmarks.selectors.costs.price_periods import (
    PeriodPick,
    PriceQuote,
    pick_periods,
    quote_from_zones,
)
from benchmarks.selectors.costs.prices import COMMITMENT_PARTS

# The periods of use every answer prices: (name, hours). A month is AWS's 730 hours.
PERIODS = (
    ("1m", per_dollar.HOURS_PER_MONTH),
    ("1y", per_dollar.TERM_HOURS["1y"]),
    ("3y", per_dollar.TERM_HOURS["3y"]),
)
# A price's commitment fields, as stored: empty where they do not apply.
COMMITMENT_FIELDS = ("term", "payment", "offering_class", "plan")
# The order of the rows: by option, then term, class or plan, then payment.
ORDER = {
    "purchase_option": list(PurchaseOption.values),
    "term": ["", *Term.values],
    "offering_class": ["", *OfferingClass.values],
    "plan": ["", *Plan.values],
    "payment": ["", *Payment.values],
}


@dataclass(frozen=True)
class PeriodCost:
    """What one period of use costs under one option, in dollars."""

    period: str
    hours: int
    # The hours the type runs in the period (on demand and spot bill these).
    hours_used: int
    upfront_usd: float
    hourly_usd: float
    total_usd: float
    # What the terms started bind the buyer to pay, the hours used or not.
    committed_usd: float
    # The lowest total of every option priced for this period (ties: each of them).
    cheapest: bool = False


@dataclass(frozen=True)
class OptionCost:
    """One way of paying for the type: its price and what each period costs under it."""

    purchase_option: str
    term: str | None
    payment: str | None
    offering_class: str | None
    plan: str | None
    spot_zone: str | None
    usd_per_hour: float
    upfront_usd: float | None
    hourly_usd: float | None
    price_effective_from: datetime.date | None
    price_note: str | None
    # A commitment's first month at or below on demand's cost; None otherwise or if never.
    break_even_month: int | None
    costs: list[PeriodCost]

    @property
    def label(self) -> str:
        """`reserved 1y all_upfront standard`, `savings_plan 3y no_upfront compute`, `spot`."""
        words = (self.purchase_option, self.plan, self.term, self.payment, self.offering_class)
        return " ".join(word for word in words if word)

    @property
    def usd_per_hour_used(self) -> float | None:
        """A year's cost over its hours of use: what an hour of work costs at that use."""
        year = next(cost for cost in self.costs if cost.period == "1y")
        return year.total_usd / year.hours_used if year.hours_used else None


@dataclass
class CommitmentCost:
    """The answer of `GET /api/v1/commitment-cost/`."""

    instance_type: str
    region: str
    at: datetime.date
    # The hours of use a month the costs are for (730: always on).
    hours_per_month: int = per_dollar.HOURS_PER_MONTH
    results: list[OptionCost] = field(default_factory=list)
    # Why some or all of the answer is missing (no price; no on-demand price to break even on).
    note: str | None = None


def commitment_cost(
    *, query: CommitmentCostQuery, instance_type: InstanceType | None = None
) -> CommitmentCost:
    """Every priced way of paying for the type in the region, on demand first.

    `instance_type`: the query's type, when the caller has read it already (its page). The
    region is looked up only when it has no price: an unknown one is then refused."""
    if instance_type is None or instance_type.name != query.instance_type:
        instance_type = lookups.get_instance_type(query.instance_type)
    day = query.at or timezone.localdate()
    answer = CommitmentCost(
        instance_type=instance_type.name,
        region=query.region,
        at=day,
        hours_per_month=query.hours_per_month,
    )
    if instance_type.kind == InstanceType.Kind.FARGATE:
        lookups.get_region(query.region)
        answer.note = (
            f"{instance_type.name} is a Fargate task size: its rates are answered by "
            "fargate-rates/, not by Reserved terms"
        )
        return answer
    quotes = _quotes(instance_type, query.region, day)
    if not quotes:
        region = lookups.get_region(query.region)
        answer.note = f"no price known for {instance_type.name} in {region.code}"
        return answer
    on_demand = quotes.get((PurchaseOption.ON_DEMAND.value, "", "", "", ""))
    answer.results = [
        _option_cost(key, quote, on_demand, query.hours_per_month)
        for key, quote in sorted(quotes.items(), key=lambda item: _rank(item[0]))
    ]
    _mark_cheapest(answer.results)
    if on_demand is None:
        answer.note = (
            f"no on-demand price known for {instance_type.name} in {query.region}: "
            "no break-even month"
        )
    return answer


def _quotes(instance_type, region: str, day: datetime.date) -> dict[tuple, PriceQuote]:
    """One query: each option's quote, by (purchase option, term, payment, class, plan)."""
    picks = pick_periods(
        Price.objects.filter(instance_type=instance_type, region__code=region, os="linux"),
        day=day,
        partition=["purchase_option", *COMMITMENT_FIELDS, "availability_zone"],
        amount="usd_per_hour",
        more=COMMITMENT_PARTS,
    )
    by_option: dict[tuple, list[PeriodPick]] = defaultdict(list)
    for (*option, zone), pick in picks.items():
        by_option[tuple(option)].append(pick._replace(availability_zone=zone))
    return {
        option: quote_from_zones(zones, _purchase(option), day)
        for option, zones in by_option.items()
    }


def _purchase(option: tuple) -> Purchase:
    purchase_option, term, payment, offering_class, plan = option
    default = Purchase()
    return Purchase(
        option=purchase_option,
        term=term or default.term,
        payment=payment or default.payment,
        offering_class=offering_class or default.offering_class,
        plan=plan or default.plan,
    )


def _rank(option: tuple) -> tuple:
    purchase_option, term, payment, offering_class, plan = option
    values = {
        "purchase_option": purchase_option,
        "term": term,
        "offering_class": offering_class,
        "plan": plan,
        "payment": payment,
    }
    return tuple(
        (ORDER[name].index(value) if value in ORDER[name] else len(ORDER[name]), value)
        for name, value in values.items()
    )


def _dollars(value: float) -> float:
    return round(value, 2)


def _mark_cheapest(options: list[OptionCost]) -> None:
    """Mark, in each period, the options whose total is the lowest."""
    for index, _period in enumerate(PERIODS):
        lowest = min(option.costs[index].total_usd for option in options)
        for option in options:
            if option.costs[index].total_usd == lowest:
                option.costs[index] = dataclasses.replace(option.costs[index], cheapest=True)


def _option_cost(
    option: tuple, quote: PriceQuote, on_demand: PriceQuote | None, hours_per_month: int
) -> OptionCost:
    """What each period costs under one option, for `hours_per_month` of use: a commitment
    bills every hour of its term, used or not; on demand and spot the hours used."""
    purchase_option, term, payment, offering_class, plan = option
    committed = bool(term)
    usd_per_hour = float(quote.usd_per_hour)
    if committed and quote.hourly_usd is not None:
        upfront, hourly = float(quote.upfront_usd or 0), float(quote.hourly_usd)
    else:
        # A commitment stored without its parts is priced at its effective hourly price.
        upfront, hourly = 0.0, usd_per_hour
    term_hours = per_dollar.term_hours(term) if committed else None
    costs = []
    for period, hours in PERIODS:
        used = hours // per_dollar.HOURS_PER_MONTH * hours_per_month
        cost = per_dollar.cost_of_use(
            hours=hours if committed else used,
            hourly_usd=hourly,
            upfront_usd=upfront,
            term_hours=term_hours,
        )
        costs.append(PeriodCost(period, hours, used, *(_dollars(value) for value in cost)))
    break_even = None
    if committed and on_demand is not None:
        break_even = per_dollar.break_even_month(
            upfront_usd=upfront,
            hourly_usd=hourly,
            on_demand_usd_per_hour=float(on_demand.usd_per_hour),
            term_hours=term_hours,
            hours_used_per_month=hours_per_month,
        )
    return OptionCost(
        purchase_option=purchase_option,
        term=term or None,
        payment=payment or None,
        offering_class=offering_class or None,
        plan=plan or None,
        spot_zone="median" if purchase_option == PurchaseOption.SPOT else None,
        usd_per_hour=usd_per_hour,
        upfront_usd=None if quote.upfront_usd is None else float(quote.upfront_usd),
        hourly_usd=None if quote.hourly_usd is None else float(quote.hourly_usd),
        price_effective_from=quote.effective_from,
        price_note=quote.note,
        break_even_month=break_even,
        costs=costs,
    )
