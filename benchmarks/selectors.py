"""Reads: hourly prices in force, and the price-performance table the API and pages show."""

from __future__ import annotations

import datetime
import difflib
import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet

from benchmarks.errors import AmbiguousParameter, DomainError
from benchmarks.models import (
    Benchmark,
    FargateRate,
    InstanceType,
    Price,
    PurchaseOption,
    Region,
    Result,
    Run,
    family_of,
)


@dataclass(frozen=True)
class PriceQuote:
    """An hourly price for a day, or None, with a note whenever it is not simply in force."""

    usd_per_hour: Decimal | None
    note: str | None = None


@dataclass
class PricePerformanceRow:
    """One instance type and variant: its results, its price and what a dollar buys."""

    instance_type: str
    variant: str | None
    runs: int
    median: float
    min: float
    max: float
    values: list[float]
    # (value, CPU model) of every result, for charts that colour the spread by CPU.
    samples: list[tuple[float, str]]
    cpu_models: dict[str, int]
    usd_per_hour: float | None
    price_note: str | None
    per_dollar: float | None
    kind: str = "ec2"
    family: str = ""
    # Burstable types: the sustained share of each vCPU, and the work per dollar once the
    # CPU credits are spent (the median was measured while bursting).
    baseline_share: float | None = None
    sustained_per_dollar: float | None = None
    relative_throughput: float | None = None
    relative_cost: float | None = None
    relative_per_dollar: float | None = None

    @property
    def key(self) -> str:
        """How `baseline=` names this row: `c7a.xlarge` or `c7a.xlarge:base`."""
        return f"{self.instance_type}:{self.variant}" if self.variant else self.instance_type


@dataclass
class PricePerformanceTable:
    """The answer of `GET /api/v1/price-performance/`."""

    benchmark: Benchmark
    region: Region
    purchase_option: str
    at: datetime.date
    params: dict[str, Any]
    baseline: str | None
    results: list[PricePerformanceRow] = field(default_factory=list)

    @property
    def has_burstable(self) -> bool:
        return any(row.sustained_per_dollar is not None for row in self.results)


# ---- lookups by name -------------------------------------------------------------------


def _unknown(what: str, name: str, choices: list[str], field: str) -> DomainError:
    close = difflib.get_close_matches(name, choices, n=3, cutoff=0.6)
    suggestion = f"; did you mean {', '.join(close)}?" if close else ""
    return DomainError(f"unknown {what} {name!r}{suggestion}", field=field)


def get_instance_type(name: str, *, field: str = "instance_type") -> InstanceType:
    """The instance type called `name`, or a DomainError that suggests the closest names."""
    found = InstanceType.objects.filter(name=name).first()
    if found is None:
        names = list(InstanceType.objects.values_list("name", flat=True))
        raise _unknown("instance type", name, names, field)
    return found


def get_region(code: str, *, field: str = "region") -> Region:
    """The region with AWS code `code`, or a DomainError that suggests the closest codes."""
    found = Region.objects.filter(code=code).first()
    if found is None:
        raise _unknown("region", code, list(Region.objects.values_list("code", flat=True)), field)
    return found


def get_benchmark(key: str, *, field: str = "benchmark") -> Benchmark:
    """The benchmark with `key`, or a DomainError that suggests the closest keys."""
    found = Benchmark.objects.filter(key=key).first()
    if found is None:
        raise _unknown(
            "benchmark", key, list(Benchmark.objects.values_list("key", flat=True)), field
        )
    return found


# ---- prices ---------------------------------------------------------------------------


def _period_text(period: Price | FargateRate) -> str:
    until = f" to {period.effective_to}" if period.effective_to else ""
    return f"in force from {period.effective_from}{until}"


