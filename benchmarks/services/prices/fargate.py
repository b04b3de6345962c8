"""Writes of Fargate rates per vCPU-hour, GB-hour and storage GB-hour, with history."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import Architecture, FargateRate, Payment, Plan, PurchaseOption, Term
from benchmarks.pricing.records import FargateRateRecord
from benchmarks.services.prices import periods


def _check_rate(record: FargateRateRecord) -> None:
    what = f"Fargate {record.component or '?'} rate in {record.region or '?'}"
    periods.check_one_of(what, "component", record.component, FargateRate.Component.values)
    # Ephemeral storage costs the same on every architecture.
    architectures = ("any",) if record.component == "ephemeral_storage_gb" else Architecture.values
    periods.check_one_of(what, "architecture", record.architecture, architectures)
    if not record.operating_system:
        raise DomainError(f"{what}: no operating system")
    periods.check_one_of(what, "purchase option", record.purchase_option, FARGATE_OPTIONS)
    if record.purchase_option == PurchaseOption.SAVINGS_PLAN:
        periods.check_one_of(what, "term", record.term, Term.values)
        periods.check_one_of(what, "payment", record.payment, Payment.values)
        periods.check_one_of(what, "plan", record.plan, Plan.values)
    elif record.term or record.payment or record.plan:
        raise DomainError(f"{what}: a {record.purchase_option} rate has no term, payment or plan")
    periods.check_amount_and_days(what, record, record.usd_per_unit_hour)


FARGATE_OPTIONS = (
    PurchaseOption.ON_DEMAND,
    PurchaseOption.FARGATE_SPOT,
    PurchaseOption.SAVINGS_PLAN,
)


FARGATE_RATES = periods.PeriodTable(
    model=FargateRate,
    record_type=FargateRateRecord,
    key_fields=(
        "architecture",
        "operating_system",
        "component",
        "purchase_option",
        "term",
        "payment",
        "plan",
    ),
    value_field="usd_per_unit_hour",
    check=_check_rate,
    describe=(
        "Fargate {architecture} {operating_system} {component} {purchase_option} rate in {region}"
    ),
)


@transaction.atomic
def record_fargate_rates(*, records: Iterable[FargateRateRecord]) -> periods.ImportSummary:
    """Store Fargate rates per vCPU-hour, GB-hour and storage GB-hour with their history."""
    return periods.record_periods(records, FARGATE_RATES)
