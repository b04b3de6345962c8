"""Writes of EC2 instance specifications: facts about a type, updated in place (no history)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from benchmarks import freshness
from benchmarks.errors import DomainError
from benchmarks.models import Architecture, InstanceType, Region
from benchmarks.pricing.products import INSTANCE_TYPE_NAME
from benchmarks.pricing.records import InstanceSpecRecord
from benchmarks.services.prices.periods import ImportSummary


def _check_spec(spec: InstanceSpecRecord) -> None:
    if not INSTANCE_TYPE_NAME.match(spec.name or ""):
        raise DomainError(f"{spec.name!r} is not an EC2 instance type name")
    if spec.vcpus <= 0 or spec.memory_gib <= 0:
        raise DomainError(f"{spec.name}: vCPUs and memory must be above zero")
    if spec.architecture not in (*Architecture.values, ""):
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
    if spec.network_performance:
        wanted["network_performance"] = spec.network_performance
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
        known.name: known
        for known in InstanceType.objects.select_for_update().filter(name__in=by_name)
    }
    fargate = sorted(
        name for name, known in existing.items() if known.kind != InstanceType.Kind.EC2
    )
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
