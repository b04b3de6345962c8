"""pricebench's bundled price snapshot: three CSV files of our own, one source per row.

- prices.csv: EC2 prices (on-demand, and spot per availability zone);
- fargate_rates.csv: Fargate rates per vCPU-hour and GB-hour;
- volume_prices.csv: EBS volume rates per GB-month, IOPS-month or MiB/s-month;
- instance_types.csv: EC2 instance specifications (describe_instance_types);
- instance_specs.csv: every AWS type's specifications from Spare Cores' server table;
- cloud_prices.csv: other clouds' prices as they quote them, with their regions' names
  (scripts/build_demo_cloud_prices.py, from the samples in ../shared/data/pricing/
  other-clouds/; benchmarks/demo/cloud_prices.md credits them).

scripts/build_demo_prices.py writes prices.csv, fargate_rates.csv and instance_types.csv from
../shared/data/pricing/; scripts/build_demo_specs.py writes instance_specs.csv from
../shared/data/sparecores-servers/aws.csv; volume_prices.csv holds the figures study S4
published (the shared data has no EBS prices). Empty cells are unknown values (effective_to:
still in force).
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from benchmarks.currency import exchange_rate
from benchmarks.errors import DomainError
from benchmarks.pricing.records import (
    PLACES,
    FargateRateRecord,
    InstanceSpecRecord,
    PriceRecord,
    QuotedPriceRecord,
    VolumePriceRecord,
    parse_day,
    parse_usd,
)

# Everything the demo bundles lives here (services/demo.py and demo_figures.py read their
# results from here too).
DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"

# Each file's header row, as written in it.
PRICE_COLUMNS = (
    "instance_type,region,purchase_option,availability_zone,usd_per_hour,effective_from,"
    "effective_to,source"
).split(",")
FARGATE_RATE_COLUMNS = (
    "region,architecture,operating_system,component,usd_per_unit_hour,effective_from,"
    "effective_to,source"
).split(",")
VOLUME_PRICE_COLUMNS = (
    "region,volume_type,component,tier,usd_per_unit_month,effective_from,effective_to,source"
).split(",")
INSTANCE_TYPE_COLUMNS = (
    "name,vcpus,memory_gib,architecture,physical_cores,threads_per_core,cpu_family,burstable,"
    "baseline_share,network_performance,source"
).split(",")

# Commitments (Reserved terms, Savings Plans): the effective hourly price and its two parts.
COMMITMENT_COLUMNS = (
    "instance_type,region,purchase_option,term,payment,offering_class,plan,usd_per_hour,"
    "upfront_usd,hourly_usd,effective_from,effective_to,source"
).split(",")

# Spare Cores' figures (AWS's guide for three types Spare Cores lacks): `cpu_allocation`
# is dedicated, shared or burstable; `network_gbps` Spare Cores' network speed (the baseline
# of an AWS type sold "up to" a burst); `network_performance` AWS's own words for it ("Up to 5
# Gigabit", from describe_instance_types: NETWORK_PERFORMANCE_SOURCE); `spec_source` the
# source's key (models.SpecSource) of the rest.
INSTANCE_SPEC_COLUMNS = (
    "name,vcpus,physical_cores,threads_per_core,memory_gib,architecture,cpu_allocation,"
    "cpu_model,gpu_count,gpu_model,gpu_memory_gib,network_gbps,network_performance,spec_source,"
    "source"
).split(",")
# Whose words a bundled `network_performance` is (models.SpecSource).
NETWORK_PERFORMANCE_SOURCE = "describe_instance_types"


@dataclass(frozen=True, slots=True)
class InstanceSpecsRow:
    """One type of instance_specs.csv: its specifications by field, and their source."""

    name: str
    values: dict[str, object]
    spec_source: str
    source: str


def write_rows(path: Path, columns: list[str], rows: list[dict]) -> None:
    """Write one of the bundled files (the demo's build scripts): its header, then the rows."""
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def plain_figure(number) -> str:
    """A figure as the bundled files write it: in full, without exponent or trailing zeros."""
    return format(Decimal(str(number)).normalize(), "f")


# Other clouds' prices: every field of a QuotedPriceRecord, and the region's name.
CLOUD_PRICES_FILE = DEMO_DIR / "cloud_prices.csv"
CLOUD_PRICE_COLUMNS = (
    "vendor,region,region_name,instance_type,purchase_option,os,term,payment,offering_class,"
    "plan,availability_zone,currency,quoted_per_hour,usd_per_hour,upfront_usd,hourly_usd,"
    "effective_from,effective_to,source"
).split(",")


def read_cloud_prices(path: Path = CLOUD_PRICES_FILE) -> Iterator[tuple[QuotedPriceRecord, str]]:
    """cloud_prices.csv -> each price's record and its region's name.

    An empty `usd_per_hour` is the quote at the ECB's reference rates of the day the price is
    in force from (Hetzner's euros), worked out here as the vendor's parser does: the file
    never holds a dollar figure rounded through a cross rate. A stored one is the vendor's own
    (Azure's dollars, Google's catalog rate)."""
    fields = [name for name in CLOUD_PRICE_COLUMNS if name not in ("region_name", "usd_per_hour")]
    for where, row in _rows(path, CLOUD_PRICE_COLUMNS):
        values = {name: _CELLS.get(name, _text)(row[name], where) for name in fields}
        if row["usd_per_hour"]:
            usd = _usd(row["usd_per_hour"], where)
        else:
            usd = ecb_usd(values["quoted_per_hour"], values["currency"], values["effective_from"])
        yield QuotedPriceRecord(**values, usd_per_hour=usd), row["region_name"]


def ecb_usd(quoted: Decimal, currency: str, day: datetime.date) -> Decimal:
    """A price quoted in `currency` in US dollars at the ECB's reference rates of `day`, to
    the 8th decimal, as Price keeps it (1.1086 USD per EUR: 0.0409 EUR is 0.04534174)."""
    return exchange_rate(currency, day).usd_of(quoted).quantize(PLACES)


def read_prices(path: Path) -> Iterator[PriceRecord]:
    """prices.csv -> price records."""
    return _records(path, PRICE_COLUMNS, PriceRecord)


def read_commitment_prices(path: Path) -> Iterator[PriceRecord]:
    """commitment_prices.csv -> price records of Reserved terms and Savings Plans."""
    return _records(path, COMMITMENT_COLUMNS, PriceRecord)


def read_fargate_rates(path: Path) -> Iterator[FargateRateRecord]:
    """fargate_rates.csv -> Fargate rate records."""
    return _records(path, FARGATE_RATE_COLUMNS, FargateRateRecord)


def read_volume_prices(path: Path) -> Iterator[VolumePriceRecord]:
    """volume_prices.csv -> EBS volume rate records."""
    return _records(path, VOLUME_PRICE_COLUMNS, VolumePriceRecord)


def read_instance_types(path: Path) -> Iterator[InstanceSpecRecord]:
    """instance_types.csv -> instance specifications."""
    return _records(path, INSTANCE_TYPE_COLUMNS, InstanceSpecRecord)


def read_instance_specs(path: Path) -> Iterator[InstanceSpecsRow]:
    """instance_specs.csv -> each type's specifications (an empty cell: not known)."""
    for where, row in _rows(path, INSTANCE_SPEC_COLUMNS):
        values = {
            name: _CELLS.get(name, _text)(row[name], where)
            for name in INSTANCE_SPEC_COLUMNS
            if name not in ("name", "spec_source", "source")
        }
        yield InstanceSpecsRow(row["name"], values, row["spec_source"], row["source"])


def _records(path: Path, columns: list[str], record_type: type) -> Iterator:
    for where, row in _rows(path, columns):
        yield record_type(**{name: _CELLS.get(name, _text)(row[name], where) for name in columns})


def _text(text: str, where: str) -> str:
    return text


def _number(kind: type) -> Callable[[str, str], object]:
    def read(text: str, where: str):
        try:
            return kind(text)
        except (ValueError, ArithmeticError):
            raise DomainError(f"{where}: {text!r} is not a number") from None

    return read


def _optional(read: Callable[[str, str], object]) -> Callable[[str, str], object]:
    # An empty cell is an unknown value (effective_to: still in force).
    return lambda text, where: read(text, where) if text else None


def _true_or_false(text: str, where: str) -> bool:
    if text not in ("true", "false"):
        raise DomainError(f"{where}: burstable must be true or false")
    return text == "true"


def _usd(text: str, where: str) -> Decimal:
    return parse_usd(text, where=where)


def _day(text: str, where: str) -> datetime.date:
    return parse_day(text, where=where)


# How a cell is read, by its column (a name means the same in every file); the rest is text.
_CELLS: dict[str, Callable[[str, str], object]] = {
    "usd_per_hour": _usd,
    "quoted_per_hour": _usd,
    "usd_per_unit_hour": _usd,
    "usd_per_unit_month": _usd,
    "upfront_usd": _optional(_usd),
    "hourly_usd": _optional(_usd),
    "effective_from": _day,
    "effective_to": _optional(_day),
    "tier": _number(int),
    "vcpus": _number(int),
    "memory_gib": _number(Decimal),
    "physical_cores": _optional(_number(int)),
    "threads_per_core": _optional(_number(int)),
    "baseline_share": _optional(_number(Decimal)),
    "gpu_count": _optional(_number(int)),
    "gpu_memory_gib": _optional(_number(Decimal)),
    "network_gbps": _optional(_number(Decimal)),
    "burstable": _true_or_false,
}


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
