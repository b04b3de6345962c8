"""Price-performance: what a dollar buys on each instance type, from the kept statistics.

One question (`PricePerformanceQuery`) answered in at most six queries whatever the number of
results or types: the benchmark and the region, the series' statistics, and three for
prices. Results measured anywhere count (a benchmark measures the machine); the prices are
the region's. Results measured with different parameters are never mixed in one row. The
arithmetic is `benchmarks.per_dollar`'s, a row's figures on the basis asked `selectors.basis`'s;
several vendors' regions ranked together are `selectors.cross_cloud`'s.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from benchmarks import units
from benchmarks.currency import NO_CONVERSION, USD, ExchangeRate, exchange_rate
from benchmarks.errors import DomainError
from benchmarks.fargate_estimate import estimated_label
from benchmarks.models import Benchmark, InstanceType, Region, qualified_name
from benchmarks.noise import Noise
from benchmarks.questions import PricePerformanceQuery, benchmark_params
from benchmarks.questions.price_performance import ORDERS
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors import busy, prices, question_names, verified
from benchmarks.selectors.baseline import apply_baseline
from benchmarks.selectors.basis import bandwidth_figures, on_basis
from benchmarks.selectors.fargate_estimates import estimated_series
from benchmarks.selectors.kept_series import (
    EXTRAS,
    question_rows,
)
from benchmarks.selectors.lookups import BenchmarkInRegion, benchmark_in_region
from benchmarks.selectors.open_parameters import one_value_per_parameter
from benchmarks.selectors.standing import Standing, stand
from benchmarks.services.statistics import params_key

BANDWIDTH_UNIT = "bit/s"


@dataclass(slots=True)
class PricePerformanceRow:
    """One instance type and variant: its kept statistics, its price and what a dollar buys."""

    instance_type: str
    variant: str | None
    kind: str
    family: str
    # Whose type it is (models.Vendor: aws, azure, gcp, hcloud).
    vendor: str
    vcpus: float | None
    runs: int
    results: int
    median: float
    min: float
    max: float
    first_quartile: float
    third_quartile: float
    cpu_models: dict[str, int]
    measured_in: list[str | None]
    sources: list[list]
    # [[value, cpu model], ...]: every value, or an evenly spaced sample when values_cut.
    samples: list[list]
    usd_per_hour: float | None
    price_note: str | None
    # What a dollar buys on the question's basis (a burstable type: see `sustained_per_dollar`).
    per_dollar: float | None
    # The fields from here to `params_key` are every price-performance answer's, in the order
    # `price_performance_table` passes them; the rest only some answers set.
    # The figure the basis ranks by: the median, or what a burstable type sustains.
    basis_figure: float = 0.0
    # The day the price used came into force, and whether it was in force on the day asked.
    price_effective_from: datetime.date | None = None
    price_in_force: bool = True
    # `dedicated`, `shared` (no published baseline) or `burstable`.
    cpu_allocation: str = ""
    # Runs left out of the figures (benchmarks.flags); `only_flagged`: the figures come from
    # flagged runs, the series having no other. `flags`: [[flag, runs, [run ids]], ...].
    flagged_runs: int = 0
    only_flagged: bool = False
    # Runs of the figures whose identity proof named their type (docs/api.md).
    verified_runs: int = 0
    flags: list = field(default_factory=list)
    # The kept statistics' row, for reading its samples later (`read_samples`).
    statistics_id: int | None = None
    # A commitment's parts of its effective hourly price (`usd_per_hour`).
    upfront_usd: float | None = None
    hourly_usd: float | None = None
    # The hourly price in the currency asked, at `exchange_rate` units of it per US dollar:
    # the ECB's reference rates of `exchange_rate_date` (None for US dollars).
    currency: str = USD
    price_per_hour: float | None = None
    exchange_rate: float = 1.0
    exchange_rate_date: datetime.date | None = None
    # An estimated row (a Fargate size no task measured, selectors/fargate_estimates.py):
    # its processor, the EC2 types its figure comes from, the method's error; None: measured.
    estimate: dict[str, Any] | None = None
    # The row's parameters as its series keeps them: its parameter set's noise judges it.
    params_key: str = ""
    # Set where they apply: burstable types, cross-cloud, baselines, bandwidth, standing.
    # Burstable types: the sustained share of each vCPU; the work per dollar at the burst
    # figure measured, once the CPU credits are spent, and, in unlimited mode, paying for
    # surplus credits; how long a full credit balance lasts at full load.
    baseline_share: float | None = None
    burst_per_dollar: float | None = None
    sustained_per_dollar: float | None = None
    unlimited_usd_per_hour: float | None = None
    burst_minutes: float | None = None
    # A cross-cloud question's region of the row (vendor:code); None otherwise.
    region: str | None = None
    relative_throughput: float | None = None
    relative_cost: float | None = None
    relative_per_dollar: float | None = None
    # Bandwidth benchmarks (unit bit/s, study S3): what AWS advertises beside the measured
    # figure, and the Gbit/s a dollar-hour buys.
    advertised_bandwidth: str | None = None
    gbit_per_second_per_usd_hour: float | None = None
    # Where the row stands (selectors/standing.py): its rank by what a dollar buys, the ranks
    # it could take within the benchmark's noise, and the relative spread of its own runs.
    rank: int | None = None
    rank_range: list[int] | None = None
    spread: float | None = None
    # The lead another row must exceed to differ from this one (its group's tie margin, or its
    # own runs' difference where wider), and its 90% intervals ({"low", "high", "level"})
    # around `median` and `per_dollar` (None without a measured noise).
    tie_margin: float | None = None
    interval: dict[str, float] | None = None
    per_dollar_interval: dict[str, float] | None = None

    @property
    def estimated(self) -> bool:
        return self.estimate is not None

    @property
    def key(self) -> str:
        """How `baseline=` names this row: `c7a.xlarge` or `c7a.xlarge:base`."""
        return f"{self.instance_type}:{self.variant}" if self.variant else self.instance_type

    @property
    def label(self) -> str:
        """How the charts and tables name this row: `c7a.xlarge`, `c7a.xlarge (base)`."""
        return f"{self.instance_type} ({self.variant})" if self.variant else self.instance_type

    @property
    def shown_label(self) -> str:
        """The label every chart and data table shows: an estimated row says so."""
        return estimated_label(self.label, self.estimated)

    @property
    def page_name(self) -> str:
        """How the pages' links name the type: `c7g.large`, another cloud's `hcloud:cax11`."""
        return qualified_name(self.vendor, self.instance_type)

    @property
    def values_cut(self) -> bool:
        return self.results > len(self.samples)

    @property
    def burstable(self) -> bool:
        return self.baseline_share is not None


@dataclass(frozen=True)
class Unpriced:
    """A type with results but no price in the region for the purchase option."""

    instance_type: str
    variant: str | None
    family: str
    reason: str
    runs: int
    median: float
    # A cross-cloud question's region of the row (vendor:code); None otherwise.
    region: str | None = None


@dataclass
class PricePerformanceTable:
    """The answer of `GET /api/v1/price-performance/` and of the comparison page's table."""

    benchmark: Benchmark
    region: Region
    purchase_option: str
    at: datetime.date
    params: dict[str, Any]
    baseline: str | None
    measured_in: str | None
    include_values: bool = False
    include_quartiles: bool = False
    basis: str = "sustained"
    price_dates: str = "any"
    # How the prices are paid (the purchase option with its commitment or spot zone).
    purchase: Purchase = field(default_factory=Purchase)
    # What the rows' `price_per_hour` is in (benchmarks.currency).
    exchange_rate: ExchangeRate = NO_CONVERSION
    results: list[PricePerformanceRow] = field(default_factory=list)
    unpriced: list[Unpriced] = field(default_factory=list)
    # What the page changed in a question it could not answer as asked (lenient mode).
    notes: list[str] = field(default_factory=list)
    # What a parameter left open took where a type was measured with several of its values
    # (parameters.open_rule), said in the answer's sentence.
    open_rules: list[str] = field(default_factory=list)
    # A cross-cloud question's regions (vendor:code), each row naming its own; empty for
    # the one `region`.
    regions: list[str] = field(default_factory=list)
    # How the rows are ranked (questions/price_performance.py ORDERS).
    order: str = ORDERS[0]
    # What the benchmark's noise makes of the rows (selectors/standing.py).
    standing: Standing | None = None

    @property
    def region_code(self) -> str:
        """Where the prices come from, as the answer says it: `us-east-1`, or the regions of
        a cross-cloud question (`aws:eu-central-1, hcloud:fsn1`)."""
        return ", ".join(self.regions) if self.regions else self.region.code

    @property
    def has_burstable(self) -> bool:
        return any(row.burstable for row in self.results)

    @property
    def has_estimates(self) -> bool:
        return any(row.estimated for row in self.results)