def _pick_period(periods: list, day: datetime.date) -> tuple[Any | None, str | None]:
    """The period in force on `day`, else the nearest one with a note saying so."""
    if not periods:
        return None, None
    for period in periods:
        if period.effective_from <= day and (
            period.effective_to is None or period.effective_to >= day
        ):
            return period, None
    earlier = [p for p in periods if p.effective_to is not None and p.effective_to < day]
    later = [p for p in periods if p.effective_from > day]
    if later and (
        not earlier or (later[0].effective_from - day) <= (day - earlier[-1].effective_to)
    ):
        nearest = later[0]
        which = "the earliest price known" if nearest is periods[0] else "the next price known"
    else:
        nearest = earlier[-1]
        which = "the latest price known" if nearest is periods[-1] else "the previous price known"
    return nearest, f"no price in force on {day}; using {which}, {_period_text(nearest)}"


def _ec2_quote(periods: list[Price], day: datetime.date, purchase_option: str) -> PriceQuote:
    by_zone: dict[str, list[Price]] = defaultdict(list)
    for period in periods:
        by_zone[period.availability_zone].append(period)
    picks = []
    for zone, zone_periods in by_zone.items():
        chosen, note = _pick_period(sorted(zone_periods, key=lambda p: p.effective_from), day)
        picks.append((chosen.usd_per_hour, zone, note))
    in_force = [pick for pick in picks if pick[2] is None] or picks
    usd, zone, note = min(in_force, key=lambda pick: (pick[0], pick[1]))
    if purchase_option == PurchaseOption.SPOT and zone:
        zone_note = f"cheapest of {len(in_force)} availability zones: {zone}"
        note = f"{zone_note}; {note}" if note else zone_note
    return PriceQuote(usd, note)


def _fargate_quote(
    instance_type: InstanceType, rates: list[FargateRate], day: datetime.date
) -> PriceQuote:
    architecture = instance_type.architecture or "x86_64"
    total, notes = Decimal(0), []
    for component, amount in (
        (FargateRate.Component.VCPU, instance_type.vcpus),
        (FargateRate.Component.MEMORY_GB, instance_type.memory_gib),
    ):
        periods = sorted(
            (r for r in rates if r.component == component and r.architecture == architecture),
            key=lambda r: r.effective_from,
        )
        chosen, note = _pick_period(periods, day)
        if chosen is None:
            return PriceQuote(None, f"no Fargate {architecture} {component} rate known")
        total += chosen.usd_per_unit_hour * amount
        if note:
            notes.append(f"{component}: {note}")
    return PriceQuote(total, "; ".join(notes) or None)


def hourly_prices(
    *,
    instance_types: list[InstanceType],
    region: Region,
    purchase_option: str,
    day: datetime.date,
) -> dict[int, PriceQuote]:
    """Price quotes by instance type id: EC2 from its prices, Fargate from its rates."""
    ec2_ids = [it.id for it in instance_types if it.kind == InstanceType.Kind.EC2]
    periods: dict[int, list[Price]] = defaultdict(list)
    for price in Price.objects.filter(
        instance_type_id__in=ec2_ids, region=region, purchase_option=purchase_option
    ).order_by("effective_from"):
        periods[price.instance_type_id].append(price)
    rates = list(FargateRate.objects.filter(region=region, operating_system="linux"))

    quotes = {}
    for instance_type in instance_types:
        if instance_type.kind == InstanceType.Kind.FARGATE:
            if purchase_option != PurchaseOption.ON_DEMAND:
                quotes[instance_type.id] = PriceQuote(
                    None, f"no Fargate {purchase_option} price known"
                )
            else:
                quotes[instance_type.id] = _fargate_quote(instance_type, rates, day)
        elif periods.get(instance_type.id):
            quotes[instance_type.id] = _ec2_quote(periods[instance_type.id], day, purchase_option)
        else:
            quotes[instance_type.id] = PriceQuote(
                None, f"no {purchase_option} price known for {instance_type.name} in {region.code}"
            )
    return quotes


# ---- price-performance ----------------------------------------------------------------


def _coerce_param(raw: str) -> Any:
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def benchmark_params(benchmark: Benchmark) -> dict[str, list[Any]]:
    """The parameter names this benchmark's results carry, with their distinct values."""
    values: dict[str, set] = defaultdict(set)
    for params in Result.objects.filter(benchmark=benchmark).values_list("params", flat=True):
        for name, value in params.items():
            values[name].add(value)
    return {name: sorted(found, key=_param_order) for name, found in sorted(values.items())}


