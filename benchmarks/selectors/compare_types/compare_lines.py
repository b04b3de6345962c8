"""A compare answer's shape: its columns (the chosen types with their prices), its lines
(a benchmark, parameters and variant, a cell per type) and the whole. Plain values, below
the modules that build them (compare.py), word them (compare_sentence.py) and place them
(compare_regions.py)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from benchmarks import units
from benchmarks.models import InstanceType, PurchaseOption, Region
from benchmarks.questions.compare import CompareQuery
from benchmarks.selectors.answer import fargate_estimates

# Prices shown beside the chosen one, when the region has them.
PRICE_OPTIONS = (PurchaseOption.ON_DEMAND, PurchaseOption.SPOT)


@dataclass(frozen=True)
class Cell:
    """One type's figures on one line."""

    median: float
    runs: int
    per_dollar: float | None
    # Against the baseline's figures on the same line; None where it has none.
    relative_throughput: float | None = None
    relative_per_dollar: float | None = None
    # A Fargate size no task measured on the line: what its estimate says of itself
    # (selectors/answer/fargate_estimates.py); None for a measured figure.
    estimate: dict[str, Any] | None = None

    @property
    def estimated(self) -> bool:
        return self.estimate is not None

    @property
    def estimate_note(self) -> str:
        return fargate_estimates.describe(self.estimate) if self.estimate else ""


@dataclass
class Line:
    """One benchmark with one set of parameters and one variant: a figure per type."""

    benchmark: str
    unit: str
    higher_is_better: bool
    variant: str
    params: dict[str, Any]
    # Aligned with the comparison's types; None where a type has no result.
    cells: list[Cell | None]
    reading: units.Reading
    # The type that buys the most per dollar; None where a dollar buys none of the figure
    # (a latency) or no type is priced.
    best_per_dollar: str | None = None
    # The position of the type the line marks best (`_best`), and what makes it so.
    best_index: int | None = None
    best_by: str = ""
    # Where no type leads beyond the benchmark's noise: the positions within noise of the
    # best (empty otherwise).
    within_noise: list[int] = field(default_factory=list)

    @property
    def measured(self) -> int:
        return sum(1 for cell in self.cells if cell is not None and not cell.estimated)

    @property
    def has_estimates(self) -> bool:
        return any(cell is not None and cell.estimated for cell in self.cells)

    @property
    def shared_by_all(self) -> bool:
        return all(cell is not None for cell in self.cells)


@dataclass
class BenchmarkLines:
    """A benchmark (and variant): the parameter set most of the types share, then others."""

    benchmark: str
    variant: str
    lines: list[Line]
    # The chart page on this benchmark, limited to the compared types.
    chart_url: str = ""

    @property
    def main(self) -> Line:
        return self.lines[0]

    @property
    def others(self) -> list[Line]:
        return self.lines[1:]


@dataclass(frozen=True)
class Column:
    """One compared type: its specifications, the region it is priced in, and its prices."""

    instance_type: InstanceType
    is_baseline: bool
    # The price the per-dollar figures use, and the others shown, by purchase option.
    usd_per_hour: float | None
    price_note: str | None
    prices: dict[str, float | None]
    # Where it is priced: its vendor's region asked, else its cheapest (`cheapest`); None
    # where no region prices it bought the way asked.
    region: Region | None = None
    cheapest: bool = False

    @property
    def name(self) -> str:
        return self.instance_type.name

    def __str__(self) -> str:
        return self.name


@dataclass
class TypeComparison:
    """The compare page's answer."""

    query: CompareQuery
    # The region asked for its vendor (`region`): the page's menus start from it.
    region: Region
    at: datetime.date
    columns: list[Column]
    benchmarks: list[BenchmarkLines] = field(default_factory=list)
    summary: str = ""

    @property
    def baseline(self) -> Column:
        return next(column for column in self.columns if column.is_baseline)

    @property
    def names(self) -> list[str]:
        return [column.name for column in self.columns]

    @property
    def one_region(self) -> Region | None:
        """The region every type is priced in, where it is one."""
        regions = {column.region.pk if column.region else None for column in self.columns}
        return self.columns[0].region if len(regions) == 1 else None

    @property
    def price_options(self) -> list[str]:
        shown = [self.query.purchase_option]
        shown += [option for option in PRICE_OPTIONS if option not in shown]
        return [o for o in shown if any(c.prices.get(o) is not None for c in self.columns)]