def ranked(rows: list[PricePerformanceRow], order: str) -> list[PricePerformanceRow]:
    """The rows as the answer lists them: most per dollar first, or cheapest first (`order`
    price); rows without the figure last, ties by name."""
    if order == "price":
        return sorted(
            rows,
            key=lambda row: (row.usd_per_hour is None, row.usd_per_hour or 0, row.instance_type),
        )
    return sorted(
        rows, key=lambda row: (row.per_dollar is None, -(row.per_dollar or 0), row.instance_type)
    )


def most_per_dollar_first(rows: list) -> list:
    """Rows by what a dollar buys, most first (unpriced last), as the answer ranks them and
    its sentence names them; a lower-is-better figure's `per_dollar` is 3600 ÷ (median ×
    USD per hour)."""
    return sorted(rows, key=lambda row: (row.per_dollar is None, -(row.per_dollar or 0)))


def best_first(rows: list[PricePerformanceRow], reading: units.Reading) -> list:
    """Rows best first, as the charts and the "best" mark rank them: by what a dollar buys
    (`most_per_dollar_first`), else (a latency, charted as measured) by the figure itself."""
    if reading.per_dollar is not None:
        return most_per_dollar_first(rows)
    sign = -1 if reading.higher_is_better else 1
    return sorted(rows, key=lambda row: sign * row.median)