def _param_order(value: Any) -> tuple:
    """Numbers first, in numeric order, then everything else as text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value))


def _ratio(value: float) -> float:
    """Ratios to the baseline, to three decimals (three significant digits when smaller)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, max(3, 2 - math.floor(math.log10(abs(value)))))


def _per_dollar(benchmark: Benchmark, median: float, usd_per_hour: float | None) -> float | None:
    if not usd_per_hour:
        return None
    if benchmark.higher_is_better:
        return median * 3600 / usd_per_hour
    if median <= 0:
        return None
    return 3600 / (median * usd_per_hour)


def _processes(results: list[Result]) -> int | None:
    """The `processes` parameter the row's results share, if they share one."""
    counts = {result.params.get("processes") for result in results}
    if len(counts) == 1:
        (count,) = counts
        if isinstance(count, int):
            return count
    return None


def _sustained(
    instance_type: InstanceType,
    benchmark: Benchmark,
    median: float,
    usd: float | None,
    processes: int | None,
) -> dict[str, float | None]:
    """Work per dollar of a burstable type once its CPU credits are spent."""
    if not instance_type.burstable or instance_type.baseline_share is None:
        return {}
    share = float(instance_type.baseline_share)
    # The baseline is a share of every vCPU, pooled: fewer busy processes than vCPUs each
    # get more of it, up to a whole vCPU. Without a process count, assume every vCPU is busy.
    vcpus = float(instance_type.vcpus or 1)
    busy = min(float(processes), vcpus) if processes else vcpus
    fraction = min(1.0, share * vcpus / busy)
    sustained = median * fraction if benchmark.higher_is_better else median / fraction
    return {
        "baseline_share": share,
        "sustained_per_dollar": _per_dollar(benchmark, sustained, usd),
    }


def _results_for(
    *,
    benchmark: Benchmark,
    region: Region,
    params: dict[str, Any],
    instance_type_names: list[str] | None,
) -> QuerySet[Result]:
    results = Result.objects.filter(
        benchmark=benchmark, run__region=region, run__status=Run.Status.DONE
    ).select_related("run__instance_type")
    for name, value in params.items():
        results = results.filter(**{f"params__{name}": value})
    if instance_type_names:
        results = results.filter(run__instance_type__name__in=instance_type_names)
    return results


def _check_params_pinned(groups: dict, params: dict[str, Any]) -> None:
    """Refuse to mix results measured with different parameters inside one row."""
    for (instance_type, _variant), results in groups.items():
        seen: dict[str, set] = defaultdict(set)
        for result in results:
            for name, value in result.params.items():
                if name not in params:
                    seen[name].add(value)
        for name, values in sorted(seen.items()):
            if len(values) > 1:
                shown = ", ".join(str(v) for v in sorted(values, key=str))
                raise AmbiguousParameter(
                    f"results for {instance_type.name} were measured with several values of "
                    f"{name} ({shown}); choose one with {name}=",
                    name=name,
                )


def _parse_baseline(baseline: str) -> tuple[str, str | None]:
    name, _, variant = baseline.partition(":")
    return name, (variant or None)


def _apply_baseline(rows: list[PricePerformanceRow], baseline: str, benchmark: Benchmark) -> None:
    name, variant = _parse_baseline(baseline)
    candidates = [row for row in rows if row.instance_type == name]
    if variant is not None:
        candidates = [row for row in candidates if row.variant == variant]
    elif len(candidates) > 1:
        plain = [row for row in candidates if row.variant is None]
        if len(plain) != 1:
            variants = ", ".join(sorted(str(row.variant) for row in candidates))
            raise DomainError(
                f"baseline {name} has several variants ({variants}); name one as {name}:VARIANT",
                field="baseline",
            )
        candidates = plain
    if not candidates:
        raise DomainError(
            f"baseline {baseline} has no results for {benchmark.key} with these parameters",
            field="baseline",
        )
    base = candidates[0]
    for row in rows:
        if benchmark.higher_is_better:
            row.relative_throughput = _ratio(row.median / base.median) if base.median else None
        else:
            row.relative_throughput = _ratio(base.median / row.median) if row.median else None
        if row.usd_per_hour is not None and base.usd_per_hour:
            row.relative_cost = _ratio(row.usd_per_hour / base.usd_per_hour)
        if row.per_dollar is not None and base.per_dollar:
            row.relative_per_dollar = _ratio(row.per_dollar / base.per_dollar)


