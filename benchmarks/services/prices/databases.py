"""Writes of RDS and Aurora prices (study S5): DB instance classes by the hour, Aurora's
storage and I/O rates, with history like every other price (periods.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import AuroraRate, DatabasePrice, InstanceType, Region
from benchmarks.pricing.rds import DB_INSTANCE_CLASS, DEPLOYMENT_OF_USAGE
from benchmarks.pricing.records import AuroraStorageRateRecord, DatabaseInstancePriceRecord
from benchmarks.services.prices import periods

DEPLOYMENT_OPTIONS = tuple(DEPLOYMENT_OF_USAGE.values())


def _check_instance_price(record: DatabaseInstancePriceRecord) -> None:
    what = f"{record.instance_class or '?'} {record.engine or '?'} in {record.region or '?'}"
    if not DB_INSTANCE_CLASS.match(record.instance_class or ""):
        raise DomainError(f"{what}: {record.instance_class!r} is not a DB instance class name")
    if not record.engine:
        raise DomainError(f"{what}: no engine")
    periods.check_one_of(what, "deployment option", record.deployment_option, DEPLOYMENT_OPTIONS)
    periods.check_amount_and_days(what, record, record.usd_per_hour, word="price")


def _check_rate(record: AuroraStorageRateRecord) -> None:
    what = f"Aurora {record.component or '?'} rate in {record.region or '?'}"
    periods.check_one_of(what, "component", record.component, AuroraRate.Component.values)
    periods.check_amount_and_days(what, record, record.usd_per_unit)


def _instance_classes(
    records: list[DatabaseInstancePriceRecord],
    regions: dict[str, Region],
    summary: periods.ImportSummary,
) -> dict[str, InstanceType]:
    """DB instance classes by name; the unknown ones arrive with their prices."""
    return periods.instance_types_named(
        {record.instance_class for record in records if record.region in regions},
        kind=InstanceType.Kind.DATABASE,
        summary=summary,
        wrong_kind="known as an instance type, not a DB instance class",
    )


DATABASE_PRICES = periods.PeriodTable(
    model=DatabasePrice,
    record_type=DatabaseInstancePriceRecord,
    key_fields=(
        "instance_type_id",
        "engine",
        "deployment_option",
        "license_model",
        "edition",
        "io_optimized",
    ),
    value_field="usd_per_hour",
    check=_check_instance_price,
    describe="{instance_type} {engine} {deployment_option} in {region}",
    narrow_by=("instance_type_id",),
    instance_type_attribute="instance_class",
    instance_types=_instance_classes,
)
AURORA_RATES = periods.PeriodTable(
    model=AuroraRate,
    record_type=AuroraStorageRateRecord,
    key_fields=("engine", "component"),
    value_field="usd_per_unit",
    check=_check_rate,
    describe="Aurora {engine} {component} rate in {region}",
)


@transaction.atomic
def record_database_prices(
    *, records: Iterable[DatabaseInstancePriceRecord | AuroraStorageRateRecord]
) -> periods.ImportSummary:
    """Store DB instance prices and Aurora rates with their history; idempotent.

    Unknown DB instance classes are created (kind `database`); regions pricebench does not
    know are skipped and named in the summary's notes.
    """
    return periods.record_periods(records, DATABASE_PRICES, AURORA_RATES)