def price_performance_table(
    query: PricePerformanceQuery,
    *,
    subject: BenchmarkInRegion | None = None,
    lenient: bool = False,
    sources: bool = False,
    types_read: bool = False,
) -> PricePerformanceTable:
    """Per instance type and variant: statistics, price in the region, and per-dollar figures.

    `lenient` (the page): parameters that do not apply are dropped and open parameters pinned
    to their best-covered value, each with a note, instead of a 400. `sources` also reads
    each row's sources and flagged runs (the page, which reads the samples of the rows it
    draws with `read_samples`); `include_values` reads them and every row's samples.
    `types_read`: the query's instance types are names the caller read from the database
    (the finder's), not looked up again (question_names.checked_names).
    """
    at = query.at or timezone.localdate()
    subject = subject or benchmark_in_region(query)
    benchmark, region = subject.benchmark, subject.region
    if query.vendor and query.vendor != region.vendor:
        raise DomainError(
            f"{region.code} is a region of {region.vendor}, not {query.vendor}: its prices "
            f"are {region.vendor}'s types'",
            field="vendor",
        )
    notes: list[str] = []
    params = benchmark_params(benchmark, query.params, lenient=lenient, notes=notes)
    query = question_names.checked_names(
        query, benchmark, lenient=lenient, notes=notes, types_read=types_read
    )
    rate = exchange_rate(query.currency, at)
    if query.include_values:
        extras = EXTRAS
    elif sources:
        extras = EXTRAS[:2]  # sources, flags
    else:
        extras = ()
    # A benchmark measures the machine; a region prices only its own vendor's machines.
    rows = question_rows(benchmark, query, params, region=region, extras=extras)
    if query.busy is not None:
        # Each type at its share of vCPUs busy (selectors/busy.py).
        rows = busy.at_busy(rows, busy.worker_parameter(benchmark, params), query.busy)
    said: list[str] = []
    rows = one_value_per_parameter(rows, params, lenient, notes, benchmark, said)
    if query.verified_only:
        rows = verified.only_verified(rows, measured_in=query.measured_in)
    # Fargate sizes no task measured, estimated (selectors/fargate_estimates.py).
    estimates = {
        found.series.machine.pk: found
        for found in estimated_series(benchmark, query, params, region, rows)
    }
    rows += [found.series for found in estimates.values()]
    quotes = prices.hourly_prices(
        instance_types={row.machine for row in rows},
        region=region,
        purchase_option=query.purchase,
        day=at,
    )
    table = PricePerformanceTable(
        benchmark=benchmark,
        region=region,
        purchase_option=query.purchase_option,
        at=at,
        params=params,
        baseline=query.baseline,
        measured_in=query.measured_in,
        include_values=query.include_values,
        include_quartiles=query.include_quartiles,
        basis=query.basis,
        price_dates=query.price_dates,
        purchase=query.purchase,
        exchange_rate=rate,
        notes=notes,
        open_rules=said,
        order=query.order,
    )
    # The rows share a few parameter sets, one dict each (kept_series.params_of): each is
    # keyed once, not once a row.
    keys: dict[int, str] = {}
    for row in rows:
        instance_type = row.machine
        quote = quotes[instance_type.pk]
        estimate = estimates.get(instance_type.pk)
        if estimate is not None and quote.usd_per_hour is None:
            continue  # an estimate is offered where it has a price, never listed unpriced
        if quote.usd_per_hour is None or (query.price_dates == "exact" and not quote.in_force):
            reason = quote.note or "no price known"
            if quote.usd_per_hour is not None:
                reason = f"price_dates=exact: {reason}"
            if instance_type.kind == InstanceType.Kind.DATABASE:
                reason = "a DB instance class: priced per engine by database-price-performance/"
            table.unpriced.append(
                Unpriced(
                    instance_type=instance_type.name,
                    variant=row.variant or None,
                    family=instance_type.family,
                    reason=reason,
                    runs=row.runs,
                    median=row.median,
                )
            )
            continue
        usd = float(quote.usd_per_hour)
        key = keys.get(id(row.params))
        if key is None:
            key = keys[id(row.params)] = params_key(row.params)
        basis = on_basis(
            instance_type,
            row.median,
            usd,
            query.basis,
            higher_is_better=benchmark.higher_is_better,
            params=row.params,
        )
        price, used = prices.in_currency(quote, usd, rate)
        # Every field given in its declared order, none by keyword and none merged in from a
        # dict: a thousand rows' keywords took three times as long as the rest of the call,
        # and merges cost more still (docs/performance.md).
        priced = PricePerformanceRow(
            instance_type.name,  # instance_type
            row.variant or None,  # variant
            instance_type.kind,  # kind
            instance_type.family,  # family
            instance_type.vendor,  # vendor
            instance_type.vcpu_count,  # vcpus
            row.runs,  # runs
            row.results,  # results
            row.median,  # median
            row.minimum,  # min
            row.maximum,  # max
            row.first_quartile,  # first_quartile
            row.third_quartile,  # third_quartile
            row.cpu_models,  # cpu_models
            row.regions,  # measured_in
            row.sources,  # sources
            row.samples,  # samples
            usd,  # usd_per_hour
            quote.note,  # price_note
            basis["per_dollar"],  # per_dollar
            basis["basis_figure"],  # basis_figure
            quote.effective_from,  # price_effective_from
            quote.in_force,  # price_in_force
            instance_type.allocation,  # cpu_allocation
            row.flagged_runs or 0,  # flagged_runs
            row.only_flagged,  # only_flagged
            row.verified_runs,  # verified_runs
            row.flags,  # flags
            row.statistics_id,  # statistics_id
            _float_or_none(quote.upfront_usd),  # upfront_usd
            _float_or_none(quote.hourly_usd),  # hourly_usd
            rate.currency,  # currency
            price,  # price_per_hour
            used.per_usd,  # exchange_rate
            used.day,  # exchange_rate_date
            estimate and estimate.estimate,  # estimate
            key,  # params_key
        )
        if len(basis) > 2:  # a burstable type's figures on every basis
            _set(priced, basis)
        if benchmark.unit == BANDWIDTH_UNIT:
            _set(priced, bandwidth_figures(instance_type, row.median, usd))
        table.results.append(priced)
    table.results = ranked(table.results, query.order)
    table.standing = stand(
        table.results,
        Noise.from_dict(benchmark.noise),
        higher_is_better=benchmark.higher_is_better,
    )
    if query.baseline:
        try:
            apply_baseline(table.results, query.baseline, benchmark)
        except DomainError as error:
            if not lenient:
                raise
            # The page keeps a baseline chosen for another benchmark or region: drop it.
            table.baseline = None
            notes.append(f"{error.message}: shown without a baseline")
    return table


def _set(row: PricePerformanceRow, values: dict[str, Any]) -> None:
    for name, value in values.items():
        setattr(row, name, value)


def _float_or_none(value) -> float | None:
    return None if value is None else float(value)
