"""Writes of EC2 instance specifications, through spec_sources (facts, updated in place):
describe_instance_types (a live import, or the bundled snapshot made from its responses) and
Spare Cores' server table (bundled as demo/instance_specs.csv)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, SpecSource, Vendor, machine_kind
from benchmarks.pricing import snapshot
from benchmarks.pricing.products import INSTANCE_TYPE_NAME
from benchmarks.pricing.records import InstanceSpecRecord
from benchmarks.services.prices.periods import ImportSummary
from benchmarks.services.prices.spec_sources import SpecUpdate, record_specs

DEMO_DIR = snapshot.DEMO_DIR


def _check_spec(spec: InstanceSpecRecord) -> None:
    if not INSTANCE_TYPE_NAME.match(spec.name or ""):
        raise DomainError(f"{spec.name!r} is not an EC2 instance type name")
    if spec.vcpus <= 0 or spec.memory_gib <= 0:
        raise DomainError(f"{spec.name}: vCPUs and memory must be above zero")


def _update(spec: InstanceSpecRecord, known_cpu_family: str) -> SpecUpdate:
    values = {
        "vcpus": spec.vcpus,
        "memory_gib": spec.memory_gib,
        "architecture": spec.architecture,
        "physical_cores": spec.physical_cores,
        "threads_per_core": spec.threads_per_core,
        "cpu_allocation": "burstable" if spec.burstable else "dedicated",
        "baseline_share": spec.baseline_share,
        "network_performance": spec.network_performance,
    }
    # The API names the maker ("Intel"): it never replaces a fuller name ("Intel Xeon ...").
    if spec.cpu_family and not known_cpu_family.startswith(spec.cpu_family):
        values["cpu_family"] = spec.cpu_family
    return SpecUpdate(
        spec.name,
        values,
        source_text=spec.source,
        # The snapshot's baselines are AWS's documentation's; the API gives none.
        field_sources={"baseline_share": SpecSource.AWS_DOCUMENTATION},
    )


@transaction.atomic
def update_instance_specs(*, specs: Iterable[InstanceSpecRecord]) -> ImportSummary:
    """Create or update EC2 instance types from describe_instance_types' specifications."""
    by_name: dict[str, InstanceSpecRecord] = {}
    for spec in specs:
        _check_spec(spec)
        by_name[spec.name] = spec
    known = {
        name: (kind, cpu_family)
        for name, kind, cpu_family in InstanceType.objects.filter(name__in=by_name).values_list(
            "name", "kind", "cpu_family"
        )
    }
    fargate = sorted(name for name, (kind, _) in known.items() if kind != InstanceType.Kind.EC2)
    if fargate:
        raise DomainError(f"{', '.join(fargate)}: Fargate task sizes have no EC2 specifications")
    return record_specs(
        specs=[
            _update(spec, known.get(name, ("", ""))[1]) for name, spec in sorted(by_name.items())
        ],
        source=SpecSource.DESCRIBE_INSTANCE_TYPES,
    )


# The bundled specifications of every AWS type, from Spare Cores' server table.
BUNDLED_SPECS_FILE = DEMO_DIR / "instance_specs.csv"


def bundled_specs_file(vendor: str) -> Path:
    """The bundled specifications of a vendor's types: instance_specs.csv for AWS,
    instance_specs_<vendor>.csv for the others (scripts/build_demo_specs.py)."""
    return BUNDLED_SPECS_FILE if vendor == Vendor.AWS else DEMO_DIR / f"instance_specs_{vendor}.csv"


@transaction.atomic
def import_bundled_specs(*, path: Path | None = None, vendor: str = Vendor.AWS) -> ImportSummary:
    """Load the bundled specifications of every type of `vendor` (Spare Cores'; for AWS,
    Karpenter's and AWS's documentation's for the types Spare Cores lacks;
    scripts/build_demo_specs.py writes the files) in bulk, each row under its own source;
    loading again stores nothing. Another cloud's types are virtual machines (`Kind.VM`)."""
    path = path or bundled_specs_file(vendor)
    kind = machine_kind(vendor)
    summary = ImportSummary()
    if not path.exists() and path == bundled_specs_file(vendor):
        # A vendor Spare Cores publish no server table of (Vultr): its types are specified
        # by what each machine says of itself when its results are imported.
        summary.source = f"no bundled specifications of {vendor}'s types"
        return summary
    rows = list(snapshot.read_instance_specs(path))
    for key in sorted({row.spec_source for row in rows}):
        if key not in SpecSource.values:
            raise DomainError(f"{path.name}: spec_source {key!r} is not a known source")
        summary += record_specs(
            specs=[
                SpecUpdate(
                    row.name,
                    row.values,
                    source_text=row.source,
                    # AWS's own words for the network, whatever source the rest is from.
                    field_sources={"network_performance": snapshot.NETWORK_PERFORMANCE_SOURCE},
                )
                for row in rows
                if row.spec_source == key
            ],
            source=key,
            kind=kind,
            vendor=vendor,
        )
    summary.read = len(rows)
    summary.source = f"the bundled specifications ({path.name})"
    return summary
