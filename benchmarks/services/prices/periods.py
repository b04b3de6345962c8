"""The one way every kind of price is written: dated periods, with history.

A kind of price is a `PeriodTable` (its model, its key, its check); `record_periods` writes
records of one or more tables in the same steps: check them all, lock their regions, find or
create the instance types they name, keep one price per key and day, fit each into its key's
periods (the rules are in the package's docstring) and save the changes.
"""

from __future__ import annotations

import bisect
import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import models
from django.utils import timezone

from benchmarks import freshness
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Region, is_in_force

ONE_DAY = datetime.timedelta(days=1)
# The models keep eight decimal places; compare prices as they will be stored.
PRICE_PLACES = Decimal("0.00000001")


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

    def as_specifications(self) -> str:
        """A specifications import for people: what it created and updated (`__str__` counts
        price periods, which it stores none of: "stored 0 ... (34 instance types created)")."""
        return (
            f"read {self.read:,}: {self.instance_types_created:,} instance types created, "
            f"{self.specs_updated:,} updated, {self.unchanged:,} unchanged"
        )


# ---- checks the kinds share ------------------------------------------------------------


def check_one_of(what: str, label: str, value: object, choices: Iterable[str]) -> None:
    """DomainError unless `value` is one of `choices`."""
    choices = tuple(choices)
    if value not in choices:
        raise DomainError(f"{what}: {label} {value!r} is not one of {', '.join(choices)}")


def check_amount_and_days(what: str, record: Any, amount: Decimal, *, word: str = "rate") -> None:
    """DomainError unless the amount is above zero and the last day is not before the first."""
    if amount <= 0:
        raise DomainError(f"{what}: {word} {amount} is not above zero")
    effective_to = getattr(record, "effective_to", None)
    if effective_to is not None and effective_to < record.effective_from:
        raise DomainError(f"{what}: effective_to {effective_to} is before effective_from")


def instance_types_named(
    names: set[str], *, kind: str, summary: ImportSummary, wrong_kind: str
) -> dict[str, InstanceType]:
    """The instance types of one kind by name, the unknown ones created; DomainError, saying
    `wrong_kind` after the names, when some are known as another kind."""
    found = {known.name: known for known in InstanceType.objects.filter(name__in=sorted(names))}
    other = sorted(name for name, known in found.items() if known.kind != kind)
    if other:
        raise DomainError(f"{', '.join(other)}: {wrong_kind}")
    missing = sorted(names - found.keys())
    if missing:
        InstanceType.objects.bulk_create(
            [InstanceType(name=name, kind=kind) for name in missing], batch_size=500
        )
        found.update((new.name, new) for new in InstanceType.objects.filter(name__in=missing))
        summary.instance_types_created += len(missing)
    return found


# ---- one kind of price -----------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """One price seen for one key from one day (and, when the source says, to a last day)."""

    key: tuple
    value: Decimal
    effective_from: datetime.date
    effective_to: datetime.date | None
    source: str
    observed_at: datetime.datetime | None = None
    # The values of the table's `extra_fields` (a commitment's upfront and hourly parts).
    extras: tuple = ()


# Finds (or creates) the instance types that a table's records in known regions name.
InstanceTypesOf = Callable[[list, dict[str, Region], ImportSummary], dict[str, InstanceType]]


@dataclass(frozen=True)
class PeriodTable:
    """A kind of price: the model of its periods and how one of its records becomes one."""

    model: type[models.Model]
    record_type: type
    # The model's fields that, within a region, name whose price a period is; the record has
    # attributes of the same names, but for `instance_type_id` (see instance_type_attribute).
    key_fields: tuple[str, ...]
    value_field: str  # the price, named alike in the record and the model
    check: Callable[[Any], None]  # DomainError when a record is wrong
    describe: str  # a key for errors: format fields are the key's, `instance_type` and `region`
    narrow_by: tuple[str, ...] = ()  # key fields by which a region's periods are worth filtering
    instance_type_attribute: str = ""  # the record's attribute naming its instance type
    instance_types: InstanceTypesOf | None = None
    # Fields stored with a new period as the record gives them, not part of its key or its
    # price (a commitment's upfront and hourly parts of its effective hourly price).
    extra_fields: tuple[str, ...] = ()

    def observe(self, record: Any, instance_types: dict[str, InstanceType]) -> Observation:
        """The record as a key and a price."""
        key = tuple(
            instance_types[getattr(record, self.instance_type_attribute)].pk
            if name == "instance_type_id"
            else getattr(record, name)
            for name in self.key_fields
        )
        return Observation(
            key=key,
            value=getattr(record, self.value_field).quantize(PRICE_PLACES),
            effective_from=record.effective_from,
            effective_to=getattr(record, "effective_to", None),
            source=record.source,
            observed_at=getattr(record, "observed_at", None),
            extras=tuple(getattr(record, name) for name in self.extra_fields),
        )

    def key_of(self, period: models.Model) -> tuple:
        """A stored period's key."""
        return tuple(getattr(period, name) for name in self.key_fields)

    def periods_near(self, region: Region, observations: list[Observation]) -> models.QuerySet:
        """A region's periods that the observations may touch."""
        narrowing = {
            f"{name}__in": {seen.key[self.key_fields.index(name)] for seen in observations}
            for name in self.narrow_by
        }
        return self.model.objects.filter(region=region, **narrowing)

    def make(
        self,
        region: Region,
        seen: Observation,
        start: datetime.date,
        end: datetime.date | None,
    ) -> models.Model:
        """A new period (unsaved) of an observed price."""
        return self.model(
            region=region,
            **dict(zip(self.key_fields, seen.key, strict=True)),
            **{self.value_field: seen.value},
            **dict(zip(self.extra_fields, seen.extras, strict=True)),
            effective_from=start,
            effective_to=end,
            source=seen.source,
        )

    def name_key(self, key: tuple, region: str, names: dict[int, str]) -> str:
        """A key in words, for errors."""
        fields = dict(zip(self.key_fields, key, strict=True))
        if "instance_type_id" in fields:
            fields["instance_type"] = names[fields["instance_type_id"]]
        return self.describe.format(region=region, **fields)