def price_performance_table(
    *,
    benchmark_key: str,
    region_code: str,
    purchase_option: str = PurchaseOption.ON_DEMAND,
    at: datetime.date | None = None,
    params: dict[str, str] | None = None,
    instance_type_names: list[str] | None = None,
    families: list[str] | None = None,
    baseline: str | None = None,
) -> PricePerformanceTable:
    """Per instance type and variant: runs, median/min/max, CPU models, price, per-dollar."""
    at = at or datetime.date.today()
    params = {name: _coerce_param(str(value)) for name, value in (params or {}).items()}
    benchmark = get_benchmark(benchmark_key)
    region = get_region(region_code)
    known_params = benchmark_params(benchmark)
    for name in params:
        if name not in known_params:
            listed = ", ".join(known_params) or "none"
            raise DomainError(
                f"unknown parameter {name!r} for {benchmark.key} (its parameters: {listed})",
                field=name,
            )

    groups: dict[tuple[InstanceType, str], list[Result]] = defaultdict(list)
    for result in _results_for(
        benchmark=benchmark, region=region, params=params, instance_type_names=instance_type_names
    ):
        instance_type = result.run.instance_type
        if families and instance_type.family not in families:
            continue
        groups[(instance_type, result.run.variant)].append(result)
    _check_params_pinned(groups, params)

    instance_types = list({instance_type for instance_type, _ in groups})
    quotes = hourly_prices(
        instance_types=instance_types, region=region, purchase_option=purchase_option, day=at
    )
    rows = []
    for (instance_type, variant), results in groups.items():
        values = [result.value for result in results]
        runs = {result.run_id: result.run for result in results}
        quote = quotes[instance_type.id]
        usd = float(quote.usd_per_hour) if quote.usd_per_hour is not None else None
        median = statistics.median(values)
        rows.append(
            PricePerformanceRow(
                instance_type=instance_type.name,
                variant=variant or None,
                runs=len(runs),
                median=median,
                min=min(values),
                max=max(values),
                values=values,
                samples=[(result.value, result.run.cpu_model or "unknown") for result in results],
                cpu_models=dict(
                    Counter(run.cpu_model or "unknown" for run in runs.values()).most_common()
                ),
                usd_per_hour=usd,
                price_note=quote.note,
                per_dollar=_per_dollar(benchmark, median, usd),
                kind=instance_type.kind,
                family=instance_type.family,
                **_sustained(instance_type, benchmark, median, usd, _processes(results)),
            )
        )
    rows.sort(key=lambda row: (row.per_dollar is None, -(row.per_dollar or 0), row.instance_type))
    if baseline:
        _apply_baseline(rows, baseline, benchmark)
    return PricePerformanceTable(
        benchmark=benchmark,
        region=region,
        purchase_option=purchase_option,
        at=at,
        params=params,
        baseline=baseline,
        results=rows,
    )


# ---- the comparison page ---------------------------------------------------------------

DEFAULT_FAMILIES = ["fargate", "t2", "c7g", "c7a", "c7i"]
# Among benchmarks that cover the families equally well, the page opens on the first of these.
PREFERRED_BENCHMARKS = ["openssl:aes-256-cbc", "openssl:aes-128-gcm", "openssl:sha256"]


@dataclass(frozen=True)
class ParamChoice:
    """One parameter of the benchmark: the values it was measured with, and the one shown."""

    name: str
    values: list[Any]
    selected: Any | None


