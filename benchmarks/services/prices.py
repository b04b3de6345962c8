"""Writes of AWS prices: EC2 prices, Fargate rates, EBS volume rates and instance
specifications, with history.

Nothing is overwritten. A price is a period, in force from `effective_from` to `effective_to`
(the last day in force; empty while in force):
- a price seen again (the period in force that day has the same price) stores nothing;
- a changed price closes the period in force (its last day becomes the day before) and opens
  a new one, which ends where a later known period begins;
- periods are whole days: a price that differs from one already starting the same day (spot
  prices change several times a day) starts the next day;
- every period keeps its source (API call, offer file version, spot history, snapshot).

Every function that takes outside input checks all of it before writing and raises
`DomainError` (writing nothing) when it is wrong.
"""

from __future__ import annotations

import bisect
import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from django.db import transaction
from django.utils import timezone

from benchmarks import freshness
from benchmarks.errors import DomainError
from benchmarks.models import (
    FargateRate,
    InstanceType,
    Price,
    PriceRefresh,
    PurchaseOption,
    Region,
    VolumePrice,
    is_in_force,
)
from benchmarks.pricing import aws, snapshot
from benchmarks.pricing.instance_types import read_instance_types
from benchmarks.pricing.offer_files import OfferFile, Progress
from benchmarks.pricing.price_list import load_price_list_file, read_price_list
from benchmarks.pricing.products import ECS, INSTANCE_TYPE_NAME
from benchmarks.pricing.records import (
    FargateRateRecord,
    InstanceSpecRecord,
    PriceRecord,
    ReadStats,
    VolumePriceRecord,
    load_json_file,
)
from benchmarks.pricing.spot import read_spot_price_history

ONE_DAY = datetime.timedelta(days=1)
# The models keep eight decimal places; compare prices as they will be stored.
PRICE_PLACES = Decimal("0.00000001")
ARCHITECTURES = ("x86_64", "arm64")
API_SERVICES = ("ec2", "fargate", "ebs", "spot", "specs")


@dataclass
class ImportSummary:
    """What an import read, matched and stored, and what it left as it was."""

    source: str = ""  # what was read, for people
    read: int = 0  # items, rows or products read from the source
    matched: int = 0  # prices, rates or specifications among them
    stored: int = 0  # new price or rate periods
    unchanged: int = 0  # already known as they are
    closed: int = 0  # periods in force until a changed price replaced them
    skipped: int = 0  # for a region pricebench does not know, or a second change in a day
    instance_types_created: int = 0
    specs_updated: int = 0
    notes: list[str] = field(default_factory=list)

    def __add__(self, other: ImportSummary) -> ImportSummary:
        return ImportSummary(
            source=self.source or other.source,
            read=self.read + other.read,
            matched=self.matched + other.matched,
            stored=self.stored + other.stored,
            unchanged=self.unchanged + other.unchanged,
            closed=self.closed + other.closed,
            skipped=self.skipped + other.skipped,
            instance_types_created=self.instance_types_created + other.instance_types_created,
            specs_updated=self.specs_updated + other.specs_updated,
            notes=self.notes + other.notes,
        )

    def __str__(self) -> str:
        text = (
            f"read {self.read:,}, matched {self.matched:,}, stored {self.stored:,}, "
            f"unchanged {self.unchanged:,}"
        )
        extras = [
            (self.closed, "periods closed"),
            (self.skipped, "skipped"),
            (self.instance_types_created, "instance types created"),
            (self.specs_updated, "specifications updated"),
        ]
        extra = ", ".join(f"{count:,} {label}" for count, label in extras if count)
        return f"{text} ({extra})" if extra else text


# ---- history ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Observation:
    key: tuple
    value: Decimal
    effective_from: datetime.date
    effective_to: datetime.date | None
    source: str
    observed_at: datetime.datetime | None = None