def record_periods(records: Iterable, *tables: PeriodTable) -> ImportSummary:
    """Check records of the tables, then fit them into their periods; idempotent.

    Regions pricebench does not know are skipped and named in the summary's notes. The caller
    holds the transaction.
    """
    summary = ImportSummary()
    records = list(records)
    summary.matched = len(records)
    table_of = {table.record_type: table for table in tables}
    by_table: dict[PeriodTable, list] = {table: [] for table in tables}
    for record in records:
        table = table_of.get(type(record))
        if table is None:
            raise DomainError(f"{type(record).__name__} is not a price record stored here")
        by_table[table].append(record)
    for table, rows in by_table.items():
        for record in rows:
            table.check(record)
    regions = _regions({record.region for record in records}, summary)
    written: set[str] = set()
    for table, rows in by_table.items():
        if rows:
            written |= _write_table(table, rows, regions, summary)
    # Answers priced in these regions are stale from now on (their ETag and Last-Modified).
    Region.objects.filter(code__in=written).update(prices_updated_at=timezone.now())
    freshness.data_changed()
    return summary


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


def _write_table(
    table: PeriodTable, records: list, regions: dict[str, Region], summary: ImportSummary
) -> set[str]:
    """Fit checked records into their keys' periods, region by region; the regions written."""
    instance_types = table.instance_types(records, regions, summary) if table.instance_types else {}
    names = {instance_type.pk: instance_type.name for instance_type in instance_types.values()}
    by_region: dict[str, list[Observation]] = defaultdict(list)
    for record in records:
        if record.region not in regions:
            summary.skipped += 1
            continue
        by_region[record.region].append(table.observe(record, instance_types))
    for code, observations in sorted(by_region.items()):
        region = regions[code]
        history = _History(table, region, table.periods_near(region, observations))
        for observation in sorted(
            _one_per_day(
                observations, summary, lambda key, code=code: table.name_key(key, code, names)
            ),
            key=lambda seen: (seen.key, seen.effective_from),
        ):
            history.place(observation, summary)
        history.save()
    return set(by_region)


def _one_per_day(
    observations: Iterable[Observation], summary: ImportSummary, name_key: Callable[[tuple], str]
) -> list[Observation]:
    """One observation per key and day: the latest one when they say when they were made."""
    kept: dict[tuple, Observation] = {}
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
                f"{name_key(observation.key)}: two prices from {observation.effective_from} in "
                f"one import ({earlier.value} and {observation.value})"
            )
    return list(kept.values())


class _History:
    """One region's periods of one table, by key, and the changes made to them."""

    def __init__(self, table: PeriodTable, region: Region, existing: Iterable):
        self.table = table
        self.region = region
        self.periods: dict[tuple, list] = defaultdict(list)
        for period in existing:
            self.periods[table.key_of(period)].append(period)
        for periods in self.periods.values():
            periods.sort(key=lambda period: period.effective_from)
        self.created: list = []
        self.closed: dict[int, object] = {}

    def place(self, observation: Observation, summary: ImportSummary) -> None:
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
        period = self.table.make(self.region, observation, start, end)
        starts = [existing.effective_from for existing in periods]
        periods.insert(bisect.bisect(starts, start), period)
        self.created.append(period)
        summary.stored += 1

    def save(self) -> None:
        """Close the periods a changed price replaced and store the new ones."""
        manager = self.table.model.objects
        manager.bulk_update(list(self.closed.values()), ["effective_to"], batch_size=500)
        manager.bulk_create(self.created, batch_size=500)

    def _value(self, period) -> Decimal:
        return Decimal(getattr(period, self.table.value_field)).quantize(PRICE_PLACES)


def _in_force(periods: list, day: datetime.date):
    return next((period for period in periods if is_in_force(period, day)), None)
