"""Writes of RDS and Aurora prices (study S5): DB instance classes by the hour, Aurora's
storage and I/O rates, with history like every other price (services/prices.py)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import AuroraRate, DatabasePrice, InstanceType
from benchmarks.pricing.rds import DB_INSTANCE_CLASS, DEPLOYMENT_OF_USAGE
from benchmarks.pricing.records import AuroraStorageRateRecord, DatabaseInstancePriceRecord
from benchmarks.services.prices import (
    PRICE_PLACES,
    ImportSummary,
    _Observation,
    _regions,
    _write_periods,
)

DEPLOYMENT_OPTIONS = tuple(DEPLOYMENT_OF_USAGE.values())


def _check_instance_price(record: DatabaseInstancePriceRecord) -> None:
    what = f"{record.instance_class or '?'} {record.engine or '?'} in {record.region or '?'}"
    if not DB_INSTANCE_CLASS.match(record.instance_class or ""):
        raise DomainError(f"{what}: {record.instance_class!r} is not a DB instance class name")
    if not record.engine:
        raise DomainError(f"{what}: no engine")
    if record.deployment_option not in DEPLOYMENT_OPTIONS:
        raise DomainError(
            f"{what}: deployment option {record.deployment_option!r} is not one of "
            + ", ".join(DEPLOYMENT_OPTIONS)
        )
    if record.usd_per_hour <= 0:
        raise DomainError(f"{what}: price {record.usd_per_hour} is not above zero")


def _check_rate(record: AuroraStorageRateRecord) -> None:
    what = f"Aurora {record.component or '?'} rate in {record.region or '?'}"
    if record.component not in AuroraRate.Component.values:
        raise DomainError(
            f"{what}: component {record.component!r} is not one of "
            + ", ".join(AuroraRate.Component.values)
        )
    if record.usd_per_unit <= 0:
        raise DomainError(f"{what}: rate {record.usd_per_unit} is not above zero")


def _instance_classes(names: set[str], summary: ImportSummary) -> dict[str, InstanceType]:
    """DB instance classes by name; the unknown ones arrive with their prices."""
    found = {it.name: it for it in InstanceType.objects.filter(name__in=sorted(names))}
    other = sorted(name for name, it in found.items() if it.kind != InstanceType.Kind.DATABASE)
    if other:
        raise DomainError(f"{', '.join(other)}: known as an instance type, not a DB instance class")
    missing = sorted(names - found.keys())
    if missing:
        InstanceType.objects.bulk_create(
            [InstanceType(name=name, kind=InstanceType.Kind.DATABASE) for name in missing]
        )
        found.update((it.name, it) for it in InstanceType.objects.filter(name__in=missing))
        summary.instance_types_created += len(missing)
    return found


@transaction.atomic
def record_database_prices(
    *, records: Iterable[DatabaseInstancePriceRecord | AuroraStorageRateRecord]
) -> ImportSummary:
    """Store DB instance prices and Aurora rates with their history; idempotent.

    Unknown DB instance classes are created (kind `database`); regions pricebench does not
    know are skipped and named in the summary's notes.
    """
    summary = ImportSummary()
    records = list(records)
    summary.matched = len(records)
    instances = [r for r in records if isinstance(r, DatabaseInstancePriceRecord)]
    rates = [r for r in records if isinstance(r, AuroraStorageRateRecord)]
    for record in instances:
        _check_instance_price(record)
    for record in rates:
        _check_rate(record)
    regions = _regions({record.region for record in records}, summary)
    if instances:
        classes = _instance_classes(
            {r.instance_class for r in instances if r.region in regions}, summary
        )
        names = {it.pk: it.name for it in classes.values()}
        _write_periods(
            model=DatabasePrice,
            records=instances,
            regions=regions,
            summary=summary,
            observe=lambda record: _Observation(
                key=(
                    classes[record.instance_class].pk,
                    record.engine,
                    record.deployment_option,
                    record.license_model,
                    record.edition,
                    record.io_optimized,
                ),
                value=record.usd_per_hour.quantize(PRICE_PLACES),
                effective_from=record.effective_from,
                effective_to=None,
                source=record.source,
            ),
            existing=lambda region, observations: DatabasePrice.objects.filter(
                region=region, instance_type_id__in={seen.key[0] for seen in observations}
            ),
            key_of=lambda price: (
                price.instance_type_id,
                price.engine,
                price.deployment_option,
                price.license_model,
                price.edition,
                price.io_optimized,
            ),
            value_field="usd_per_hour",
            make=lambda region, seen, start, end: DatabasePrice(
                instance_type_id=seen.key[0],
                region=region,
                engine=seen.key[1],
                deployment_option=seen.key[2],
                license_model=seen.key[3],
                edition=seen.key[4],
                io_optimized=seen.key[5],
                usd_per_hour=seen.value,
                effective_from=start,
                effective_to=end,
                source=seen.source,
            ),
            describe=lambda code, seen: (
                f"{names[seen.key[0]]} {seen.key[1]} {seen.key[2]} in {code}"
            ),
        )
    if rates:
        _write_periods(
            model=AuroraRate,
            records=rates,
            regions=regions,
            summary=summary,
            observe=lambda record: _Observation(
                key=(record.engine, record.component),
                value=record.usd_per_unit.quantize(PRICE_PLACES),
                effective_from=record.effective_from,
                effective_to=None,
                source=record.source,
            ),
            existing=lambda region, observations: AuroraRate.objects.filter(region=region),
            key_of=lambda rate: (rate.engine, rate.component),
            value_field="usd_per_unit",
            make=lambda region, seen, start, end: AuroraRate(
                region=region,
                engine=seen.key[0],
                component=seen.key[1],
                usd_per_unit=seen.value,
                effective_from=start,
                effective_to=end,
                source=seen.source,
            ),
            describe=lambda code, seen: f"Aurora {seen.key[0]} {seen.key[1]} rate in {code}",
        )
    return summary
