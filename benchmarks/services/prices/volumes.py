"""Writes of EBS volume rates per GB-month, IOPS-month and MiB/s-month, with history."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import VolumePrice
from benchmarks.pricing.records import VolumePriceRecord
from benchmarks.services.prices import periods


def _check_volume_price(record: VolumePriceRecord) -> None:
    what = f"{record.volume_type or '?'} {record.component or '?'} rate in {record.region or '?'}"
    periods.check_one_of(what, "volume type", record.volume_type, VolumePrice.VolumeType.values)
    periods.check_one_of(what, "component", record.component, VolumePrice.Component.values)
    if record.tier not in (1, 2, 3) or (record.tier != 1 and record.volume_type != "io2"):
        raise DomainError(f"{what}: tier {record.tier} (only io2 IOPS have tiers 2 and 3)")
    periods.check_amount_and_days(what, record, record.usd_per_unit_month)


VOLUME_PRICES = periods.PeriodTable(
    model=VolumePrice,
    record_type=VolumePriceRecord,
    key_fields=("volume_type", "component", "tier"),
    value_field="usd_per_unit_month",
    check=_check_volume_price,
    describe="{volume_type} {component} tier {tier} rate in {region}",
)


@transaction.atomic
def record_volume_prices(*, records: Iterable[VolumePriceRecord]) -> periods.ImportSummary:
    """Store EBS volume rates (per GB-month, IOPS-month, MiB/s-month) with their history."""
    return periods.record_periods(records, VOLUME_PRICES)