class _History:
    """The periods of some keys (one region's prices, or its Fargate rates) and their changes."""

    def __init__(
        self,
        *,
        existing: Iterable,
        key_of: Callable[[object], tuple],
        value_field: str,
        make: Callable[[_Observation, datetime.date, datetime.date | None], object],
    ):
        self.periods: dict[tuple, list] = defaultdict(list)
        for period in existing:
            self.periods[key_of(period)].append(period)
        for periods in self.periods.values():
            periods.sort(key=lambda period: period.effective_from)
        self.value_field = value_field
        self.make = make
        self.created: list = []
        self.closed: dict[int, object] = {}

    def place(self, observation: _Observation, summary: ImportSummary) -> None:
        """Fit one observed price into its key's periods."""
        periods = self.periods[observation.key]
        start = observation.effective_from
        current = _in_force(periods, start)
        if current is not None and self._value(current) == observation.value:
            summary.unchanged += 1
            return
        if current is not None and current.effective_from == start:
            # A different price already starts that day (a spot price set again the same day,
            # or two sources that disagree). Periods are whole days and are never rewritten,
            # so the newer word takes effect the next day.
            start += ONE_DAY
            current = _in_force(periods, start)
            if current is not None and self._value(current) == observation.value:
                summary.unchanged += 1
                return
            ends_before = observation.effective_to is not None and observation.effective_to < start
            if ends_before or (current is not None and current.effective_from == start):
                summary.skipped += 1
                return
        end = observation.effective_to
        # A later period already known bounds the new one: what came after stays as it was.
        following = next((period for period in periods if period.effective_from > start), None)
        if following is not None:
            last_day = following.effective_from - ONE_DAY
            end = last_day if end is None else min(end, last_day)
        if current is not None:
            current.effective_to = start - ONE_DAY
            if current.pk is not None:
                self.closed[current.pk] = current
            summary.closed += 1
        period = self.make(observation, start, end)
        starts = [existing.effective_from for existing in periods]
        periods.insert(bisect.bisect(starts, start), period)
        self.created.append(period)
        summary.stored += 1

    def save(self, model) -> None:
        model.objects.bulk_update(list(self.closed.values()), ["effective_to"], batch_size=500)
        model.objects.bulk_create(self.created, batch_size=500)

    def _value(self, period) -> Decimal:
        return Decimal(getattr(period, self.value_field)).quantize(PRICE_PLACES)


def _in_force(periods: list, day: datetime.date):
    return next((period for period in periods if is_in_force(period, day)), None)


def _place_all(history: _History, observations: list[_Observation], summary) -> None:
    for observation in sorted(observations, key=lambda seen: (seen.key, seen.effective_from)):
        history.place(observation, summary)


def _one_per_day(observations: Iterable[_Observation], summary: ImportSummary, what: Callable):
    """One observation per key and day: the latest one when they say when they were made."""
    kept: dict[tuple, _Observation] = {}
    for observation in observations:
        day_key = (observation.key, observation.effective_from)
        earlier = kept.get(day_key)
        if earlier is None:
            kept[day_key] = observation
            continue
        if earlier.observed_at is not None and observation.observed_at is not None:
            if observation.observed_at > earlier.observed_at:
                kept[day_key] = observation
            summary.unchanged += 1
        elif earlier.value == observation.value:
            summary.unchanged += 1
        else:
            raise DomainError(
                f"{what(observation)}: two prices from {observation.effective_from} in one "
                f"import ({earlier.value} and {observation.value})"
            )
    return list(kept.values())


def _regions(codes: set[str], summary: ImportSummary) -> dict[str, Region]:
    """The regions named, locked so that two imports into one region take turns."""
    regions = {
        region.code: region
        for region in Region.objects.select_for_update().filter(code__in=sorted(codes))
    }
    unknown = sorted(codes - regions.keys())
    if unknown:
        summary.notes.append(f"regions pricebench does not know, skipped: {', '.join(unknown)}")
    return regions


def _write_periods(
    *,
    model,
    records: list,
    regions: dict[str, Region],
    summary: ImportSummary,
    observe: Callable[[object], _Observation],
    existing: Callable[[Region, list[_Observation]], Iterable],
    key_of: Callable[[object], tuple],
    value_field: str,
    make: Callable[[Region, _Observation, datetime.date, datetime.date | None], object],
    describe: Callable[[str, _Observation], str],
) -> None:
    """Fit checked records into their keys' periods, region by region, and save the changes.

    Records of regions missing from `regions` are skipped; `observe` turns a record into its
    key and value, `existing` gives a region's periods that the observations may touch.
    """
    by_region: dict[str, list[_Observation]] = defaultdict(list)
    for record in records:
        if record.region not in regions:
            summary.skipped += 1
            continue
        by_region[record.region].append(observe(record))
    for code, observations in sorted(by_region.items()):
        region = regions[code]
        observations = _one_per_day(
            observations, summary, lambda seen, code=code: describe(code, seen)
        )
        history = _History(
            existing=existing(region, observations),
            key_of=key_of,
            value_field=value_field,
            make=lambda seen, start, end, region=region: make(region, seen, start, end),
        )
        _place_all(history, observations, summary)
        history.save(model)
    # Answers priced in these regions are stale from now on (their ETag and Last-Modified).
    Region.objects.filter(code__in=by_region).update(prices_updated_at=timezone.now())
    freshness.data_changed()


