"""The comparison page: a price-performance table, the menus around it and its chart data.

At most nine queries whatever the data's size: the benchmark menu, the region menu, the
purchase options of the region, and the price-performance table's six. (The demo's loading
note reads a small file, not the database.)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from benchmarks import catalog, inspector
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, Region
from benchmarks.selectors import demo, prices
from benchmarks.selectors.price_performance import (
    PricePerformanceQuery,
    PricePerformanceTable,
    price_performance_table,
)

DEFAULT_FAMILIES = ("fargate", "t2", "c7g", "c7a", "c7i")
DEFAULT_REGION = "us-east-1"
# Among benchmarks that cover the families equally well, the page opens on the first of these.
PREFERRED_BENCHMARKS = ("openssl:aes-256-cbc", "openssl:aes-128-gcm", "openssl:sha256")


@dataclass(frozen=True)
class ParamChoice:
    """One parameter of the benchmark: the values it was measured with, and the one shown."""

    name: str
    values: list[Any]
    selected: Any | None


@dataclass
class Comparison:
    """What the chart page shows: a table (None when the question was refused) and menus."""

    benchmarks: list[Benchmark]
    regions: list[Region]
    query: PricePerformanceQuery
    table: PricePerformanceTable | None = None
    purchase_options: list[str] = field(default_factory=list)
    params: list[ParamChoice] = field(default_factory=list)
    families_missing: list[str] = field(default_factory=list)
    # [(source, licence, runs)], most runs first.
    sources: list[tuple[str, str, int]] = field(default_factory=list)
    # The credit line the sources ask for (Spare Cores'), shown with the chart.
    credit: str | None = None
    # The benchmark menu: (kind, its benchmarks by key), kinds in name order, "Other" last.
    benchmark_groups: list[tuple[str, list[Benchmark]]] = field(default_factory=list)
    # While the demo's Spare Cores figures load in the background (make run).
    demo_note: str | None = None
    chart: dict | None = None
    # (field, message) of a refused question, shown beside its control.
    error: tuple[str | None, str] | None = None


def default_benchmark(benchmarks: list[Benchmark], families: tuple[str, ...]) -> Benchmark | None:
    """The benchmark whose results cover the most of the wanted families (no query)."""
    candidates = [benchmark for benchmark in benchmarks if benchmark.families]
    if not candidates:
        return None

    def preference(benchmark: Benchmark) -> tuple:
        key = benchmark.key
        rank = -PREFERRED_BENCHMARKS.index(key) if key in PREFERRED_BENCHMARKS else -999
        covered = set(benchmark.families)
        return (len(covered & set(families)), len(covered), rank, -benchmark.pk)

    return max(candidates, key=preference)


def comparison(query: PricePerformanceQuery) -> Comparison:
    """The chart page's data; an empty benchmark or region means the page's defaults.

    Parameters that do not apply to the benchmark are dropped and open ones pinned to their
    best-covered value, each with a note in the table, so that any choice renders.
    """
    benchmarks = [b for b in Benchmark.objects.order_by("key") if b.families]
    regions = prices.priced_regions()
    families = query.families or DEFAULT_FAMILIES
    chosen = query.benchmark or getattr(default_benchmark(benchmarks, families), "key", "")
    query = replace(
        query, benchmark=chosen, region=query.region or DEFAULT_REGION, families=families
    )
    result = Comparison(
        benchmarks=benchmarks,
        regions=regions,
        query=query,
        benchmark_groups=benchmark_groups(benchmarks),
        demo_note=demo.loading_note(),
    )
    if not chosen:
        return result
    try:
        table = price_performance_table(query, lenient=True, samples=True)
    except DomainError as error:
        result.error = (error.field, error.message)
        return result
    present = {row.family for row in [*table.results, *table.unpriced]}
    result.table = table
    result.purchase_options = prices.purchase_options_in(table.region)
    result.params = [
        ParamChoice(name, values, table.params.get(name))
        for name, values in table.benchmark.params.items()
    ]
    result.families_missing = [family for family in families if family not in present]
    result.sources = _sources(table)
    result.credit = inspector.credit_for(source for source, _, _ in result.sources)
    result.chart = chart_data(table)
    return result


def benchmark_groups(benchmarks: list[Benchmark]) -> list[tuple[str, list[Benchmark]]]:
    """The benchmarks by kind for the menu's groups; kinds by name, "Other" last."""
    groups: dict[str, list[Benchmark]] = {}
    for benchmark in sorted(benchmarks, key=lambda benchmark: benchmark.key):
        groups.setdefault(benchmark.group or catalog.OTHER, []).append(benchmark)
    return sorted(groups.items(), key=lambda item: (item[0] == catalog.OTHER, item[0]))


def _sources(table: PricePerformanceTable) -> list[tuple[str, str, int]]:
    counts: Counter = Counter()
    for row in table.results:
        for source, licence, runs in row.sources:
            counts[(source, licence)] += runs
    return [
        (source, licence, runs)
        for (source, licence), runs in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def chart_data(table: PricePerformanceTable) -> dict:
    """What the page's charts draw, embedded with json_script."""
    return {
        "benchmark": table.benchmark.key,
        "unit": table.benchmark.unit,
        "higher_is_better": table.benchmark.higher_is_better,
        "rows": [
            {
                "label": row.instance_type + (f" ({row.variant})" if row.variant else ""),
                "family": row.family,
                "per_dollar": row.per_dollar,
                "sustained_per_dollar": row.sustained_per_dollar,
                "samples": row.samples,
                "median": row.median,
                "cpu_models": row.cpu_models,
                "usd_per_hour": row.usd_per_hour,
            }
            for row in table.results
        ],
    }
