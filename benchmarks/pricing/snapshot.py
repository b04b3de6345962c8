"""pricebench's bundled price snapshot: three CSV files of our own, one source per row.

- prices.csv: EC2 prices (on-demand, and spot per availability zone);
- fargate_rates.csv: Fargate rates per vCPU-hour and GB-hour;
- volume_prices.csv: EBS volume rates per GB-month, IOPS-month or MiB/s-month;
- instance_types.csv: EC2 instance specifications.

scripts/build_demo_prices.py writes prices.csv, fargate_rates.csv and instance_types.csv from
../shared/data/pricing/; volume_prices.csv holds the figures study S4 published (the shared data
has no EBS prices). Empty cells are unknown values (effective_to: still in force).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.pricing.records import (
    FargateRateRecord,
    InstanceSpecRecord,
    PriceRecord,
    VolumePriceRecord,
    parse_day,
    parse_usd,
)

DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"

PRICE_COLUMNS = [
    "instance_type",
    "region",
    "purchase_option",
    "availability_zone",
    "usd_per_hour",
    "effective_from",
    "effective_to",
    "source",
]
FARGATE_RATE_COLUMNS = [
    "region",
    "architecture",
    "operating_system",
    "component",
    "usd_per_unit_hour",
    "effective_from",
    "effective_to",
    "source",
]
VOLUME_PRICE_COLUMNS = [
    "region",
    "volume_type",
    "component",
    "tier",
    "usd_per_unit_month",
    "effective_from",
    "effective_to",
    "source",
]
INSTANCE_TYPE_COLUMNS = [
    "name",
    "vcpus",
    "memory_gib",
    "architecture",
    "physical_cores",
    "threads_per_core",
    "cpu_family",
    "burstable",
    "baseline_share",
    "network_performance",
    "source",
]


def read_prices(path: Path) -> Iterator[PriceRecord]:
    """prices.csv -> price records."""
    for where, row in _rows(path, PRICE_COLUMNS):
        yield PriceRecord(
            instance_type=row["instance_type"],
            region=row["region"],
            purchase_option=row["purchase_option"],
            availability_zone=row["availability_zone"],
            usd_per_hour=parse_usd(row["usd_per_hour"], where=where),
            effective_from=parse_day(row["effective_from"], where=where),
            effective_to=_optional(row["effective_to"], parse_day, where),
            source=row["source"],
        )


def read_fargate_rates(path: Path) -> Iterator[FargateRateRecord]:
    """fargate_rates.csv -> Fargate rate records."""
    for where, row in _rows(path, FARGATE_RATE_COLUMNS):
        yield FargateRateRecord(
            region=row["region"],
            architecture=row["architecture"],
            operating_system=row["operating_system"],
            component=row["component"],
            usd_per_unit_hour=parse_usd(row["usd_per_unit_hour"], where=where),
            effective_from=parse_day(row["effective_from"], where=where),
            effective_to=_optional(row["effective_to"], parse_day, where),
            source=row["source"],
        )


def read_volume_prices(path: Path) -> Iterator[VolumePriceRecord]:
    """volume_prices.csv -> EBS volume rate records."""
    for where, row in _rows(path, VOLUME_PRICE_COLUMNS):
        yield VolumePriceRecord(
            region=row["region"],
            volume_type=row["volume_type"],
            component=row["component"],
            tier=_number(row["tier"], int, where),
            usd_per_unit_month=parse_usd(row["usd_per_unit_month"], where=where),
            effective_from=parse_day(row["effective_from"], where=where),
            effective_to=_optional(row["effective_to"], parse_day, where),
            source=row["source"],
        )


def read_instance_types(path: Path) -> Iterator[InstanceSpecRecord]:
    """instance_types.csv -> instance specifications."""
    for where, row in _rows(path, INSTANCE_TYPE_COLUMNS):
        if row["burstable"] not in ("true", "false"):
            raise DomainError(f"{where}: burstable must be true or false")
        yield InstanceSpecRecord(
            name=row["name"],
            vcpus=_number(row["vcpus"], int, where),
            memory_gib=_number(row["memory_gib"], Decimal, where),
            architecture=row["architecture"],
            physical_cores=_optional(row["physical_cores"], _int, where),
            threads_per_core=_optional(row["threads_per_core"], _int, where),
            cpu_family=row["cpu_family"],
            burstable=row["burstable"] == "true",
            baseline_share=_optional(row["baseline_share"], _decimal, where),
            network_performance=row["network_performance"],
            source=row["source"],
        )


def _rows(path: Path, columns: list[str]) -> Iterator[tuple[str, dict[str, str]]]:
    try:
        with open(path, encoding="utf-8", newline="") as file:
            reader = csv.DictReader(file)
            if reader.fieldnames != columns:
                raise DomainError(f"{path.name}: line 1: expected the columns {','.join(columns)}")
            for row in reader:
                where = f"{path.name}: line {reader.line_num}"
                if None in row or any(value is None for value in row.values()):
                    raise DomainError(f"{where}: expected {len(columns)} fields")
                yield where, row
    except OSError as error:
        raise DomainError(f"{path}: cannot read ({error})") from None
    except csv.Error as error:
        raise DomainError(f"{path.name}: {error}") from None


def _optional(text: str, parse: Callable, where: str):
    return parse(text, where=where) if text else None


def _int(text: str, *, where: str) -> int:
    return _number(text, int, where)


def _decimal(text: str, *, where: str) -> Decimal:
    return _number(text, Decimal, where)


def _number(text: str, kind: type, where: str):
    try:
        return kind(text)
    except (ValueError, ArithmeticError):
        raise DomainError(f"{where}: {text!r} is not a number") from None