# ---- EC2 prices ------------------------------------------------------------------------


def _check_price(record: PriceRecord) -> None:
    what = f"{record.instance_type or '?'} in {record.region or '?'}"
    if not INSTANCE_TYPE_NAME.match(record.instance_type or ""):
        raise DomainError(f"{what}: {record.instance_type!r} is not an EC2 instance type name")
    if record.purchase_option not in PurchaseOption.values:
        raise DomainError(
            f"{what}: purchase option {record.purchase_option!r} is not one of "
            + ", ".join(PurchaseOption.values)
        )
    if (record.purchase_option == PurchaseOption.SPOT) != bool(record.availability_zone):
        raise DomainError(f"{what}: spot prices, and only they, name an availability zone")
    if record.usd_per_hour <= 0:
        raise DomainError(f"{what}: price {record.usd_per_hour} is not above zero")
    if record.effective_to is not None and record.effective_to < record.effective_from:
        raise DomainError(f"{what}: effective_to {record.effective_to} is before effective_from")


def _instance_types(names: set[str], summary: ImportSummary) -> dict[str, InstanceType]:
    """EC2 instance types by name; the unknown ones arrive with their prices (kind ec2)."""
    found = {it.name: it for it in InstanceType.objects.filter(name__in=sorted(names))}
    fargate = sorted(name for name, it in found.items() if it.kind != InstanceType.Kind.EC2)
    if fargate:
        raise DomainError(
            f"{', '.join(fargate)}: Fargate task sizes are priced by Fargate rates, not prices"
        )
    missing = sorted(names - found.keys())
    if missing:
        InstanceType.objects.bulk_create(
            [InstanceType(name=name, kind=InstanceType.Kind.EC2) for name in missing],
            batch_size=500,
        )
        found.update((it.name, it) for it in InstanceType.objects.filter(name__in=missing))
        summary.instance_types_created += len(missing)
    return found


@transaction.atomic
def record_prices(*, records: Iterable[PriceRecord]) -> ImportSummary:
    """Store EC2 prices (on-demand, spot per zone) with their history; idempotent.

    Unknown EC2 instance types are created; prices for regions pricebench does not know (a
    region newer than its reference data) are skipped and named in the summary's notes.
    """
    summary = ImportSummary()
    records = list(records)
    summary.matched = len(records)
    for record in records:
        _check_price(record)
    regions = _regions({record.region for record in records}, summary)
    instance_types = _instance_types(
        {record.instance_type for record in records if record.region in regions}, summary
    )
    names = {it.pk: it.name for it in instance_types.values()}
    _write_periods(
        model=Price,
        records=records,
        regions=regions,
        summary=summary,
        observe=lambda record: _Observation(
            key=(
                instance_types[record.instance_type].pk,
                record.purchase_option,
                record.availability_zone,
            ),
            value=record.usd_per_hour.quantize(PRICE_PLACES),
            effective_from=record.effective_from,
            effective_to=record.effective_to,
            source=record.source,
            observed_at=record.observed_at,
        ),
        existing=lambda region, observations: Price.objects.filter(
            region=region,
            instance_type_id__in={seen.key[0] for seen in observations},
            purchase_option__in={seen.key[1] for seen in observations},
        ),
        key_of=lambda price: (
            price.instance_type_id,
            price.purchase_option,
            price.availability_zone,
        ),
        value_field="usd_per_hour",
        make=lambda region, seen, start, end: Price(
            instance_type_id=seen.key[0],
            region=region,
            purchase_option=seen.key[1],
            availability_zone=seen.key[2],
            usd_per_hour=seen.value,
            effective_from=start,
            effective_to=end,
            source=seen.source,
        ),
        describe=lambda code, seen: f"{names[seen.key[0]]} in {code}",
    )
    return summary


# ---- Fargate rates ---------------------------------------------------------------------


