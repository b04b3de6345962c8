"""Writes of Fargate rates per vCPU-hour, GB-hour and storage GB-hour, with history."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import Architecture, FargateRate
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
    periods.check_amount_and_days(what, record, record.usd_per_unit_hour)


FARGATE_RATES = periods.PeriodTable(
    model=FargateRate,
    record_type=FargateRateRecord,
    key_fields=("architecture", "operating_system", "component"),
    value_field="usd_per_unit_hour",
    check=_check_rate,
    describe="Fargate {architecture} {operating_system} {component} rate in {region}",
)


@transaction.atomic
def record_fargate_rates(*, records: Iterable[FargateRateRecord]) -> periods.ImportSummary:
    """Store Fargate rates per vCPU-hour, GB-hour and storage GB-hour with their history."""
    return periods.record_periods(records, FARGATE_RATES)
