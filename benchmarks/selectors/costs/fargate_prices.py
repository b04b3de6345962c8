"""Fargate task sizes priced from Fargate's rates: how Fargate is sold, and `fargate_quote`,
the one place a size's hourly price is made from its vCPU and GB rates (and withheld on a day
before AWS sold the size: reference.fargate_not_sold).
"""

from __future__ import annotations

import datetime

from benchmarks.models import FargateRate, InstanceType, PurchaseOption, Region
from benchmarks.questions.purchase import Purchase
from benchmarks.reference import fargate_not_sold
from benchmarks.selectors.costs.price_periods import PeriodPick, PriceQuote, pick_periods

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
    """One query: every Fargate rate of the region, the right period picked in SQL. A size
    not sold yet on `day` has no price (`reference.fargate_not_sold` says why)."""
    if not instance_types:
        return {}
    if purchase.option not in FARGATE_OPTIONS:
        note = f"no Fargate {purchase.option} price known (Fargate Spot is fargate_spot)"
        return {instance_type.pk: PriceQuote(None, note) for instance_type in instance_types}
    picks = pick_periods(
        FargateRate.objects.filter(
            region=region, operating_system="linux", **purchase.fargate_fields()
        ),
        day=day,
        partition=["architecture", "component"],
        amount="usd_per_unit_hour",
    )
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