def _check_rate(record: FargateRateRecord) -> None:
    what = f"Fargate {record.component or '?'} rate in {record.region or '?'}"
    architectures = ("any",) if record.component == "ephemeral_storage_gb" else ARCHITECTURES
    if record.component not in FargateRate.Component.values:
        raise DomainError(
            f"{what}: component {record.component!r} is not one of "
            + ", ".join(FargateRate.Component.values)
        )
    if record.architecture not in architectures:
        raise DomainError(
            f"{what}: architecture {record.architecture!r} is not one of {', '.join(architectures)}"
        )
    if not record.operating_system:
        raise DomainError(f"{what}: no operating system")
    if record.usd_per_unit_hour <= 0:
        raise DomainError(f"{what}: rate {record.usd_per_unit_hour} is not above zero")
    if record.effective_to is not None and record.effective_to < record.effective_from:
        raise DomainError(f"{what}: effective_to {record.effective_to} is before effective_from")


@transaction.atomic
def record_fargate_rates(*, records: Iterable[FargateRateRecord]) -> ImportSummary:
    """Store Fargate rates per vCPU-hour, GB-hour and storage GB-hour with their history."""
    summary = ImportSummary()
    records = list(records)
    summary.matched = len(records)
    for record in records:
        _check_rate(record)
    _write_periods(
        model=FargateRate,
        records=records,
        regions=_regions({record.region for record in records}, summary),
        summary=summary,
        observe=lambda record: _Observation(
            key=(record.architecture, record.operating_system, record.component),
            value=record.usd_per_unit_hour.quantize(PRICE_PLACES),
            effective_from=record.effective_from,
            effective_to=record.effective_to,
            source=record.source,
        ),
        existing=lambda region, observations: FargateRate.objects.filter(region=region),
        key_of=lambda rate: (rate.architecture, rate.operating_system, rate.component),
        value_field="usd_per_unit_hour",
        make=lambda region, seen, start, end: FargateRate(
            region=region,
            architecture=seen.key[0],
            operating_system=seen.key[1],
            component=seen.key[2],
            usd_per_unit_hour=seen.value,
            effective_from=start,
            effective_to=end,
            source=seen.source,
        ),
        describe=lambda code, seen: f"Fargate {' '.join(seen.key)} rate in {code}",
    )
    return summary


# ---- EBS volume rates ------------------------------------------------------------------


def _check_volume_price(record: VolumePriceRecord) -> None:
    what = f"{record.volume_type or '?'} {record.component or '?'} rate in {record.region or '?'}"
    if record.volume_type not in VolumePrice.VolumeType.values:
        raise DomainError(
            f"{what}: volume type {record.volume_type!r} is not one of "
            + ", ".join(VolumePrice.VolumeType.values)
        )
    if record.component not in VolumePrice.Component.values:
        raise DomainError(
            f"{what}: component {record.component!r} is not one of "
            + ", ".join(VolumePrice.Component.values)
        )
    if record.tier not in (1, 2, 3) or (record.tier != 1 and record.volume_type != "io2"):
        raise DomainError(f"{what}: tier {record.tier} (only io2 IOPS have tiers 2 and 3)")
    if record.usd_per_unit_month <= 0:
        raise DomainError(f"{what}: rate {record.usd_per_unit_month} is not above zero")
    if record.effective_to is not None and record.effective_to < record.effective_from:
        raise DomainError(f"{what}: effective_to {record.effective_to} is before effective_from")


@transaction.atomic
def record_volume_prices(*, records: Iterable[VolumePriceRecord]) -> ImportSummary:
    """Store EBS volume rates (per GB-month, IOPS-month, MiB/s-month) with their history."""
    summary = ImportSummary()
    records = list(records)
    summary.matched = len(records)
    for record in records:
        _check_volume_price(record)
    _write_periods(
        model=VolumePrice,
        records=records,
        regions=_regions({record.region for record in records}, summary),
        summary=summary,
        observe=lambda record: _Observation(
            key=(record.volume_type, record.component, record.tier),
            value=record.usd_per_unit_month.quantize(PRICE_PLACES),
            effective_from=record.effective_from,
            effective_to=record.effective_to,
            source=record.source,
        ),
        existing=lambda region, observations: VolumePrice.objects.filter(region=region),
        key_of=lambda rate: (rate.volume_type, rate.component, rate.tier),
        value_field="usd_per_unit_month",
        make=lambda region, seen, start, end: VolumePrice(
            region=region,
            volume_type=seen.key[0],
            component=seen.key[1],
            tier=seen.key[2],
            usd_per_unit_month=seen.value,
            effective_from=start,
            effective_to=end,
            source=seen.source,
        ),
        describe=lambda code, seen: (
            f"{seen.key[0]} {seen.key[1]} tier {seen.key[2]} rate in {code}"
        ),
    )
    return summary


