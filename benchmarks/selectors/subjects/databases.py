"""Databases (study S5): what a dollar buys on each DB instance class and engine.

Results are uploaded against a DB instance class (`db.r3.large`, kind `database`) with the
engine as the run's variant (`aurora-mysql`, `mysql`, ...: ENGINES); each row prices the
class for its engine and deployment option in the region on the day. Three queries whatever
the number of rows: the benchmark, the kept statistics, the prices. Before any DB instance
class is measured, a question for a database benchmark (benchmarks/catalog.csv) is answered
with what to upload (`summary`), not refused.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from benchmarks import catalog
from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, DatabasePrice, InstanceType, SeriesStatistics
from benchmarks.per_dollar import per_dollar, per_price
from benchmarks.questions.parameters import benchmark_params
from benchmarks.reference import DATABASE_ENGINES, DEPLOYMENT_OPTIONS
from benchmarks.selectors.answer.kept_series import BenchmarkAnswer, figures
from benchmarks.selectors.answer.lookups import get_benchmark, get_region

# The engine as a run's variant -> the Price List's `databaseEngine`.
ENGINES = DATABASE_ENGINES
# The licence model of the open-source engines; another (Oracle's, SQL Server's) is dearer.
NO_LICENCE = "No license required"


@dataclass
class DatabaseRow:
    """One DB instance class and engine: kept statistics, hourly price, per-dollar figures."""

    instance_type: str
    engine: str
    engine_name: str
    runs: int
    median: float
    min: float
    max: float
    usd_per_hour: float
    price_source: str
    per_dollar: float | None
    per_usd_hour: float | None


@dataclass
class DatabaseUnpriced:
    """A class and engine with results but no price in force."""

    instance_type: str
    engine: str
    reason: str
    runs: int
    median: float


@dataclass(kw_only=True)
class DatabaseTable(BenchmarkAnswer):
    """The answer of `GET /api/v1/database-price-performance/` and of the databases page."""

    deployment_option: str
    results: list[DatabaseRow] = field(default_factory=list)
    unpriced: list[DatabaseUnpriced] = field(default_factory=list)
    # Set when no DB instance class is measured yet: what the answer needs and how to send it.
    summary: str | None = None


DATABASE_KIND = "Database"


def awaiting_databases(benchmark_key: str) -> str:
    """What the answer says before any DB instance class is measured: the data it needs."""
    return (
        f"No DB instance class is measured yet, so there is no {benchmark_key} to compare. "
        "Import the classes' prices (import_prices --api --service rds --region R, or an "
        "AmazonRDS offer file), then upload a sysbench output for a class with its engine as "
        "the variant: POST /api/v1/runs/ with instance_type=db.r3.large, region and "
        "variant=aurora-mysql."
    )


def _database_benchmark(benchmark_key: str) -> Benchmark | None:
    """The benchmark asked, or None when it is a database benchmark and no DB instance class
    is measured yet; a DomainError naming the benchmark otherwise."""
    benchmark = Benchmark.objects.filter(key=benchmark_key).first()
    if benchmark is not None:
        return benchmark
    kind, _ = catalog.describe(benchmark_key, "", higher_is_better=True)
    if kind == DATABASE_KIND and not database_benchmarks():
        return None
    return get_benchmark(benchmark_key)


def _unmeasured(benchmark_key: str) -> Benchmark:
    """A database benchmark not stored yet, with the unit sysbench's parser gives it."""
    if "latency" in benchmark_key:
        return Benchmark(key=benchmark_key, unit="ms", higher_is_better=False)
    unit = "query/s" if benchmark_key.endswith(":queries") else "tx/s"
    return Benchmark(key=benchmark_key, unit=unit)


def _pick(prices: list[DatabasePrice]) -> DatabasePrice | None:
    """The plain price of a class and engine: no licence bought, not I/O-Optimized, cheapest."""
    if not prices:
        return None
    return min(
        prices,
        key=lambda price: (
            price.io_optimized,
            price.license_model != NO_LICENCE,
            price.edition != "",
            price.usd_per_hour,
        ),
    )


