"""The plain records the price readers return, and the small conversions they share."""

from __future__ import annotations

import datetime
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.reference import AWS_REGIONS, REGION_BY_LOCATION

ON_DEMAND = "on_demand"
SPOT = "spot"
RESERVED = "reserved"
SAVINGS_PLAN = "savings_plan"
FARGATE_SPOT = "fargate_spot"


@dataclass(frozen=True, slots=True)
class QuotedPriceRecord:
    """An hourly price another cloud quotes in its own currency, in force from
    `effective_from`: `quoted_per_hour` as quoted, `usd_per_hour` it at the ECB's reference
    rate of that day."""

    vendor: str
    instance_type: str
    region: str
    currency: str
    quoted_per_hour: Decimal
    usd_per_hour: Decimal
    effective_from: datetime.date
    source: str
    purchase_option: str = ON_DEMAND
    availability_zone: str = ""
    os: str = "linux"
    term: str = ""
    payment: str = ""
    offering_class: str = ""
    plan: str = ""
    # Last day in force, when the source says so.
    effective_to: datetime.date | None = None
    # A reservation's upfront and hourly parts of `usd_per_hour`, in US dollars.
    upfront_usd: Decimal | None = None
    hourly_usd: Decimal | None = None


@dataclass(frozen=True, slots=True)
class PriceRecord:
    """An hourly price of an EC2 instance type, in force from `effective_from`."""

    instance_type: str
    region: str
    purchase_option: str
    usd_per_hour: Decimal
    effective_from: datetime.date
    source: str
    # Spot prices differ by zone; every other price is the same in all zones ("").
    availability_zone: str = ""
    # Last day in force, when the source says so; None: until a later price replaces it.
    effective_to: datetime.date | None = None
    # When the source set the price (spot history): orders several prices of one day.
    observed_at: datetime.datetime | None = None
    # The price list's `networkPerformance` ("Up to 25 Gigabit"), "" when not given.
    network_performance: str = ""
    os: str = "linux"
    # A commitment (reserved, savings_plan): its term (1y, 3y), payment (no_upfront,
    # partial_upfront, all_upfront), Reserved class (standard, convertible) or Savings Plan
    # (compute, ec2_instance); "" where they do not apply. `usd_per_hour` is then the
    # effective hourly price, and the two parts it is made of are kept.
    term: str = ""
    payment: str = ""
    offering_class: str = ""
    plan: str = ""
    upfront_usd: Decimal | None = None
    hourly_usd: Decimal | None = None


@dataclass(frozen=True, slots=True)
class FargateRateRecord:
    """A Fargate rate per vCPU-hour or GB-hour, in force from `effective_from`."""

    region: str
    architecture: str  # "x86_64", "arm64", or "any" (ephemeral storage)
    component: str  # "vcpu", "memory_gb", "ephemeral_storage_gb"
    usd_per_unit_hour: Decimal
    effective_from: datetime.date
    source: str
    operating_system: str = "linux"
    effective_to: datetime.date | None = None
    # on_demand, fargate_spot, or savings_plan with its term, payment and plan.
    purchase_option: str = ON_DEMAND
    term: str = ""
    payment: str = ""
    plan: str = ""


@dataclass(frozen=True, slots=True)
class VolumePriceRecord:
    """A monthly EBS volume rate, in force from `effective_from`.

    Per GB-month (storage), per provisioned IOPS-month (iops) or per provisioned MiB/s-month
    (throughput); io2's IOPS are priced in tiers (1, 2, 3), everything else is tier 1.
    """

    region: str
    volume_type: str  # gp2, gp3, io1, io2, st1, sc1
    component: str  # storage, iops, throughput
    usd_per_unit_month: Decimal
    effective_from: datetime.date
    source: str
    tier: int = 1
    effective_to: datetime.date | None = None


@dataclass(frozen=True, slots=True)
class DatabaseInstancePriceRecord:
    """An hourly on-demand price of an RDS or Aurora DB instance class, from `effective_from`.

    Engine, deployment option, licence model and edition keep AWS's words ("Aurora MySQL",
    "Multi-AZ", "No license required"); none is stored yet.
    """

    instance_class: str  # db.r3.large
    region: str
    engine: str  # MySQL, Aurora MySQL, PostgreSQL, Aurora PostgreSQL, MariaDB, Oracle, ...
    deployment_option: str  # Single-AZ or Multi-AZ
    license_model: str
    usd_per_hour: Decimal
    effective_from: datetime.date
    source: str
    edition: str = ""  # Oracle and SQL Server only: Standard, Enterprise, ...
    # Aurora I/O-Optimized: a dearer instance whose storage I/O is not billed.
    io_optimized: bool = False


@dataclass(frozen=True, slots=True)
class AuroraStorageRateRecord:
    """An Aurora cluster's storage or I/O rate, in force from `effective_from`."""

    region: str
    engine: str  # Aurora MySQL, Aurora PostgreSQL, or AWS's "Any" for both
    component: str  # storage, io_optimized_storage (per GB-month), io (per million requests)
    usd_per_unit: Decimal
    unit: str  # "GB-month" or "million I/O requests"
    effective_from: datetime.date
    source: str


