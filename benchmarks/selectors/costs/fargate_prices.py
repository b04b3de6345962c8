"""Fargate task sizes priced from Fargate's rates: how Fargate is sold, and `fargate_quote`,
the one place a size's hourly price is made from its vCPU and GB rates (and withheld on a day
before AWS sold the size: reference.fargate_not_sold).
"""

from __future__ import annotations

import datetime

from benchmarks import freshness
from benchmarks.models import FargateRate, InstanceType, PurchaseOption, Region
from benchmarks.questions.purchase import Purchase
from benchmarks.reference import fargate_not_sold
from benchmarks.selectors.answer.lookups import prices_stamp
from benchmarks.selectors.costs.price_periods import (
    Period,
    PeriodPick,
    PriceQuote,
    pick_read_periods,
)

# How Fargate is sold: on demand, on Fargate Spot, or under a Compute Savings Plan.
FARGATE_OPTIONS = (
    PurchaseOption.ON_DEMAND,
    PurchaseOption.FARGATE_SPOT,
    PurchaseOption.SAVINGS_PLAN,
)
FARGATE_COMPONENTS = (
    (FargateRate.Component.VCPU, "vcpus"),
    (FargateRate.Component.MEMORY_GB, "memory_gib"),
)


def fargate_quotes(
    instance_types: list[InstanceType], region: Region, purchase: Purchase, day: datetime.date
) -> dict[int, PriceQuote]:
    """Each size's price from the region's Fargate rates (`_rates`: one query, or none while
    they are kept), the right period picked as `pick_periods` picks it. A size not sold yet on
    `day` has no price (`reference.fargate_not_sold` says why)."""
    if not instance_types:
        return {}
    if purchase.option not in FARGATE_OPTIONS:
        note = f"no Fargate {purchase.option} price known (Fargate Spot is fargate_spot)"
        return {instance_type.pk: PriceQuote(None, note) for instance_type in instance_types}
    picks = pick_read_periods(_rates(region, purchase), day=day)
    quotes = {}
    for instance_type in instance_types:
        architecture = instance_type.architecture or "x86_64"
        rates = {
            component: picks[(architecture, component)]
            for component, _size in FARGATE_COMPONENTS
            if (architecture, component) in picks
        }
        quotes[instance_type.pk] = fargate_quote(instance_type, rates, day) or PriceQuote(
            None, f"no Fargate {purchase.describe()} {architecture} rates known in {region.code}"
        )
    return quotes


def _rates(region: Region, purchase: Purchase) -> list[Period]:
    """The region's Fargate rate periods bought this way, by architecture and component: a few
    rows, kept in this process while the region's stamp stays the same (every rate written
    moves it, as every price does: services/prices/periods.py). Picking them in SQL cost an
    answer a query built and sent for each day asked, a tenth of a cold answer's time at 10M
    results (docs/performance.md); their pick in Python is `pick_periods`' own order."""
    fields = purchase.fargate_fields()

    def read() -> list[Period]:
        rows = FargateRate.objects.filter(
            region=region, operating_system="linux", **fields
        ).values_list(
            "architecture", "component", "usd_per_unit_hour", "pk", "effective_from",
            "effective_to",
        )  # fmt: skip
        return [Period((architecture, component), *rest) for architecture, component, *rest in rows]

    key = f"fargate-rates:{region.pk}|{sorted(fields.items())}"
    return freshness.kept_read(key, read, stamp=prices_stamp(region))


def fargate_quote(
    instance_type: InstanceType, rates: dict[str, PeriodPick], day: datetime.date
) -> PriceQuote | None:
    """A task size's price on `day` from its rates' periods (by component), the one place a
    Fargate size is priced from them: None where a rate is missing; no price, with the reason,
    where the size was not sold yet on `day` (no later rate stands in for it then)."""
    architecture = instance_type.architecture or "x86_64"
    unsold = fargate_not_sold(instance_type.name, instance_type.vcpus, architecture, day)
    if unsold:
        return PriceQuote(None, unsold)
    if any(component not in rates for component, _size in FARGATE_COMPONENTS):
        return None
    total = sum(
        rates[component].amount * getattr(instance_type, size)
        for component, size in FARGATE_COMPONENTS
    )
    notes = [
        f"{component}: {rates[component].note(day)}"
        for component, _size in FARGATE_COMPONENTS
        if rates[component].nearest
    ]
    start = max(pick.effective_from for pick in rates.values())
    return PriceQuote(total, "; ".join(notes) or None, start, not notes)