@dataclass
class Comparison:
    """What the chart page shows: a price-performance table and the choices around it."""

    table: PricePerformanceTable
    benchmarks: list[Benchmark]
    params: list[ParamChoice]
    families: list[str]
    families_missing: list[str]
    sources: list[tuple[str, str]]


def priced_regions() -> list[Region]:
    """The regions with at least one EC2 price or Fargate rate, for the page's region menu."""
    return list(
        Region.objects.filter(Q(prices__isnull=False) | Q(fargate_rates__isnull=False)).distinct()
    )


def _families_by_benchmark(region: Region) -> dict[int, set[str]]:
    covered: dict[int, set[str]] = defaultdict(set)
    rows = (
        Result.objects.filter(run__region=region, run__status=Run.Status.DONE)
        .values_list("benchmark_id", "run__instance_type__kind", "run__instance_type__name")
        .distinct()
    )
    for benchmark_id, kind, name in rows:
        covered[benchmark_id].add(family_of(kind, name))
    return covered


def default_benchmark(*, region: Region, families: list[str]) -> Benchmark | None:
    """The benchmark whose results cover the most of the wanted families in the region."""
    covered = _families_by_benchmark(region)
    if not covered:
        return None
    keys = dict(Benchmark.objects.filter(pk__in=covered).values_list("pk", "key"))

    def preference(benchmark_id: int) -> int:
        key = keys[benchmark_id]
        return -PREFERRED_BENCHMARKS.index(key) if key in PREFERRED_BENCHMARKS else -999

    best = max(
        covered,
        key=lambda benchmark_id: (
            len(covered[benchmark_id] & set(families)),
            len(covered[benchmark_id]),
            preference(benchmark_id),
            -benchmark_id,
        ),
    )
    return Benchmark.objects.get(pk=best)


def _most_covered_value(benchmark: Benchmark, region: Region, name: str) -> Any:
    """The value of a parameter that the most instance types were measured with."""
    coverage: dict[Any, set[int]] = defaultdict(set)
    rows = Result.objects.filter(benchmark=benchmark, run__region=region).values_list(
        "params", "run__instance_type_id"
    )
    for params, instance_type_id in rows:
        if name in params:
            coverage[params[name]].add(instance_type_id)
    return max(coverage, key=lambda value: (len(coverage[value]), str(value)))


def comparison(
    *,
    region_code: str,
    benchmark_key: str | None = None,
    purchase_option: str = PurchaseOption.ON_DEMAND,
    at: datetime.date | None = None,
    params: dict[str, str] | None = None,
    families: list[str] | None = None,
    baseline: str | None = None,
) -> Comparison | None:
    """The chart page's data; parameters left open are pinned to the best-covered value.

    `families` None means Fargate, t2, c7g, c7a and c7i; an empty list means every family.
    """
    families = list(DEFAULT_FAMILIES) if families is None else families
    region = get_region(region_code)
    if benchmark_key:
        benchmark = get_benchmark(benchmark_key)
    else:
        benchmark = default_benchmark(region=region, families=families or DEFAULT_FAMILIES)
        if benchmark is None:
            return None
    params = {name: str(value) for name, value in (params or {}).items()}
    while True:
        try:
            table = price_performance_table(
                benchmark_key=benchmark.key,
                region_code=region.code,
                purchase_option=purchase_option,
                at=at,
                params=params,
                families=families,
                baseline=baseline,
            )
            break
        except AmbiguousParameter as error:
            # Each pass pins one more parameter, so this ends once none is left open.
            params[error.name] = str(_most_covered_value(benchmark, region, error.name))
    present = {row.family for row in table.results}
    sources = sorted(
        set(
            Run.objects.filter(
                results__benchmark=benchmark, region=region, status=Run.Status.DONE
            ).values_list("source", "licence")
        )
    )
    return Comparison(
        table=table,
        benchmarks=list(Benchmark.objects.filter(results__run__region=region).distinct()),
        params=[
            ParamChoice(name, values, table.params.get(name))
            for name, values in benchmark_params(benchmark).items()
        ],
        families=families,
        families_missing=[family for family in families if family not in present],
        sources=sources,
    )
