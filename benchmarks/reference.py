"""Reference data every pricebench database holds from its first migration.

AWS regions with the location names the Price List API uses, and every valid Fargate task
size (AWS ECS documentation, "Task CPU and memory"), for x86_64 and arm64, with the day AWS
first sold it (`fargate_first_sold`, `fargate_unsold`).
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import NamedTuple

# RDS and Aurora: a DB run's variant names its engine -> the Price List's `databaseEngine`.
DATABASE_ENGINES = {
    "aurora-mysql": "Aurora MySQL",
    "aurora-postgresql": "Aurora PostgreSQL",
    "mariadb": "MariaDB",
    "mysql": "MySQL",
    "postgresql": "PostgreSQL",
}
DEPLOYMENT_OPTIONS = ("Single-AZ", "Multi-AZ")


class RegionInfo(NamedTuple):
    code: str
    name: str
    pricing_location: str


AWS_REGIONS: tuple[RegionInfo, ...] = tuple(
    RegionInfo(code, name, location)
    for code, name, location in [
        ("af-south-1", "Africa (Cape Town)", "Africa (Cape Town)"),
        ("ap-east-1", "Asia Pacific (Hong Kong)", "Asia Pacific (Hong Kong)"),
        ("ap-east-2", "Asia Pacific (Taipei)", "Asia Pacific (Taipei)"),
        ("ap-northeast-1", "Asia Pacific (Tokyo)", "Asia Pacific (Tokyo)"),
        ("ap-northeast-2", "Asia Pacific (Seoul)", "Asia Pacific (Seoul)"),
        ("ap-northeast-3", "Asia Pacific (Osaka)", "Asia Pacific (Osaka)"),
        ("ap-south-1", "Asia Pacific (Mumbai)", "Asia Pacific (Mumbai)"),
        ("ap-south-2", "Asia Pacific (Hyderabad)", "Asia Pacific (Hyderabad)"),
        ("ap-southeast-1", "Asia Pacific (Singapore)", "Asia Pacific (Singapore)"),
        ("ap-southeast-2", "Asia Pacific (Sydney)", "Asia Pacific (Sydney)"),
        ("ap-southeast-3", "Asia Pacific (Jakarta)", "Asia Pacific (Jakarta)"),
        ("ap-southeast-4", "Asia Pacific (Melbourne)", "Asia Pacific (Melbourne)"),
        ("ap-southeast-5", "Asia Pacific (Malaysia)", "Asia Pacific (Malaysia)"),
        ("ap-southeast-7", "Asia Pacific (Thailand)", "Asia Pacific (Thailand)"),
        ("ca-central-1", "Canada (Central)", "Canada (Central)"),
        ("ca-west-1", "Canada West (Calgary)", "Canada West (Calgary)"),
        ("cn-north-1", "China (Beijing)", "China (Beijing)"),
        ("cn-northwest-1", "China (Ningxia)", "China (Ningxia)"),
        ("eu-central-1", "Europe (Frankfurt)", "EU (Frankfurt)"),
        ("eu-central-2", "Europe (Zurich)", "EU (Zurich)"),
        ("eu-north-1", "Europe (Stockholm)", "EU (Stockholm)"),
        ("eu-south-1", "Europe (Milan)", "EU (Milan)"),
        ("eu-south-2", "Europe (Spain)", "EU (Spain)"),
        ("eu-west-1", "Europe (Ireland)", "EU (Ireland)"),
        ("eu-west-2", "Europe (London)", "EU (London)"),
        ("eu-west-3", "Europe (Paris)", "EU (Paris)"),
        ("il-central-1", "Israel (Tel Aviv)", "Israel (Tel Aviv)"),
        ("me-central-1", "Middle East (UAE)", "Middle East (UAE)"),
        ("me-south-1", "Middle East (Bahrain)", "Middle East (Bahrain)"),
        ("mx-central-1", "Mexico (Central)", "Mexico (Central)"),
        ("sa-east-1", "South America (Sao Paulo)", "South America (Sao Paulo)"),
        ("us-east-1", "US East (N. Virginia)", "US East (N. Virginia)"),
        ("us-east-2", "US East (Ohio)", "US East (Ohio)"),
        ("us-gov-east-1", "AWS GovCloud (US-East)", "AWS GovCloud (US-East)"),
        ("us-gov-west-1", "AWS GovCloud (US-West)", "AWS GovCloud (US-West)"),
        ("us-west-1", "US West (N. California)", "US West (N. California)"),
        ("us-west-2", "US West (Oregon)", "US West (Oregon)"),
    ]
)

REGION_BY_LOCATION: dict[str, str] = {
    region.pricing_location: region.code for region in AWS_REGIONS
}


def _steps(start: str, stop: str, step: str) -> list[Decimal]:
    values, value = [], Decimal(start)
    while value <= Decimal(stop):
        values.append(value)
        value += Decimal(step)
    return values


# vCPUs -> valid memory sizes in GB (ECS task definition limits for Fargate). 0.25 to 4 vCPUs
# with these memory sizes from Fargate's launch (the ECS Developer Guide's first Fargate table,
# February 2018, lists exactly these; study S1 ran fargate-4vcpu-30gb in December 2017);
# 8 and 16 vCPUs from 16 September 2022 (FARGATE_LARGE_TASKS).
FARGATE_MEMORY_BY_VCPU: dict[Decimal, list[Decimal]] = {
    Decimal("0.25"): [Decimal("0.5"), Decimal("1"), Decimal("2")],
    Decimal("0.5"): _steps("1", "4", "1"),
    Decimal("1"): _steps("2", "8", "1"),
    Decimal("2"): _steps("4", "16", "1"),
    Decimal("4"): _steps("8", "30", "1"),
    Decimal("8"): _steps("16", "60", "4"),
    Decimal("16"): _steps("32", "120", "8"),
}


class FargateSale(NamedTuple):
    """When AWS began selling something a Fargate task size needs, as AWS announced it."""

    first_sold: datetime.date
    what: str
    source: str


# AWS Fargate GA, 29 November 2017, in us-east-1 (ECS Developer Guide, "Document history":
# https://docs.aws.amazon.com/AmazonECS/latest/developerguide/document_history.html).
FARGATE_LAUNCH = FargateSale(
    datetime.date(2017, 11, 29),
    "AWS Fargate",
    "https://docs.aws.amazon.com/AmazonECS/latest/developerguide/document_history.html",
)
# "AWS Fargate increases compute and memory resource configurations by 4x": tasks of 8 and 16
# vCPUs, up to 120 GiB (ECS Developer Guide, "Document history": "New task definition
# sizes", 16 September 2022).
FARGATE_LARGE_TASKS = FargateSale(
    datetime.date(2022, 9, 16),
    "Fargate's 8 and 16 vCPU task sizes",
    "https://aws.amazon.com/about-aws/whats-new/2022/09/"
    "aws-fargate-increases-compute-memory-resource-configurations-4x/",
)
# "Announcing AWS Fargate for Amazon ECS Powered by AWS Graviton2 Processors", 23 November
# 2021 (ECS Developer Guide, "Document history": 64-bit ARM on Linux, 23 Nov 2021); before
# it every Fargate task was x86_64.
FARGATE_ARM64 = FargateSale(
    datetime.date(2021, 11, 23),
    "Fargate's arm64 (Graviton2) tasks",
    "https://aws.amazon.com/about-aws/whats-new/2021/11/"
    "aws-fargate-amazon-ecs-aws-graviton2-processors/",
)


def fargate_first_sold(vcpus: Decimal | None, architecture: str) -> FargateSale:
    """The day AWS first sold a task size: the latest of what it needs."""
    needs = [FARGATE_LAUNCH]
    if vcpus is not None and vcpus > 4:
        needs.append(FARGATE_LARGE_TASKS)
    if architecture == "arm64":
        needs.append(FARGATE_ARM64)
    return max(needs, key=lambda sale: sale.first_sold)


def fargate_unsold(
    vcpus: Decimal | None, architecture: str, day: datetime.date
) -> FargateSale | None:
    """What a task size still waited for on `day` (`fargate_first_sold`), or None: it was sold.

    The one rule every answer that prices a Fargate size from the rates applies, so that a
    2017 question never prices a 16 vCPU task as if it could have been bought then."""
    sale = fargate_first_sold(vcpus, architecture)
    return sale if day < sale.first_sold else None


def fargate_not_sold(
    name: str, vcpus: Decimal | None, architecture: str, day: datetime.date
) -> str | None:
    """Why a task size has no price on `day` (it was not sold yet), or None: it was sold."""
    sale = fargate_unsold(vcpus, architecture, day)
    if sale is None:
        return None
    return f"{name} was first sold on {sale.first_sold} ({sale.what}), after {day}"


class FargateSize(NamedTuple):
    vcpus: Decimal
    memory_gib: Decimal
    architecture: str


def fargate_task_sizes() -> list[FargateSize]:
    """Every valid Fargate task size, x86_64 and arm64."""
    return [
        FargateSize(vcpus, memory, architecture)
        for architecture in ("x86_64", "arm64")
        for vcpus, memories in FARGATE_MEMORY_BY_VCPU.items()
        for memory in memories
    ]


def load_reference_data(region_model, instance_type_model) -> None:
    """Create or update every region and Fargate task size (used by migrations 0002 and
    0012, and by tests after a flush): a few bulk queries, whatever is there already."""
    from benchmarks.models import fargate_name

    _create_or_update(
        region_model,
        "code",
        {
            region.code: {"name": region.name, "pricing_location": region.pricing_location}
            for region in AWS_REGIONS
        },
    )
    # A task has its vCPUs to itself (AWS: it "does not share the underlying kernel, CPU
    # resources, memory resources, or elastic network interface with another task"); the
    # fields exist from migration 0012 on.
    fields = {field.name for field in instance_type_model._meta.get_fields()}
    allocation = (
        {
            "cpu_allocation": "dedicated",
            "spec_sources": dict.fromkeys(
                ("vcpus", "memory_gib", "architecture", "cpu_allocation"), "aws_documentation"
            ),
        }
        if "spec_sources" in fields
        else {}
    )
    _create_or_update(
        instance_type_model,
        "name",
        {
            fargate_name(size.vcpus, size.memory_gib, size.architecture): {
                "kind": "fargate",
                "vcpus": size.vcpus,
                "memory_gib": size.memory_gib,
                "architecture": size.architecture,
                "cpu_family": "AWS Graviton" if size.architecture == "arm64" else "",
                "source": "AWS ECS documentation: valid Fargate task CPU and memory sizes",
                **allocation,
            }
            for size in fargate_task_sizes()
        },
    )


def _create_or_update(model, key: str, wanted: dict[str, dict]) -> None:
    """update_or_create for many rows: the missing ones created, the others given `wanted`'s
    values (those that differ), in one query each."""
    existing = {getattr(row, key): row for row in model.objects.filter(**{f"{key}__in": wanted})}
    changed, fields = [], set()
    for name, values in wanted.items():
        row = existing.get(name)
        if row is None:
            continue
        differs = {field for field, value in values.items() if getattr(row, field) != value}
        for field in differs:
            setattr(row, field, values[field])
        if differs:
            changed.append(row)
            fields |= differs
    model.objects.bulk_create(
        [model(**{key: name}, **values) for name, values in wanted.items() if name not in existing]
    )
    if changed:
        model.objects.bulk_update(changed, sorted(fields))
