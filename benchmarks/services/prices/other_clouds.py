"""Writes of other clouds' prices: quoted in the vendor's currency, kept as quoted, through the
same dated periods as AWS's (services/prices/periods.py).

A price's period changes when the quoted amount does, not when the exchange rate moves: its
US-dollar figure is the quote at the ECB's reference rate of the day the period starts.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import (
    COMMITMENTS,
    InstanceType,
    Price,
    PurchaseOption,
    Region,
    SpecSource,
    vm_family,
)
from benchmarks.pricing import azure, gcp, hetzner
from benchmarks.pricing.records import QuotedPriceRecord, load_json_file
from benchmarks.services.prices import periods
from benchmarks.services.prices.ec2 import PRICE_KEY
from benchmarks.services.prices.spec_sources import SpecUpdate, record_specs

# How a Google SKU's rate is counted, by its part.
_RATE_UNITS = {"CPU": "vCPU", "RAM": "GiB", "GPU": "GPU"}


def _check(record: QuotedPriceRecord) -> None:
    what = f"{record.instance_type} in {record.region}"
    periods.check_one_of(what, "purchase option", record.purchase_option, PurchaseOption.values)
    periods.check_amount_and_days(what, record, record.quoted_per_hour, word="price")
    if len(record.currency) != 3 or not record.currency.isupper():
        raise DomainError(f"{what}: currency {record.currency!r} is not a three-letter code")
    if record.purchase_option in COMMITMENTS and (
        record.upfront_usd is None or record.hourly_usd is None or not record.term
    ):
        raise DomainError(f"{what}: a commitment keeps its term and upfront and hourly parts")


def _instance_types(
    records: list[QuotedPriceRecord], regions: dict[str, Region], summary: periods.ImportSummary
) -> dict[str, InstanceType]:
    """The vendor's types by name; the unknown ones arrive with their prices (kind vm, with
    what the vendor's documentation says of them; their other specifications from the vendor's
    bundled table when its benchmark data is imported)."""
    names_by_vendor: dict[str, set[str]] = defaultdict(set)
    for record in records:
        if record.region in regions:
            names_by_vendor[record.vendor].add(record.instance_type)
    found: dict[str, InstanceType] = {}
    for vendor, names in sorted(names_by_vendor.items()):
        known = {
            instance_type.name: instance_type
            for instance_type in InstanceType.objects.filter(vendor=vendor, name__in=names)
        }
        missing = sorted(names - known.keys())
        if missing:
            # Through the one writer of specifications: what the vendor's documentation says
            # of a size (Azure's B series' baselines, its GPU sizes' GPUs) comes with it.
            record_specs(
                specs=[SpecUpdate(name, {}) for name in missing],
                source=SpecSource.VENDOR_DOCUMENTATION,
                kind=InstanceType.Kind.VM,
                vendor=vendor,
            )
            known.update(
                (instance_type.name, instance_type)
                for instance_type in InstanceType.objects.filter(vendor=vendor, name__in=missing)
            )
            summary.instance_types_created += len(missing)
        found.update(known)
    return found


QUOTED_PRICES = periods.PeriodTable(
    model=Price,
    record_type=QuotedPriceRecord,
    key_fields=PRICE_KEY,
    # A period is the quote's: an exchange rate that moves starts no new one.
    value_field="quoted_per_hour",
    check=_check,
    describe="{instance_type} in {region}",
    narrow_by=("instance_type_id", "purchase_option"),
    instance_type_attribute="instance_type",
    instance_types=_instance_types,
    extra_fields=("usd_per_hour", "currency", "upfront_usd", "hourly_usd"),
)


def record_quoted_prices(
    records: list[QuotedPriceRecord], *, region_names: Mapping[str, str], read: int, source: str
) -> periods.ImportSummary:
    """Store other clouds' quoted prices through their dated periods (QUOTED_PRICES), the
    regions they name created first when new (named by `region_names`, else by their code);
    the summary says how many entries the source held (`read`) and what it was."""
    codes: dict[str, set[str]] = defaultdict(set)
    for record in records:
        codes[record.vendor].add(record.region)
    for vendor, wanted in sorted(codes.items()):
        known = set(
            Region.objects.filter(vendor=vendor, code__in=wanted).values_list("code", flat=True)
        )
        Region.objects.bulk_create(
            [
                Region(vendor=vendor, code=code, name=region_names.get(code, code))
                for code in sorted(wanted - known)
            ]
        )
    summary = periods.record_periods(records, QUOTED_PRICES)
    summary.read = read
    summary.source = source
    return summary


def import_hetzner_file(*, path: Path, day: datetime.date | None = None) -> periods.ImportSummary:
    """Hetzner Cloud's net hourly prices from a saved `GET /v1/server_types` answer, in force
    from `day` (default today), in every location it names; idempotent."""
    return _record_hetzner(load_json_file(path), what=path.name, day=day)


def import_hetzner_api(
    *, location: str | None = None, day: datetime.date | None = None
) -> periods.ImportSummary:
    """The same from the live API (`HCLOUD_TOKEN`, a project's read token), every page of
    `server_types`, read before the transaction opens; with `location`, its prices only."""
    token = settings.PRICEBENCH_HCLOUD_TOKEN
    if not token:
        raise DomainError("Hetzner Cloud's API needs a token: set HCLOUD_TOKEN")
    answer = hetzner.fetch_server_types(settings.PRICEBENCH_HETZNER_API_URL, token=token)
    fetched = f"fetched {timezone.now():%Y-%m-%d %H:%M} UTC"
    return _record_hetzner(answer, what=fetched, day=day, location=location)


@transaction.atomic
def _record_hetzner(
    answer: object, *, what: str, day: datetime.date | None, location: str | None = None
) -> periods.ImportSummary:
    day = day or timezone.localdate()
    records = [
        record
        for record in hetzner.server_type_prices(
            answer, day=day, source=f"Hetzner Cloud API server_types, {what}"
        )
        if location is None or record.region == location
    ]
    return record_quoted_prices(
        records,
        region_names=hetzner.LOCATIONS,
        read=len(answer["server_types"]),
        source=f"Hetzner Cloud server types ({what}), prices from {day}",
    )


def import_azure_retail_file(*, path: Path) -> periods.ImportSummary:
    """Azure's virtual machine prices from saved Retail Prices API items (a bare list, a page
    or a list of pages; pricing/azure.py says which items are kept), each from its own
    `effectiveStartDate`; idempotent."""
    return _record_azure(azure.load_items(path), what=path.name)


def import_azure_retail_api(*, region: str | None = None) -> periods.ImportSummary:
    """The same from the live API (public: no credentials), every page of one region's
    virtual machines (or of all regions), read before the transaction opens."""
    items = [
        item
        for page in azure.fetch_pages(settings.PRICEBENCH_AZURE_PRICES_URL, region=region)
        for item in page["Items"]
    ]
    fetched = f"fetched {timezone.now():%Y-%m-%d %H:%M} UTC"
    return _record_azure(items, what=f"{region or 'every region'}, {fetched}")


@transaction.atomic
def _record_azure(items: list[dict], *, what: str) -> periods.ImportSummary:
    return record_quoted_prices(
        list(azure.vm_prices(items, source=f"Azure Retail Prices API, {what}")),
        region_names=azure.regions_of(items),
        read=len(items),
        source=f"Azure Retail Prices API items ({what})",
    )


def import_gcp_skus_file(*, path: Path, day: datetime.date | None = None) -> periods.ImportSummary:
    """Google Cloud's machine type prices from saved Cloud Billing Catalog pages of Compute
    Engine SKUs: each type's vCPUs and GiB at its family's core and RAM rates (and its GPUs
    at their SKU's), per region and usage (pricing/gcp.py says which types are left out);
    idempotent. The types come with their specifications from the bundled Spare Cores
    table, loaded first if need be."""
    return _record_gcp(gcp.load_pages(path), what=path.name, day=day)


def import_gcp_skus_api(
    *, region: str | None = None, day: datetime.date | None = None
) -> periods.ImportSummary:
    """The same from the live catalog (an API key: GOOGLE_API_KEY), every page of Compute
    Engine's SKUs, read before the transaction opens; with `region`, its prices only."""
    key = settings.PRICEBENCH_GOOGLE_API_KEY
    if not key:
        raise DomainError("Google's Cloud Billing Catalog needs an API key: set GOOGLE_API_KEY")
    pages = list(gcp.fetch_pages(settings.PRICEBENCH_GCP_SKUS_URL, key=key))
    fetched = f"fetched {timezone.now():%Y-%m-%d %H:%M} UTC"
    return _record_gcp(pages, what=f"{region or 'every region'}, {fetched}", day=day, region=region)


@transaction.atomic
def _record_gcp(
    pages: list[dict], *, what: str, day: datetime.date | None, region: str | None = None
) -> periods.ImportSummary:
    from benchmarks.services.prices.specs import import_bundled_specs

    day = day or timezone.localdate()
    rates, left_out = gcp.part_rates(pages)
    if not InstanceType.objects.filter(vendor=gcp.VENDOR).exists():
        import_bundled_specs(vendor=gcp.VENDOR)
    machines = [
        gcp.Machine(name, vm_family(name), vcpus, memory, gpus or 0)
        for name, vcpus, memory, gpus in InstanceType.objects.filter(
            vendor=gcp.VENDOR, vcpus__isnull=False, memory_gib__isnull=False
        ).values_list("name", "vcpus", "memory_gib", "gpu_count")
    ]
    records = [
        record
        for record in gcp.machine_prices(
            rates, machines, day=day, source=f"Cloud Billing Catalog, {what}"
        )
        if region is None or record.region == region
    ]
    # Google's regions are named by their codes.
    summary = record_quoted_prices(
        records,
        region_names={},
        read=sum(len(page["skus"]) for page in pages),
        source=f"Cloud Billing Catalog SKUs of Compute Engine ({what})",
    )
    summary.notes.extend(
        f"rate: {rate.description}, {rate.usage}: {rate.amount} {rate.currency} per "
        f"{_RATE_UNITS[rate.part]}-hour (${rate.usd.quantize(Decimal('1e-6'))})"
        for rate in rates
    )
    if left_out:
        summary.notes.append(
            f"{len(left_out)} Compute SKUs name no family's core, RAM or GPU rate, left out: "
            + "; ".join(sorted(set(left_out))[:5])
        )
    return summary
