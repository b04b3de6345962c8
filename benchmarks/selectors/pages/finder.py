"""The finder table (`/instance-types/`): every instance type and Fargate task size with its
specifications, its price in a region and, for a chosen benchmark, what a dollar buys.

A fixed number of queries whatever the number of types: the benchmark and region (one), the
benchmark's kept statistics and their prices (`price_performance_table`: up to four more),
the types matching the filters (one) and their prices (up to three). Specification filters
run in SQL; the price filters and the sort run on the priced rows.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone
from django.utils.text import slugify

from benchmarks import units
from benchmarks.models import Benchmark, InstanceType, Region, Run, family_of
from benchmarks.per_dollar import HOURS_PER_YEAR
from benchmarks.profiles import Profile
from benchmarks.questions.finder import CSV_COLUMNS, FinderQuery
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.questions.profiles import ProfileQuery
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.kept_series import in_families
from benchmarks.selectors.answer.lookups import benchmark_in_region, get_region
from benchmarks.selectors.answer.price_performance import price_performance_table
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow
from benchmarks.selectors.costs import prices
from benchmarks.selectors.costs.price_periods import PriceQuote
from benchmarks.selectors.subjects.profiles import ProfileRow, profile_table

# AWS's own convention for monthly estimates (the instance type page's too).
HOURS_PER_MONTH = HOURS_PER_YEAR / 12
# Columns a click first sorts descending.
MORE_IS_BETTER = frozenset({"per_dollar", "vcpus", "memory_gib", "network_gbps", "median"})


class FinderType(NamedTuple):
    """What the finder reads of an instance type (and what pricing needs of it)."""

    pk: int
    name: str
    kind: str
    vcpus: Decimal | None
    memory_gib: Decimal | None
    architecture: str
    burstable: bool
    cpu_model: str
    network_gbps: Decimal | None
    cpu_allocation: str
    gpu_count: int | None
    gpu_model: str
    gpu_memory_gib: Decimal | None
    gpu_fraction: str


@dataclass(slots=True)
class FinderRow:
    """One instance type as the finder lists it."""

    name: str
    family: str
    kind: str
    vcpus: float | None
    memory_gib: float | None
    architecture: str
    cpu_model: str
    burstable: bool
    network_gbps: float | None
    cpu_allocation: str
    usd_per_hour: float | None
    price_note: str | None
    # With a benchmark: the row of its answer this type's figures come from (the plain row,
    # else its best variant), None when the type has no result.
    result: PricePerformanceRow | None = None
    # Its GPUs in words (`1 x A10G, 22.352 GiB`; a part of one: `1/6 x A10, 4 GiB`), blank
    # for a type without any.
    gpus: str = ""

    @property
    def usd_per_month(self) -> float | None:
        return None if self.usd_per_hour is None else self.usd_per_hour * HOURS_PER_MONTH

    @property
    def usd_per_year(self) -> float | None:
        return None if self.usd_per_hour is None else self.usd_per_hour * HOURS_PER_YEAR

    @property
    def median(self) -> float | None:
        return self.result.median if self.result else None

    @property
    def per_dollar(self) -> float | None:
        return self.result.per_dollar if self.result else None

    @property
    def variant(self) -> str | None:
        return self.result.variant if self.result else None

    def value(self, key: str) -> Any:
        """The column `key`'s value (the sort and the CSV read it)."""
        return getattr(self, key)


@dataclass
class FinderTable:
    """The finder's answer: the rows shown, in order, and what the page says about them."""

    query: FinderQuery
    region: Region
    at: datetime.date
    rows: list[FinderRow] = field(default_factory=list)
    benchmark: Benchmark | None = None
    # Or the workload profile ranked by (its rows' `median` is the profile's score).
    profile: Profile | None = None
    reading: units.Reading | None = None
    # The benchmark's parameters in force (the best-covered values where left open).
    params: dict[str, Any] = field(default_factory=dict)
    # Types measured with the benchmark, among those shown.
    measured: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def ranked(self) -> bool:
        """Whether the rows are ranked by a benchmark or a profile (figure columns shown)."""
        return self.benchmark is not None or self.profile is not None

    def csv_filename(self) -> str:
        """`pricebench-instance-types-us-east-1-arm64-openssl-aes-256-cbc.csv`: what it holds."""
        query = self.query
        parts = ["pricebench-instance-types", self.region.code]
        if query.purchase_option != "on_demand":
            parts.append(query.purchase_option)
        if query.architecture:
            parts.append(query.architecture)
        if query.families:
            parts.append("-".join(query.families[:5]))
        if query.burstable is not None:
            parts.append("burstable" if query.burstable else "not-burstable")
        for name, low, high in (
            ("vcpus", query.vcpus_min, query.vcpus_max),
            ("memory", query.memory_min, query.memory_max),
        ):
            if low is not None or high is not None:
                parts.append(f"{name}-{_plain(low) or 0}-{_plain(high) or 'any'}")
        if self.benchmark is not None:
            parts.append(self.benchmark.key)
        if self.profile is not None:
            parts.append(f"profile-{self.profile.key}")
        if query.at:
            parts.append(self.at.isoformat())
        text = "-".join(parts).replace(":", "-").replace(".", "_")
        return slugify(text).replace("_", ".") + ".csv"

    def csv_rows(self) -> list[list[str]]:
        """The header and exactly the rows shown, in the columns CONTRACT.md names."""
        return [list(CSV_COLUMNS), *([_csv_cell(row.value(key)) for key in CSV_COLUMNS]
                                     for row in self.rows)]  # fmt: skip