@dataclass(frozen=True, slots=True)
class InstanceSpecRecord:
    """What an EC2 instance type is made of, from describe_instance_types or the snapshot."""

    name: str
    vcpus: int
    memory_gib: Decimal
    architecture: str  # "x86_64", "arm64", or "" when unknown
    source: str
    physical_cores: int | None = None
    threads_per_core: int | None = None
    burstable: bool = False
    # Empty / None: the source does not say; an update keeps what is already known.
    cpu_family: str = ""
    baseline_share: Decimal | None = None
    network_performance: str = ""  # "Up to 25 Gigabit"


@dataclass
class ReadStats:
    """What a reader saw: items (products, rows, prices) read, and records it returned."""

    read: int = 0
    matched: int = 0
    services: set[str] = field(default_factory=set)  # Price List items' services


def parse_usd(text: object, *, where: str) -> Decimal:
    """A price as AWS writes it ("0.0960000000", "0.080000") -> Decimal; DomainError if not."""
    try:
        value = Decimal(str(text).strip())
    except InvalidOperation:
        raise DomainError(f"{where}: {text!r} is not a price") from None
    if not value.is_finite() or value < 0:
        raise DomainError(f"{where}: {text!r} is not a price")
    return value


def parse_day(text: object, *, where: str) -> datetime.date:
    """A date as AWS writes it (2021-02-01T00:00:00Z or 2021-02-01), or a datetime -> UTC date."""
    if isinstance(text, datetime.datetime):
        if text.tzinfo is not None:
            text = text.astimezone(datetime.UTC)
        return text.date()
    if isinstance(text, datetime.date):
        return text
    try:
        return datetime.date.fromisoformat(str(text).strip()[:10])
    except ValueError:
        raise DomainError(f"{where}: {text!r} is not a date (YYYY-MM-DD)") from None


# The Price List names a region by its location; AWS has written Europe both "EU (Paris)"
# and "Europe (Paris)" over the years, so both spellings are known.
REGION_BY_ANY_LOCATION: dict[str, str] = {
    **{region.name: region.code for region in AWS_REGIONS},
    **REGION_BY_LOCATION,
}
KNOWN_REGIONS = frozenset(region.code for region in AWS_REGIONS)


def usage_type(pattern: str) -> re.Pattern[str]:
    """A Price List usage type: `pattern`, after the region's prefix AWS writes outside
    us-east-1 (`APN1-`); Local Zones and Outposts (two prefixes, or a suffix) do not match."""
    return re.compile(rf"^(?:[A-Z0-9]+-)?(?:{pattern})$")


def region_of(attributes: dict) -> str | None:
    """The region code of a Price List product, or None when it is not an AWS region.

    Local Zones, Wavelength Zones and Outposts have their own location types and are left out.
    Older items carry only `location` ("US East (N. Virginia)"), not `regionCode`.
    """
    location_type = attributes.get("locationType")
    if location_type and location_type != "AWS Region":
        return None
    code = attributes.get("regionCode")
    if code:
        return code
    return REGION_BY_ANY_LOCATION.get(attributes.get("location", ""))


def response_entries(
    pages: Iterable[object], *, key: str, operation: str
) -> Iterator[tuple[str, object]]:
    """(where, entry) for each entry of the list `key` of some pages of an AWS `operation`'s
    responses; DomainError naming the page that is not such a response."""
    for page_number, page in enumerate(pages, 1):
        entries = page.get(key) if isinstance(page, dict) else None
        if not isinstance(entries, list):
            raise DomainError(f"page {page_number}: not a {operation} response (no {key})")
        for index, entry in enumerate(entries):
            yield f"page {page_number}, {key}[{index}]", entry


def load_json_file(path: Path) -> object:
    """A saved response (AWS's, another cloud's) read from disk; DomainError when it cannot
    be read as JSON."""
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, UnicodeDecodeError) as error:
        raise DomainError(f"{path}: cannot read ({error})") from None
    except json.JSONDecodeError as error:
        raise DomainError(f"{path}: not JSON ({error})") from None


# Seconds a vendor's API may take to answer one page.
FETCH_TIMEOUT = 60
# Other clouds' prices are kept to eight decimal places (models.Price's amounts).
PLACES = Decimal("1e-8")


def fetch_json(url: str, *, headers: dict[str, str] | None = None) -> object:
    """One page of a vendor's price API, as JSON; a DomainError (502) naming the URL when it
    cannot be had (an HTTP error, the network, not JSON)."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=FETCH_TIMEOUT) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise DomainError(f"{url}: HTTP {error.code}", status_code=502) from None
    except (OSError, ValueError) as error:
        raise DomainError(f"{url}: could not be read ({error})", status_code=502) from None


def follow_pages(
    url: str,
    *,
    items: str,
    next_url: Callable[[str, dict], str | None],
    what: str,
    max_pages: int,
    headers: dict[str, str] | None = None,
) -> Iterator[dict]:
    """A vendor's price API read page by page from `url`: each page must hold an `items`
    list; `next_url(url, page)` gives the next page's address, None after the last. A
    DomainError (502) names a page that is not `what`, or the query when it runs past
    `max_pages`."""
    for _ in range(max_pages):
        page = fetch_json(url, headers=headers)
        if not isinstance(page, dict) or not isinstance(page.get(items), list):
            raise DomainError(f"{url}: not {what} (no `{items}` list)", status_code=502)
        yield page
        following = next_url(url, page)
        if following is None:
            return
        url = following
    raise DomainError(f"more than {max_pages} pages of {what}: narrow the query", status_code=502)