# ---- instance specifications -----------------------------------------------------------


def _check_spec(spec: InstanceSpecRecord) -> None:
    if not INSTANCE_TYPE_NAME.match(spec.name or ""):
        raise DomainError(f"{spec.name!r} is not an EC2 instance type name")
    if spec.vcpus <= 0 or spec.memory_gib <= 0:
        raise DomainError(f"{spec.name}: vCPUs and memory must be above zero")
    if spec.architecture not in (*ARCHITECTURES, ""):
        raise DomainError(f"{spec.name}: architecture {spec.architecture!r} is not x86_64 or arm64")
    if spec.baseline_share is not None and not 0 < spec.baseline_share <= 1:
        raise DomainError(f"{spec.name}: baseline share {spec.baseline_share} is not in (0, 1]")


def _spec_changes(instance_type: InstanceType, spec: InstanceSpecRecord) -> dict:
    """The fields a specification changes; what it does not know is kept."""
    wanted = {
        "vcpus": Decimal(spec.vcpus),
        "memory_gib": Decimal(spec.memory_gib),
        "burstable": spec.burstable,
    }
    if spec.architecture:
        wanted["architecture"] = spec.architecture
    if spec.physical_cores is not None:
        wanted["physical_cores"] = spec.physical_cores
    if spec.threads_per_core is not None:
        wanted["threads_per_core"] = spec.threads_per_core
    if spec.baseline_share is not None:
        wanted["baseline_share"] = spec.baseline_share
    # The API names the maker ("Intel"): it never replaces a fuller name ("Intel Xeon ...").
    if spec.cpu_family and not instance_type.cpu_family.startswith(spec.cpu_family):
        wanted["cpu_family"] = spec.cpu_family
    changes = {
        name: value for name, value in wanted.items() if getattr(instance_type, name) != value
    }
    if changes and spec.source:
        changes["source"] = spec.source
    return changes


@transaction.atomic
def update_instance_specs(*, specs: Iterable[InstanceSpecRecord]) -> ImportSummary:
    """Create or update EC2 instance types from their specifications (not history: facts)."""
    summary = ImportSummary()
    by_name: dict[str, InstanceSpecRecord] = {}
    for spec in specs:
        _check_spec(spec)
        by_name[spec.name] = spec
    summary.matched = len(by_name)
    existing = {
        it.name: it for it in InstanceType.objects.select_for_update().filter(name__in=by_name)
    }
    fargate = sorted(name for name, it in existing.items() if it.kind != InstanceType.Kind.EC2)
    if fargate:
        raise DomainError(f"{', '.join(fargate)}: Fargate task sizes have no EC2 specifications")
    created, updated = [], []
    for name, spec in sorted(by_name.items()):
        instance_type = existing.get(name) or InstanceType(name=name, kind=InstanceType.Kind.EC2)
        changes = _spec_changes(instance_type, spec)
        if instance_type.pk is None:
            for attribute, value in changes.items():
                setattr(instance_type, attribute, value)
            created.append(instance_type)
        elif changes:
            for attribute, value in changes.items():
                setattr(instance_type, attribute, value)
            updated.append((instance_type, list(changes)))
        else:
            summary.unchanged += 1
    InstanceType.objects.bulk_create(created, batch_size=500)
    for instance_type, fields in updated:
        instance_type.save(update_fields=fields)
    if created or updated:
        # Specifications (vCPUs, burst baselines) enter every region's answers.
        Region.objects.update(prices_updated_at=timezone.now())
        freshness.data_changed()
    summary.instance_types_created = len(created)
    summary.specs_updated = len(updated)
    return summary


# ---- sources ---------------------------------------------------------------------------


def _record_any(
    records: Iterable[PriceRecord | FargateRateRecord | VolumePriceRecord],
) -> ImportSummary:
    """Read every record first (a file may take minutes), then write them in one transaction."""
    prices, rates, volume_prices = [], [], []
    for record in records:
        if isinstance(record, FargateRateRecord):
            rates.append(record)
        elif isinstance(record, VolumePriceRecord):
            volume_prices.append(record)
        else:
            prices.append(record)
    return _write_all(prices, rates, volume_prices)