def _plain(number: Decimal | float | None) -> str:
    """2 for 2.00, 0.5 for 0.500; "" for None."""
    if number is None:
        return ""
    return format(Decimal(str(number)).normalize(), "f")


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else _plain(value)
    return str(value)


_FIELDS = list(FinderType._fields)


def _types(query: FinderQuery):
    """The types matching the specification filters, as a query (not yet read): the region's
    vendor's (a subquery, no query of its own)."""
    vendor = Region.objects.filter(code=query.region).values("vendor")[:1]
    rows = InstanceType.objects.exclude(kind=InstanceType.Kind.DATABASE).filter(
        vendor=Subquery(vendor)
    )
    if query.architecture:
        rows = rows.filter(architecture=query.architecture)
    bounds = {
        "vcpus__gte": query.vcpus_min,
        "vcpus__lte": query.vcpus_max,
        "memory_gib__gte": query.memory_min,
        "memory_gib__lte": query.memory_max,
    }
    rows = rows.filter(**{lookup: value for lookup, value in bounds.items() if value is not None})
    if query.burstable is not None:
        rows = rows.filter(burstable=query.burstable)
    if query.families:
        rows = rows.filter(in_families(query.families))
    if query.cpu_model:
        rows = rows.filter(cpu_model__icontains=query.cpu_model)
    if query.verified_only:
        verified = Run.objects.filter(
            instance_type=OuterRef("pk"), status=Run.Status.DONE, withdrawn_at=None
        ).exclude(verified_instance_type="")
        rows = rows.filter(Exists(verified))
    return rows


def _narrowed(query: FinderQuery) -> bool:
    """Whether the specification filters leave out some types."""
    bounds = (query.vcpus_min, query.vcpus_max, query.memory_min, query.memory_max)
    return bool(
        query.architecture
        or query.families
        or query.cpu_model
        or query.burstable is not None
        or query.verified_only
        or any(bound is not None for bound in bounds)
    )


def _results_by_type(rows: list) -> dict[str, PricePerformanceRow | ProfileRow]:
    """Each type's row: the plain one (no variant), else its best variant per dollar."""
    chosen: dict[str, PricePerformanceRow] = {}
    for row in rows:
        current = chosen.get(row.instance_type)
        if current is None:
            chosen[row.instance_type] = row
        elif current.variant is not None and (
            row.variant is None or (row.per_dollar or 0) > (current.per_dollar or 0)
        ):
            chosen[row.instance_type] = row
    return chosen


def finder_table(query: FinderQuery) -> FinderTable:
    """The rows the finder shows for `query`, filtered and sorted; a DomainError names an
    unknown benchmark or region (with the closest names)."""
    at = query.at or timezone.localdate()
    notes: list[str] = []
    results: dict[str, PricePerformanceRow | ProfileRow] = {}
    benchmark, profile, params = None, None, {}
    matching = _types(query)
    types = [FinderType(*row) for row in matching.order_by("name").values_list(*_FIELDS)]
    if query.benchmark:
        question = PricePerformanceQuery(
            benchmark=query.benchmark,
            region=query.region,
            purchase_option=query.purchase_option,
            at=at,
            params=query.params,
            basis=query.basis,
            busy=query.busy,
            verified_only=query.verified_only,
            # Only the matching types' statistics are read (an open parameter is then set to
            # the value most of them were measured with).
            instance_types=tuple(machine.name for machine in types) if _narrowed(query) else (),
            # The finder lists the types it found with what they measured: no estimates.
            estimates="exclude",
        )
        subject = benchmark_in_region(question)
        answer = price_performance_table(question, subject=subject, lenient=True, types_read=True)
        region, benchmark, params = subject.region, answer.benchmark, answer.params
        notes.extend(f"{note}." for note in answer.notes)
        results = _results_by_type(answer.results)
    elif query.profile:
        answer = profile_table(
            ProfileQuery(
                profile=query.profile,
                region=query.region,
                purchase=Purchase.of(query.purchase_option),
                at=at,
                basis=query.basis,
            )
        )
        region, profile = answer.region, answer.profile
        results = _results_by_type(answer.results)
    else:
        region = get_region(query.region)
        if query.params:
            dropped = ", ".join(f"{name}={value}" for name, value in query.params.items())
            notes.append(f"{dropped}: a benchmark's parameters, dropped without a benchmark.")
    ranked = benchmark is not None or profile is not None
    if query.measured and ranked:
        types = [machine for machine in types if machine.name in results]
    # A type the benchmark's answer priced keeps that quote; the others are priced here.
    known = {
        name: _quote_of(row)
        for name, row in results.items()
        if isinstance(row, PricePerformanceRow)
    }
    unquoted = [machine for machine in types if machine.name not in known]
    quotes = (
        prices.hourly_prices(
            instance_types=unquoted,
            region=region,
            purchase_option=query.purchase_option,
            day=at,
        )
        if unquoted
        else {}
    )
    rows = [
        _row(machine, quotes.get(machine.pk) or known[machine.name], results.get(machine.name))
        for machine in types
    ]
    rows = [row for row in rows if _in_price_range(row, query)]
    table = FinderTable(
        query=query,
        region=region,
        at=at,
        rows=sort_rows(rows, query.order),
        benchmark=benchmark,
        profile=profile,
        params=params,
        notes=notes,
    )
    if benchmark is not None:
        table.reading = units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better)
    if table.ranked:
        table.measured = sum(1 for row in rows if row.result is not None)
    return table


