"""The price-performance answer's rows and table: plain values, below every module that
builds, ranks or shows them (selectors/answer/price_performance.py builds them; kept_series,
baseline, standing, the sentence and the charts read them), and the orders they are listed in.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from benchmarks import units
from benchmarks.currency import NO_CONVERSION, USD, ExchangeRate
from benchmarks.fargate_estimate import estimated_label
from benchmarks.models import Benchmark, Region, qualified_name
from benchmarks.questions.price_performance import ORDERS
from benchmarks.questions.purchase import Purchase
from benchmarks.selectors.answer.standing import Standing


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
    # An estimated row (a Fargate size no task measured, selectors/answer/fargate_estimates.py):
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
    # Where the row stands (selectors/answer/standing.py): its rank by what a dollar buys, the ranks
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
    # What the benchmark's noise makes of the rows (selectors/answer/standing.py).
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