@transaction.atomic
def _write_all(prices: list, rates: list, volume_prices: list) -> ImportSummary:
    summary = ImportSummary()
    if prices:
        summary += record_prices(records=prices)
    if rates:
        summary += record_fargate_rates(records=rates)
    if volume_prices:
        summary += record_volume_prices(records=volume_prices)
    return summary


def _with_stats(summary: ImportSummary, stats: ReadStats, source: str) -> ImportSummary:
    summary.read, summary.matched, summary.source = stats.read, stats.matched, source
    return summary


@transaction.atomic
def import_snapshot(*, directory: Path = snapshot.DEMO_DIR) -> ImportSummary:
    """Load the bundled snapshot (instance types, prices, Fargate rates, EBS volume rates);
    loading again stores nothing."""
    summary = update_instance_specs(
        specs=snapshot.read_instance_types(directory / "instance_types.csv")
    )
    summary += record_prices(records=snapshot.read_prices(directory / "prices.csv"))
    summary += record_fargate_rates(
        records=snapshot.read_fargate_rates(directory / "fargate_rates.csv")
    )
    summary += record_volume_prices(
        records=snapshot.read_volume_prices(directory / "volume_prices.csv")
    )
    summary.read = summary.matched
    summary.source = f"the bundled snapshot ({directory})"
    return summary


@transaction.atomic
def import_offer_file(*, path: Path, progress: Progress | None = None) -> ImportSummary:
    """An AWS bulk offer file (EC2 with its EBS volume rates, or ECS; JSON or CSV, any size),
    streamed."""
    offer = OfferFile(path, progress=progress)
    summary = _record_any(offer.records())
    return _with_stats(summary, offer.stats, offer.info.source)


@transaction.atomic
def import_price_list(*, pages: Iterable[dict], source: str) -> ImportSummary:
    """get_products pages (AmazonEC2 or AmazonECS items, told apart by their service; EBS
    volume rates among the AmazonEC2 items, told apart by their product family)."""
    stats = ReadStats()
    summary = _record_any(read_price_list(pages, source=source, stats=stats))
    unknown = stats.services - {aws.EC2, ECS}
    if unknown and not stats.services & {aws.EC2, ECS}:
        raise DomainError(
            f"items of {', '.join(sorted(unknown))}: pricebench reads {aws.EC2} (instance "
            f"prices) and {ECS} (Fargate rates)"
        )
    services = " and ".join(sorted(stats.services)) or "no"
    return _with_stats(summary, stats, f"{services} items, {source}")


def import_price_list_file(*, path: Path) -> ImportSummary:
    """A saved get_products response, or a JSON list of them."""
    pages = load_price_list_file(path)
    return import_price_list(
        pages=pages, source=f"AWS Price List API response saved in {path.name}"
    )


@transaction.atomic
def import_spot_history(
    *, pages: Iterable[dict], source: str, region: str | None = None
) -> ImportSummary:
    """describe_spot_price_history pages: Linux/UNIX spot prices per availability zone."""
    stats = ReadStats()
    summary = record_prices(
        records=read_spot_price_history(pages, source=source, region=region, stats=stats)
    )
    return _with_stats(summary, stats, source)


def import_spot_history_file(*, path: Path, region: str | None = None) -> ImportSummary:
    """A saved describe_spot_price_history response, or a JSON list of them."""
    return import_spot_history(
        pages=_load_pages(path),
        source=f"EC2 spot price history saved in {path.name}",
        region=region,
    )


@transaction.atomic
def import_instance_types(*, pages: Iterable[dict], source: str) -> ImportSummary:
    """describe_instance_types pages: vCPUs, cores, memory, architecture, burstable."""
    stats = ReadStats()
    summary = update_instance_specs(specs=read_instance_types(pages, source=source, stats=stats))
    return _with_stats(summary, stats, source)


def import_instance_types_file(*, path: Path) -> ImportSummary:
    """A saved describe_instance_types response, or a JSON list of them."""
    return import_instance_types(
        pages=_load_pages(path), source=f"EC2 describe_instance_types response saved in {path.name}"
    )


def _load_pages(path: Path) -> list[dict]:
    data = load_json_file(path)
    pages = data if isinstance(data, list) else [data]
    if not all(isinstance(page, dict) for page in pages):
        raise DomainError(f"{path}: not an AWS response or a list of them")
    return pages


# ---- live AWS --------------------------------------------------------------------------


