"""The one place specifications are written: each field keeps the source it came from, and a
better source replaces a weaker one's value, never the reverse.

Sources, best first (`SpecSource`): AWS's describe_instance_types, AWS's documentation
(benchmarks/burstable.py: the burstable types' baselines and credits), another vendor's
documentation (the same module: Azure's B series, Google's shared-core types; benchmarks/gpus.py:
the GPUs of Azure's GPU sizes, their model, count or part of one, and memory), Spare Cores' server
table, lscpu on the machine (Spare Cores' inspector), the price list's attributes. A source
replaces its own earlier values (a newer import of the same source). Every writer calls
`apply_specs` (one type) or `record_specs` (many, in bulk): the describe_instance_types and
snapshot import, the price list's attributes, the Spare Cores import and the demo.

After each write the type is made consistent: `burstable` is `cpu_allocation == burstable`;
a burstable type in its vendor's table gets its vCPUs, baseline and credits from it; any
other type has no baseline share and no credits. A GPU size in benchmarks/gpus.py gets its
GPUs from it, and its `source` adds that page's provenance.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from decimal import Decimal

from django.db import connection, transaction
from django.utils import timezone

from benchmarks import freshness
from benchmarks.burstable import SOURCES as BURSTABLE_SOURCES
from benchmarks.burstable import burstable_spec
from benchmarks.errors import DomainError
from benchmarks.gpus import gpu_spec
from benchmarks.models import (
    Architecture,
    CpuAllocation,
    InstanceType,
    Region,
    SpecSource,
    Vendor,
)
from benchmarks.services.prices.periods import ImportSummary

# Every field a source may give, as the model names it.
SPEC_FIELDS = (
    "vcpus",
    "memory_gib",
    "architecture",
    "physical_cores",
    "threads_per_core",
    "cpu_family",
    "cpu_model",
    "gpu_count",
    "gpu_fraction",
    "gpu_model",
    "gpu_memory_gib",
    "network_gbps",
    "network_performance",
    "cpu_allocation",
    "baseline_share",
    "cpu_credits_per_hour",
)
_BURST_FIELDS = ("baseline_share", "cpu_credits_per_hour")
_DECIMALS = (
    "vcpus",
    "memory_gib",
    "gpu_memory_gib",
    "network_gbps",
    "baseline_share",
    "cpu_credits_per_hour",
)

Specs = Mapping[str, object]


@dataclasses.dataclass(frozen=True)
class SpecUpdate:
    """What one source says of one type: values by field (None or blank: it does not say),
    and its full provenance (`source_text`, with licence)."""

    name: str
    values: Specs
    source_text: str = ""
    field_sources: Mapping[str, str] = dataclasses.field(default_factory=dict)


def check_specs(name: str, values: Specs) -> None:
    """DomainError naming the type and the field, for a value no instance type can have."""
    unknown = set(values) - set(SPEC_FIELDS)
    if unknown:
        raise DomainError(f"{name}: {', '.join(sorted(unknown))} are not specifications")
    for field in ("vcpus", "memory_gib"):
        if values.get(field) is not None and Decimal(values[field]) <= 0:
            raise DomainError(f"{name}: {field} must be above zero")
    if values.get("architecture") not in (None, "", *Architecture.values):
        raise DomainError(f"{name}: architecture {values['architecture']!r} is not x86_64 or arm64")
    if values.get("cpu_allocation") not in (None, "", *CpuAllocation.values):
        raise DomainError(
            f"{name}: cpu_allocation {values['cpu_allocation']!r} is not one of "
            f"{', '.join(CpuAllocation.values)}"
        )
    share = values.get("baseline_share")
    if share is not None and not 0 < Decimal(share) <= 1:
        raise DomainError(f"{name}: baseline share {share} is not in (0, 1]")


def apply_specs(
    instance_type: InstanceType,
    values: Specs,
    *,
    source: str,
    field_sources: Mapping[str, str] | None = None,
    source_text: str = "",
) -> set[str]:
    """Set each known value (not None, not blank) of `values` whose source is at least as good
    as the one the field's value came from, then make the type consistent (module docstring).

    `source` is a `SpecSource` key; `field_sources` names another for some fields (a
    snapshot whose baselines come from AWS's documentation). `source_text` (the full
    provenance, with licence) becomes the type's `source` when this is its best source.
    Returns the model fields changed; saving is the caller's.
    """
    check_specs(instance_type.name, values)
    sources = dict(instance_type.spec_sources or {})
    changed: set[str] = set()

    def offer(field: str, value: object, key: str) -> None:
        if value is None or value == "":
            return
        if field in _DECIMALS:
            # As the column keeps it, so that loading again finds nothing changed.
            places = InstanceType._meta.get_field(field).decimal_places
            value = Decimal(str(value)).quantize(Decimal(1).scaleb(-places))
        if SpecSource.rank(key) > SpecSource.rank(sources.get(field)):
            return
        sources[field] = key
        if getattr(instance_type, field) != value:
            setattr(instance_type, field, value)
            changed.add(field)

    field_sources = field_sources or {}
    for field, value in values.items():
        offer(field, value, field_sources.get(field, source))
    documented = burstable_spec(instance_type.name, instance_type.vendor)
    if documented is not None:
        key = (
            SpecSource.AWS_DOCUMENTATION
            if documented.vendor == Vendor.AWS
            else SpecSource.VENDOR_DOCUMENTATION
        )
        for field, value in (
            ("vcpus", documented.vcpus),
            ("cpu_allocation", CpuAllocation.BURSTABLE),
            ("baseline_share", documented.baseline_share),
            ("cpu_credits_per_hour", documented.cpu_credits_per_hour),
        ):
            offer(field, value, key)
    gpus = gpu_spec(instance_type.name, instance_type.vendor)
    if gpus is not None:
        for field, value in (
            ("gpu_count", gpus.count),
            ("gpu_fraction", gpus.fraction),
            ("gpu_model", gpus.model),
            ("gpu_memory_gib", gpus.memory_gib),
        ):
            offer(field, value, SpecSource.VENDOR_DOCUMENTATION)
    changed |= _make_consistent(instance_type, sources)
    if sources != (instance_type.spec_sources or {}):
        instance_type.spec_sources = sources
        changed.add("spec_sources")
    text = source_text or (
        BURSTABLE_SOURCES[Vendor.AWS] if source == SpecSource.AWS_DOCUMENTATION else ""
    )
    best = min(sources.values(), key=SpecSource.rank, default=None)
    # The full provenance follows the best source's values: only when they changed.
    if (
        text
        and (changed or instance_type.pk is None)
        and (SpecSource.rank(source) <= SpecSource.rank(best) or not instance_type.source)
        and instance_type.source != text
    ):
        instance_type.source = text
        changed.add("source")
    if gpus is not None and gpus.source not in instance_type.source:
        # Beside the best source's text: the page the GPUs come from.
        instance_type.source = "; ".join(filter(None, (instance_type.source, gpus.source)))
        changed.add("source")
    return changed


def _make_consistent(instance_type: InstanceType, sources: dict[str, str]) -> set[str]:
    changed = set()
    burstable = instance_type.cpu_allocation == CpuAllocation.BURSTABLE
    if instance_type.burstable != burstable:
        instance_type.burstable = burstable
        changed.add("burstable")
    if not burstable:
        for field in _BURST_FIELDS:
            sources.pop(field, None)
            if getattr(instance_type, field) is not None:
                setattr(instance_type, field, None)
                changed.add(field)
    return changed


@transaction.atomic
def record_specs(
    *,
    specs: Iterable[SpecUpdate],
    source: str,
    kind: str = InstanceType.Kind.EC2,
    vendor: str = Vendor.AWS,
) -> ImportSummary:
    """Create or update many instance types of `vendor` from one source (`SpecSource` key),
    in bulk: one query reads them, one creates the new ones, one per batch updates the rest."""
    by_name = {update.name: update for update in specs}
    for update in by_name.values():
        check_specs(update.name, update.values)
    summary = ImportSummary(matched=len(by_name))
    existing = {
        known.name: known
        for known in InstanceType.objects.select_for_update().filter(
            vendor=vendor, name__in=by_name
        )
    }
    wrong_kind = sorted(name for name, known in existing.items() if known.kind != kind)
    if wrong_kind:
        raise DomainError(f"{', '.join(wrong_kind)}: not of kind {kind}, not specified here")
    created, updated, fields = [], [], set()
    for name, update in sorted(by_name.items()):
        instance_type = existing.get(name) or InstanceType(vendor=vendor, name=name, kind=kind)
        changes = apply_specs(
            instance_type,
            update.values,
            source=source,
            field_sources=update.field_sources,
            source_text=update.source_text,
        )
        if instance_type.pk is None:
            created.append(instance_type)
        elif changes:
            updated.append(instance_type)
            fields |= changes
        else:
            summary.unchanged += 1
    InstanceType.objects.bulk_create(created, batch_size=500)
    if updated:
        _update_fields(updated, sorted(fields))
    if created or updated:
        specifications_changed()
    summary.instance_types_created = len(created)
    summary.specs_updated = len(updated)
    return summary


def _update_fields(instance_types: list[InstanceType], fields: list[str]) -> None:
    """Write these fields of saved types with one UPDATE per type, sent as one executemany:
    Django's bulk_update builds a CASE per field and type, which took seconds for the
    thousand types of a snapshot."""
    model_fields = [InstanceType._meta.get_field(name) for name in fields]
    table = connection.ops.quote_name(InstanceType._meta.db_table)
    assignments = ", ".join(
        f"{connection.ops.quote_name(field.column)} = %s" for field in model_fields
    )
    rows = [
        [
            *(
                field.get_db_prep_save(getattr(instance_type, field.attname), connection)
                for field in model_fields
            ),
            instance_type.pk,
        ]
        for instance_type in instance_types
    ]
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {table} SET {assignments} WHERE id = %s", rows)


def specifications_changed() -> None:
    """Specifications (vCPUs, burst baselines) enter every region's answers: their stamps
    move, and the kept answers are stale."""
    Region.objects.update(prices_updated_at=timezone.now())
    freshness.data_changed()