def database_price_performance(
    *,
    benchmark_key: str,
    region_code: str,
    engines: tuple[str, ...] = (),
    deployment_option: str = "Single-AZ",
    at: datetime.date | None = None,
    params: dict[str, str] | None = None,
    instance_types: tuple[str, ...] = (),
) -> DatabaseTable:
    """Per DB instance class and engine: statistics, hourly price and what a dollar buys."""
    benchmark = _database_benchmark(benchmark_key)
    region = get_region(region_code)
    unknown = [engine for engine in engines if engine not in ENGINES]
    if unknown:
        raise DomainError(
            f"unknown engine {unknown[0]!r}; choose from {', '.join(ENGINES)}", field="engine"
        )
    if deployment_option not in DEPLOYMENT_OPTIONS:
        raise DomainError(
            f"deployment_option {deployment_option!r} is not one of "
            + ", ".join(DEPLOYMENT_OPTIONS),
            field="deployment_option",
        )
    day = at or timezone.localdate()
    if benchmark is None:
        return DatabaseTable(
            benchmark=_unmeasured(benchmark_key),
            region=region.code,
            deployment_option=deployment_option,
            at=day,
            params=dict(params or {}),
            summary=awaiting_databases(benchmark_key),
        )
    given = benchmark_params(benchmark, params or {})
    statistics = SeriesStatistics.objects.filter(
        measured_in=SeriesStatistics.ALL_REGIONS,
        series__benchmark=benchmark,
        series__instance_type__kind=InstanceType.Kind.DATABASE,
        series__variant__in=engines or tuple(ENGINES),
        **{f"series__params__{name}": value for name, value in given.items()},
    )
    if instance_types:
        statistics = statistics.filter(series__instance_type__name__in=instance_types)
    rows = list(
        statistics.select_related("series__instance_type").order_by(
            "series__instance_type__name", "series__variant"
        )
    )
    _refuse_mixed_parameters(rows)
    prices: dict[tuple[int, str], list[DatabasePrice]] = defaultdict(list)
    for price in DatabasePrice.objects.in_force_on(day).filter(
        region=region,
        deployment_option=deployment_option,
        instance_type_id__in={row.series.instance_type_id for row in rows},
        engine__in={ENGINES[row.series.variant] for row in rows},
    ):
        prices[(price.instance_type_id, price.engine)].append(price)

    table = DatabaseTable(
        benchmark=benchmark,
        region=region.code,
        deployment_option=deployment_option,
        at=day,
        params=given,
    )
    for row in rows:
        series = row.series
        engine_name = ENGINES[series.variant]
        price = _pick(prices[(series.instance_type_id, engine_name)])
        if price is None:
            table.unpriced.append(
                DatabaseUnpriced(
                    instance_type=series.instance_type.name,
                    engine=series.variant,
                    reason=(
                        f"no {engine_name} {deployment_option} price in force in {region.code} "
                        f"on {day}"
                    ),
                    runs=row.runs,
                    median=row.median,
                )
            )
            continue
        usd = float(price.usd_per_hour)
        table.results.append(
            DatabaseRow(
                instance_type=series.instance_type.name,
                engine=series.variant,
                engine_name=engine_name,
                **figures(row),
                usd_per_hour=usd,
                price_source=price.source,
                # Response times (lower is better) are shown beside the price, not divided.
                per_dollar=per_dollar(row.median, usd, higher_is_better=True)
                if benchmark.higher_is_better
                else None,
                per_usd_hour=per_price(row.median, usd) if benchmark.higher_is_better else None,
            )
        )
    if not rows and not database_benchmarks():
        # A benchmark measured on EC2 types only: still no DB instance class to show.
        table.summary = awaiting_databases(benchmark.key)
    return table


def _refuse_mixed_parameters(rows: list[SeriesStatistics]) -> None:
    """Results measured with different parameters never share a row: name one to choose."""
    seen: dict[tuple[int, str], dict[str, set]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        for name, value in row.series.params.items():
            seen[(row.series.instance_type_id, row.series.variant)][name].add(str(value))
    for (_, engine), values in seen.items():
        for name, found in sorted(values.items()):
            if len(found) > 1:
                raise DomainError(
                    f"results for {engine} were measured with several values of {name} "
                    f"({', '.join(sorted(found))}); choose one with {name}=",
                    field=name,
                )


def database_benchmarks() -> list[str]:
    """Keys of the benchmarks measured on some DB instance class, for the page's menu."""
    return [
        key
        for key, families in Benchmark.objects.order_by("key").values_list("key", "families")
        if any(family.startswith("db.") for family in families or ())
    ]