def _known_region(region: str) -> None:
    if not Region.objects.filter(code=region).exists():
        raise DomainError(f"{region!r} is not an AWS region pricebench knows", field="region")


def _price_list_pages(*, service: str, region: str, session=None) -> tuple[list[dict], str]:
    """The Price List API's pages for one region's "ec2", "fargate" or "ebs" prices, and
    the source they are stored under."""
    endpoint = aws.pricing_endpoint_for(region)
    client = aws.pricing_client(region, session=session)
    if service == "ec2":
        queries = [(aws.EC2, aws.ec2_on_demand_filters(region))]
    elif service == "fargate":
        queries = [(ECS, aws.fargate_filters(region))]
    else:
        queries = [(aws.EC2, filters) for filters in aws.ebs_filters(region)]
    pages = [
        page
        for service_code, filters in queries
        for page in aws.collect(
            aws.fetch_price_list(client, service_code=service_code, filters=filters)
        )
    ]
    return pages, f"AWS Price List API, get_products on {endpoint}, fetched {timezone.now().date()}"


def import_from_api(*, service: str, region: str, session=None) -> ImportSummary:
    """Fetch one kind of price for one region from AWS, then store it in one transaction.

    `service`: "ec2" (on-demand prices), "fargate" (rates), "ebs" (EBS volume rates), "spot"
    (prices in force now, per zone) or "specs" (describe_instance_types). AWS is asked before
    the transaction opens.
    """
    if service not in API_SERVICES:
        raise DomainError(f"service {service!r} is not one of {', '.join(API_SERVICES)}")
    _known_region(region)
    if service in ("ec2", "fargate", "ebs"):
        pages, source = _price_list_pages(service=service, region=region, session=session)
        return import_price_list(pages=pages, source=source)
    client = aws.ec2_client(region, session=session)
    if service == "spot":
        now = timezone.now()
        pages = aws.collect(aws.fetch_spot_price_history(client, at=now))
        source = f"EC2 describe_spot_price_history in {region}, fetched {now:%Y-%m-%d %H:%M} UTC"
        return import_spot_history(pages=pages, source=source, region=region)
    pages = aws.collect(aws.fetch_instance_types(client))
    source = f"EC2 describe_instance_types in {region}, fetched {timezone.now().date()}"
    return import_instance_types(pages=pages, source=source)


def refresh_region(*, kind: str, region: str, session=None) -> ImportSummary:
    """One scheduled refresh of a region (`PriceRefresh.Kind`): the same paths as
    `import_prices --api`; on-demand EC2 prices and Fargate rates land in one transaction."""
    if kind == PriceRefresh.Kind.ON_DEMAND:
        _known_region(region)
        ec2_pages, source = _price_list_pages(service="ec2", region=region, session=session)
        ecs_pages, _ = _price_list_pages(service="fargate", region=region, session=session)
        return import_price_list(pages=ec2_pages + ecs_pages, source=source)
    if kind == PriceRefresh.Kind.SPOT:
        return import_from_api(service="spot", region=region, session=session)
    if kind == PriceRefresh.Kind.SPECS:
        return import_from_api(service="specs", region=region, session=session)
    raise DomainError(f"kind {kind!r} is not one of {', '.join(PriceRefresh.Kind.values)}")


def run_refresh(*, kind: str, region: str, attempt: int = 1, session=None) -> PriceRefresh:
    """Refresh a region and record the outcome as a PriceRefresh, failed ones included.

    Not atomic on purpose: the record of a failed refresh must outlive the rolled-back
    refresh it describes. The error is raised again for the caller (a task) to retry.
    """
    refresh = PriceRefresh.objects.create(kind=kind, region=region, attempt=attempt)
    try:
        summary = refresh_region(kind=kind, region=region, session=session)
    except Exception as error:
        refresh.status = PriceRefresh.Status.FAILED
        refresh.error = f"{type(error).__name__}: {error}"
        refresh.finished_at = timezone.now()
        refresh.save(update_fields=["status", "error", "finished_at"])
        raise
    refresh.status = PriceRefresh.Status.OK
    refresh.read, refresh.matched = summary.read, summary.matched
    refresh.stored, refresh.unchanged, refresh.skipped = (
        summary.stored,
        summary.unchanged,
        summary.skipped,
    )
    refresh.error = "; ".join(summary.notes)
    refresh.finished_at = timezone.now()
    refresh.save()
    return refresh
