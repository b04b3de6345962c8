"""What pricebench holds, listed: every benchmark with its coverage (`/benchmarks/`), and the
recent runs, filterable and paginated (`/runs/`).

Two queries for the benchmarks whatever the number of results: the benchmarks, and the
instance types measured with each, counted over the coverage kept at ingest
(`BenchmarkCoverage`, services/statistics/: no series, statistics or results read; the count
kept in the process while the benchmarks' statistics stay the same); for a
page of runs, the count and the page (each run's results counted by a correlated subquery, for the
page's rows only), and one lookup per filter given.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page
from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery
from django.urls import reverse

from benchmarks import freshness, units
from benchmarks.models import Benchmark, BenchmarkCoverage, Result, Run
from benchmarks.selectors.answer.lookups import get_benchmark, get_instance_type
from benchmarks.selectors.pages.benchmark_pages import TOOL_DESCRIPTIONS
from benchmarks.selectors.pages.paging import IdsFirstPaginator

RUNS_PER_PAGE = 50


@dataclass(frozen=True)
class BenchmarkSummary:
    """One benchmark on the index: what it measures, its unit, and how many types it covers."""

    benchmark: Benchmark
    reading: units.Reading
    instance_types: int

    @property
    def key(self) -> str:
        return self.benchmark.key

    @property
    def group(self) -> str:
        return self.benchmark.group or self.benchmark.tool

    @property
    def description(self) -> str:
        return self.benchmark.description or TOOL_DESCRIPTIONS.get(self.benchmark.tool, "")

    @property
    def families(self) -> int:
        return len(self.benchmark.families or [])

    @property
    def finder_url(self) -> str:
        """The finder ranked by this benchmark, only the types measured with it."""
        return f"{reverse('finder')}?{urlencode({'benchmark': self.key, 'measured': 'true'})}"


@dataclass(frozen=True)
class BenchmarkGroup:
    """Benchmarks of one kind (CPU, memory, network, ...)."""

    label: str
    benchmarks: list[BenchmarkSummary]


def benchmark_index() -> list[BenchmarkGroup]:
    """Every benchmark, grouped by kind, with the instance types and families it covers."""
    # Not the noise each benchmark keeps (docs/noise.md), nor its parameter values: the
    # index shows neither, and decoding them was most of its time (3 MB of JSON over 153
    # benchmarks on the full demo).
    benchmarks = list(Benchmark.objects.defer("noise", "params").order_by("key"))
    covered = _types_per_benchmark(benchmarks)
    groups: dict[str, list[BenchmarkSummary]] = {}
    for benchmark in benchmarks:
        summary = BenchmarkSummary(
            benchmark=benchmark,
            reading=units.reading(benchmark.key, benchmark.unit, benchmark.higher_is_better),
            instance_types=covered.get(benchmark.pk, 0),
        )
        groups.setdefault(summary.group, []).append(summary)
    return [BenchmarkGroup(label, groups[label]) for label in sorted(groups, key=str.lower)]


def _types_per_benchmark(benchmarks: list[Benchmark]) -> dict[int, int]:
    """Benchmark id -> the instance types measured with it, counted over the coverage kept
    at ingest: one query, kept in the process while no benchmark's statistics change (their
    `stats_updated_at`, which moves with the coverage). The count reads every (benchmark,
    type) pair, 224,000 on the full demo (40 ms): a page asked again reads none of them."""
    stamps = [benchmark.stats_updated_at for benchmark in benchmarks]
    stamp = (len(stamps), max((stamp for stamp in stamps if stamp), default=None))
    return freshness.kept_read(
        "catalogue:types-per-benchmark",
        lambda: dict(
            BenchmarkCoverage.objects.values("benchmark_id")
            .annotate(types=Count("*"))
            .order_by()
            .values_list("benchmark_id", "types")
        ),
        stamp=stamp,
    )


def run_list(
    *, instance_type: str = "", benchmark: str = "", status: str = "", page: int = 1
) -> Page:
    """A page of runs, newest first, of one instance type and benchmark when given; a
    DomainError names an unknown type or benchmark (with the closest names)."""
    runs = Run.objects.select_related("instance_type", "region")
    if instance_type:
        runs = runs.filter(instance_type=get_instance_type(instance_type))
    if benchmark:
        wanted = get_benchmark(benchmark)
        runs = runs.filter(Exists(Result.objects.filter(run=OuterRef("pk"), benchmark=wanted)))
    if status:
        runs = runs.filter(status=status)
    results = (
        Result.objects.filter(run=OuterRef("pk"))
        .order_by()
        .values("run")
        .annotate(count=Count("pk"))
        .values("count")
    )
    runs = runs.annotate(
        result_count=Subquery(results, output_field=IntegerField()),
        child_count=Subquery(
            Run.objects.filter(parent=OuterRef("pk"))
            .order_by()
            .values("parent")
            .annotate(count=Count("pk"))
            .values("count"),
            output_field=IntegerField(),
        ),
    ).defer("raw_output", "warnings")
    # Counted for the page's 50 runs only, not for every run skipped to reach it.
    return IdsFirstPaginator(runs, RUNS_PER_PAGE).get_page(page)
