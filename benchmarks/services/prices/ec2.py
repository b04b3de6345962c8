"""Writes of EC2 prices: on-demand, and spot per availability zone, with history."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from benchmarks import per_dollar
from benchmarks.errors import DomainError
from benchmarks.models import (
    COMMITMENTS,
    InstanceType,
    OfferingClass,
    Payment,
    Plan,
    Price,
    PurchaseOption,
    Region,
    SpecSource,
    Term,
)
from benchmarks.pricing.products import INSTANCE_TYPE_NAME
from benchmarks.pricing.records import PriceRecord
from benchmarks.services.prices import periods, spec_sources


def _check_price(record: PriceRecord) -> None:
    what = f"{record.instance_type or '?'} in {record.region or '?'}"
    if not INSTANCE_TYPE_NAME.match(record.instance_type or ""):
        raise DomainError(f"{what}: {record.instance_type!r} is not an EC2 instance type name")
    periods.check_one_of(what, "purchase option", record.purchase_option, PurchaseOption.values)
    if (record.purchase_option == PurchaseOption.SPOT) != bool(record.availability_zone):
        raise DomainError(f"{what}: spot prices, and only they, name an availability zone")
    _check_commitment(what, record)
    periods.check_amount_and_days(what, record, record.usd_per_hour, word="price")


def _check_commitment(what: str, record: PriceRecord) -> None:
    """A commitment names its term and payment (and class or plan) and its two parts, whose
    effective hourly price is its `usd_per_hour`; any other price names none of them."""
    option = record.purchase_option
    if option not in COMMITMENTS:
        named = [
            name
            for name in ("term", "payment", "offering_class", "plan", "upfront_usd", "hourly_usd")
            if getattr(record, name) not in ("", None)
        ]
        if named:
            raise DomainError(f"{what}: {option} prices have no {', '.join(named)}")
        return
    what = f"{what} {option}"
    periods.check_one_of(what, "term", record.term, Term.values)
    periods.check_one_of(what, "payment", record.payment, Payment.values)
    if option == PurchaseOption.RESERVED:
        periods.check_one_of(what, "offering class", record.offering_class, OfferingClass.values)
        if record.plan:
            raise DomainError(f"{what}: a Reserved Instance has no plan")
    else:
        periods.check_one_of(what, "plan", record.plan, Plan.values)
        if record.offering_class:
            raise DomainError(f"{what}: a Savings Plan has no offering class")
    if record.upfront_usd is None or record.hourly_usd is None:
        raise DomainError(f"{what}: a commitment keeps its upfront and hourly parts")
    if record.upfront_usd < 0 or record.hourly_usd < 0:
        raise DomainError(f"{what}: upfront and hourly parts cannot be negative")
    expected = per_dollar.effective_hourly(
        upfront_usd=record.upfront_usd,
        hourly_usd=record.hourly_usd,
        hours=per_dollar.term_hours(record.term),
    ).quantize(periods.PRICE_PLACES)
    if record.usd_per_hour.quantize(periods.PRICE_PLACES) != expected:
        raise DomainError(
            f"{what}: effective hourly {record.usd_per_hour} is not upfront "
            f"{record.upfront_usd} / {per_dollar.term_hours(record.term)} h + hourly "
            f"{record.hourly_usd} ({expected})"
        )


def _instance_types(
    records: list[PriceRecord], regions: dict[str, Region], summary: periods.ImportSummary
) -> dict[str, InstanceType]:
    """EC2 instance types by name; the unknown ones arrive with their prices (kind ec2)."""
    found = periods.instance_types_named(
        {record.instance_type for record in records if record.region in regions},
        kind=InstanceType.Kind.EC2,
        summary=summary,
        wrong_kind="Fargate task sizes are priced by Fargate rates, not prices",
    )
    _note_network_performance(records, found)
    return found


def _note_network_performance(
    records: list[PriceRecord], instance_types: dict[str, InstanceType]
) -> None:
    """The price list's `networkPerformance`, through spec_sources: it fills a type's
    advertised bandwidth where no better source (describe_instance_types) has given it."""
    changed, fields = {}, set()
    for record in records:
        instance_type = instance_types.get(record.instance_type)
        if instance_type is None:
            continue
        # Even with nothing to say, a burstable type gets AWS's documented figures.
        said = {"network_performance": record.network_performance}
        changes = spec_sources.apply_specs(
            instance_type, said if record.network_performance else {}, source=SpecSource.PRICE_LIST
        )
        if changes:
            changed[instance_type.pk] = instance_type
            fields |= changes
    if changed:
        InstanceType.objects.bulk_update(list(changed.values()), sorted(fields), batch_size=500)
        # Advertised bandwidth is in every region's answers, not only in this import's.
        spec_sources.specifications_changed()


# Whose price a period is, within a region: every kind of instance price, any vendor's.
PRICE_KEY = (
    "instance_type_id",
    "purchase_option",
    "availability_zone",
    "os",
    "term",
    "payment",
    "offering_class",
    "plan",
)

PRICES = periods.PeriodTable(
    model=Price,
    record_type=PriceRecord,
    key_fields=PRICE_KEY,
    value_field="usd_per_hour",
    check=_check_price,
    describe="{instance_type} in {region}",
    narrow_by=("instance_type_id", "purchase_option"),
    instance_type_attribute="instance_type",
    instance_types=_instance_types,
    extra_fields=("upfront_usd", "hourly_usd"),
)


@transaction.atomic
def record_prices(*, records: Iterable[PriceRecord]) -> periods.ImportSummary:
    """Store EC2 prices (on-demand, spot per zone, Reserved and Savings Plans by term,
    payment and class or plan) with their history; idempotent.

    Unknown EC2 instance types are created; prices for regions pricebench does not know (a
    region newer than its reference data) are skipped and named in the summary's notes.
    """
    return periods.record_periods(records, PRICES)