def _quote_of(row: PricePerformanceRow) -> PriceQuote:
    """The quote a price-performance row was priced with."""

    def decimal(value: float | None) -> Decimal | None:
        return None if value is None else Decimal(str(value))

    return PriceQuote(
        usd_per_hour=decimal(row.usd_per_hour),
        note=row.price_note,
        effective_from=row.price_effective_from,
        in_force=row.price_in_force,
        upfront_usd=decimal(row.upfront_usd),
        hourly_usd=decimal(row.hourly_usd),
    )


def _row(machine: FinderType, quote: PriceQuote, result) -> FinderRow:
    def number(value):
        return None if value is None else float(value)

    return FinderRow(
        name=machine.name,
        family=family_of(machine.kind, machine.name),
        kind=machine.kind,
        vcpus=number(machine.vcpus),
        memory_gib=number(machine.memory_gib),
        architecture=machine.architecture,
        cpu_model=machine.cpu_model,
        burstable=machine.burstable,
        network_gbps=number(machine.network_gbps),
        cpu_allocation=machine.cpu_allocation or ("burstable" if machine.burstable else ""),
        usd_per_hour=number(quote.usd_per_hour),
        price_note=quote.note,
        result=result,
        gpus=gpus_in_words(
            machine.gpu_count, machine.gpu_model, machine.gpu_memory_gib, machine.gpu_fraction
        ),
    )


def gpus_in_words(
    count: int | None, model: str, memory_gib: Decimal | None, fraction: str = ""
) -> str:
    """A type's GPUs as the finder shows them: `1 x A10G, 22.352 GiB`; a part of one GPU as
    its part (`1/6 x A10, 4 GiB`, never one A10); blank without any."""
    if not count:
        return ""
    if fraction:
        words = f"{fraction} x {model or 'GPU'}"
    else:
        words = f"{count} x {model}" if model else f"{count} GPU{'s' if count > 1 else ''}"
    if memory_gib is not None:
        words += f", {format(memory_gib.normalize(), 'f')} GiB"
    return words


def _in_price_range(row: FinderRow, query: FinderQuery) -> bool:
    low, high = query.usd_per_hour_min, query.usd_per_hour_max
    if low is None and high is None:
        return True
    if row.usd_per_hour is None:
        return False
    price = Decimal(str(row.usd_per_hour))
    return (low is None or price >= low) and (high is None or price <= high)


def sort_rows(rows: list[FinderRow], order: str) -> list[FinderRow]:
    """Rows sorted by a column (`-` first: descending); rows without a value always last,
    ties by name."""
    key = order.lstrip("-")
    descending = order.startswith("-")
    rows = sorted(rows, key=lambda row: row.name)
    present = [row for row in rows if row.value(key) not in (None, "")]
    absent = [row for row in rows if row.value(key) in (None, "")]
    present.sort(key=lambda row: _sortable(row.value(key)), reverse=descending)
    return present + absent


def _sortable(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def next_sort(order: str, column: str) -> str:
    """The sort a click on `column`'s header asks for: the same column again flips it; a new
    one starts descending where more is better (per dollar, vCPUs, memory), ascending else."""
    if order.lstrip("-") == column:
        return column if order.startswith("-") else f"-{column}"
    return f"-{column}" if column in MORE_IS_BETTER else column
