"""A fleet file read into lines: a plain CSV (`instance_type,region,count,hours`) or a FOCUS 1.2
cost and usage export, streamed row by row (such exports run to millions of rows).

Pure: text in, lines out; no ORM. FOCUS columns as the FinOps Foundation's specification
defines them (FOCUS_Spec, specification/columns/): compute rows are `ServiceCategory`
"Compute" usage; the type is `SkuPriceDetails`' `InstanceType`, the hours `ConsumedQuantity`,
what was paid `EffectiveCost` (the buyer's own discounts amortised in), the list price
`ListUnitPrice`, the way to buy `PricingCategory` (Standard, Committed, Dynamic, Other).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

PLAIN_COLUMNS = ("instance_type", "region", "count", "hours")
# Without these a FOCUS file names no compute line we can use.
FOCUS_COLUMNS = (
    "ServiceCategory",
    "SkuPriceDetails",
    "ConsumedQuantity",
    "EffectiveCost",
    "RegionId",
)
# FOCUS's way to buy, as the price tables name it; Committed is a Savings Plan when the
# commitment says so, else a Reserved Instance.
PRICING_CATEGORIES = {
    "standard": "on_demand",
    "committed": "reserved",
    "dynamic": "spot",
    "other": "on_demand",
}
PURCHASE_OPTIONS = ("on_demand", "spot", "reserved", "savings_plan")
# AWS names Fargate's service so in its FOCUS export (ECS tasks on Fargate).
FARGATE_SERVICES = ("amazonecs", "aws fargate", "fargate", "amazon elastic container service")
# Compute rows it cannot use are listed; past this many, counted only.
MAX_SKIPPED_LISTED = 100


class FleetFileError(ValueError):
    """A file that is not a fleet: the message names what is wrong."""


@dataclass
class FleetLine:
    """One instance type in one region: its hours and what they cost, summed over its rows."""

    instance_type: str
    region: str
    hours: float = 0.0
    # What was paid (FOCUS EffectiveCost); None: not said (a plain CSV), priced at list.
    usd_paid: float | None = None
    # ListUnitPrice x hours, where the bill gives it.
    usd_list: float | None = None
    # Hours by way to buy; the line is re-bought the way most of its hours were.
    hours_by_purchase: dict[str, float] = field(default_factory=dict)
    # Fargate's service (a task size, not an EC2 type).
    fargate: bool = False
    rows: int = 0
    # The file's first data row of the line (1-based), for a reason about the whole line.
    first_row: int = 0

    @property
    def purchase_option(self) -> str:
        if not self.hours_by_purchase:
            return "on_demand"
        return max(self.hours_by_purchase.items(), key=lambda item: (item[1], item[0]))[0]


@dataclass
class Skipped:
    """A compute row (1-based data row number) that names no usable line, and why."""

    row: int
    reason: str


@dataclass
class FleetFile:
    """What a file holds: `format` (`csv` or `focus`), its lines, the compute rows skipped and
    how many other rows (storage, network, tax...) were passed over."""

    format: str
    lines: list[FleetLine] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    skipped_count: int = 0
    other_rows: int = 0
    rows: int = 0

    def skip(self, row: int, reason: str) -> None:
        """Row `row` (1-based data row) not used, for `reason`: counted, and listed while
        fewer than MAX_SKIPPED_LISTED are."""
        self.skipped_count += 1
        if len(self.skipped) < MAX_SKIPPED_LISTED:
            self.skipped.append(Skipped(row=row, reason=reason))


def read_fleet(text: Iterable[str]) -> FleetFile:
    """The lines of a fleet file, from its text line by line (a file object streams it)."""
    reader = csv.reader(text)
    try:
        header = next(reader, None)
        if not header:
            raise FleetFileError("the file is empty: give a CSV with a header row")
        header = [name.strip().lstrip("\ufeff") for name in header]
        if all(column in header for column in PLAIN_COLUMNS):
            return _read_plain(header, reader)
        if "ServiceCategory" in header or "ChargeCategory" in header or "BilledCost" in header:
            missing = [column for column in FOCUS_COLUMNS if column not in header]
            if missing:
                raise FleetFileError(
                    f"a FOCUS export without the compute columns {', '.join(missing)}: "
                    "export FOCUS 1.2 with SkuPriceDetails"
                )
            return _read_focus(header, reader)
        raise FleetFileError(
            "not a fleet file: the header must name instance_type,region,count,hours "
            "(optional purchase_option) or be a FOCUS 1.2 cost and usage export"
        )
    except csv.Error as error:
        raise FleetFileError(f"not a CSV file (row {reader.line_num}: {error})") from None
    except UnicodeDecodeError:
        raise FleetFileError("not a CSV file: the file is not UTF-8 text") from None


def _number(value: str, column: str, row: int) -> float:
    try:
        number = float(value)
    except ValueError:
        raise FleetFileError(f"row {row}: {column} {value[:40]!r} is not a number") from None
    if not math.isfinite(number):
        raise FleetFileError(f"row {row}: {column} {value[:40]!r} is not a number")
    return number


def _line(lines: dict, instance_type: str, region: str, row: int) -> FleetLine:
    key = (instance_type, region)
    line = lines.get(key)
    if line is None:
        line = lines[key] = FleetLine(instance_type=instance_type, region=region, first_row=row)
    return line


def _read_plain(header: list[str], reader) -> FleetFile:
    fleet = FleetFile(format="csv")
    at = {
        name: header.index(name) for name in (*PLAIN_COLUMNS, "purchase_option") if name in header
    }
    lines: dict[tuple[str, str], FleetLine] = {}
    for number, row in enumerate(reader, start=1):
        fleet.rows = number
        if not any(cell.strip() for cell in row):
            continue
        cells = {
            name: (row[index].strip() if index < len(row) else "") for name, index in at.items()
        }
        if not cells["instance_type"] or not cells["region"]:
            fleet.skip(number, "no instance_type or region")
            continue
        count = _number(cells["count"] or "1", "count", number)
        hours = _number(cells["hours"], "hours", number)
        if hours < 0 or count < 0:
            raise FleetFileError(f"row {number}: count and hours must not be negative")
        purchase = (cells.get("purchase_option") or "on_demand").lower().replace("-", "_")
        if purchase not in PURCHASE_OPTIONS:
            raise FleetFileError(
                f"row {number}: purchase_option {purchase[:40]!r}; choose from "
                f"{', '.join(PURCHASE_OPTIONS)}"
            )
        line = _line(lines, cells["instance_type"], cells["region"], number)
        line.hours += count * hours
        line.hours_by_purchase[purchase] = line.hours_by_purchase.get(purchase, 0.0) + count * hours
        line.rows += 1
        line.fargate = line.instance_type.startswith("fargate-")
    fleet.lines = list(lines.values())
    return fleet


def _read_focus(header: list[str], reader) -> FleetFile:
    fleet = FleetFile(format="focus")
    index = {name: position for position, name in enumerate(header)}

    def cell(row: list[str], name: str) -> str:
        position = index.get(name)
        return row[position].strip() if position is not None and position < len(row) else ""

    lines: dict[tuple[str, str], FleetLine] = {}
    for number, row in enumerate(reader, start=1):
        fleet.rows = number
        service_name = cell(row, "ServiceName").lower()
        fargate = service_name in FARGATE_SERVICES
        if cell(row, "ServiceCategory") != "Compute" or cell(row, "ChargeCategory") not in (
            "",
            "Usage",
        ):
            fleet.other_rows += 1
            continue
        details = cell(row, "SkuPriceDetails")
        try:
            parsed = json.loads(details) if details else {}
        except ValueError:
            fleet.skip(number, "SkuPriceDetails is not JSON")
            continue
        instance_type = parsed.get("InstanceType") if isinstance(parsed, dict) else None
        if not instance_type or not isinstance(instance_type, str):
            if fargate:
                fleet.skip(number, "a Fargate row without its task size (InstanceType)")
            else:
                # Compute that is not a machine an hour (Lambda requests, EBS-optimised
                # surcharges...): nothing to re-buy.
                fleet.other_rows += 1
            continue
        region = cell(row, "RegionId")
        if not region:
            fleet.skip(number, f"{instance_type[:60]}: no RegionId")
            continue
        unit = cell(row, "ConsumedUnit").lower()
        if unit and "hour" not in unit and unit not in ("hrs", "hr", "h"):
            fleet.skip(number, f"{instance_type[:60]}: ConsumedUnit {unit[:40]!r} is not hours")
            continue
        hours = _number(cell(row, "ConsumedQuantity") or "0", "ConsumedQuantity", number)
        if hours < 0:
            raise FleetFileError(f"row {number}: ConsumedQuantity must not be negative")
        paid = _number(cell(row, "EffectiveCost") or "0", "EffectiveCost", number)
        list_price = cell(row, "ListUnitPrice")
        category = PRICING_CATEGORIES.get(cell(row, "PricingCategory").lower(), "on_demand")
        if category == "reserved" and "savings" in cell(row, "CommitmentDiscountType").lower():
            category = "savings_plan"
        line = _line(lines, instance_type, region, number)
        line.fargate = line.fargate or fargate or instance_type.startswith("fargate-")
        line.hours += hours
        line.usd_paid = (line.usd_paid or 0.0) + paid
        if list_price:
            line.usd_list = (line.usd_list or 0.0) + hours * _number(
                list_price, "ListUnitPrice", number
            )
        line.hours_by_purchase[category] = line.hours_by_purchase.get(category, 0.0) + hours
        line.rows += 1
    fleet.lines = list(lines.values())
    return fleet
