"""Price-performance: what a dollar buys on each instance type, from the kept statistics.

One question (`PricePerformanceQuery`) answered in at most six queries whatever the number of
results or types: the benchmark, the region, the series' statistics, and three for prices.
Results measured anywhere count (a benchmark measures the machine); the prices are the
region's. Results measured with different parameters are never mixed in one row.
"""

from __future__ import annotations

import datetime
import functools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

import orjson
from django.db.models import Q, QuerySet, Subquery, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from benchmarks import freshness
from benchmarks.errors import AmbiguousParameter, DomainError
from benchmarks.models import (
    Benchmark,
    InstanceType,
    PurchaseOption,
    Region,
    SeriesStatistics,
    family_of,
    in_family,
)
from benchmarks.reference import AWS_REGIONS
from benchmarks.selectors import prices
from benchmarks.selectors.lookups import get_benchmark, get_region

REGION_CODES = frozenset(region.code for region in AWS_REGIONS)


@dataclass(frozen=True)
class PricePerformanceQuery:
    """One question the page and the API ask, validated by `benchmarks.forms`."""

    benchmark: str
    region: str
    purchase_option: str = PurchaseOption.ON_DEMAND
    at: datetime.date | None = None
    # The benchmark's own parameters, by name, as the query gave them.
    params: dict[str, str] = field(default_factory=dict)
    instance_types: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    baseline: str | None = None
    # Only results measured in this region; None: wherever they were measured.
    measured_in: str | None = None
    include_values: bool = False
    include_quartiles: bool = False


@dataclass(slots=True)
class PricePerformanceRow:
    """One instance type and variant: its kept statistics, its price and what a dollar buys."""

    instance_type: str
    variant: str | None
    kind: str
    family: str
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
    per_dollar: float | None
    # Runs left out of the figures (benchmarks.flags); `only_flagged`: the figures come from
    # flagged runs, the series having no other. `flags`: [[flag, runs, [run ids]], ...].
    flagged_runs: int = 0
    only_flagged: bool = False
    flags: list = field(default_factory=list)
    # Burstable types: the sustained share of each vCPU, and the work per dollar once the
    # CPU credits are spent (the median was measured while bursting).
    baseline_share: float | None = None
    sustained_per_dollar: float | None = None
    relative_throughput: float | None = None
    relative_cost: float | None = None
    relative_per_dollar: float | None = None
    # Bandwidth benchmarks (unit bit/s, study S3): what AWS advertises beside the measured
    # figure, and the Gbit/s a dollar-hour buys.
    advertised_bandwidth: str | None = None
    gbit_per_second_per_usd_hour: float | None = None
    # The kept statistics' row, for reading its samples later (`read_samples`).
    statistics_id: int | None = None

    @property
    def key(self) -> str:
        """How `baseline=` names this row: `c7a.xlarge` or `c7a.xlarge:base`."""
        return f"{self.instance_type}:{self.variant}" if self.variant else self.instance_type

    @property
    def values_cut(self) -> bool:
        return self.results > len(self.samples)


@dataclass(frozen=True)
class Unpriced:
    """A type with results but no price in the region for the purchase option."""

    instance_type: str
    variant: str | None
    family: str
    reason: str
    runs: int
    median: float


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
    results: list[PricePerformanceRow] = field(default_factory=list)
    unpriced: list[Unpriced] = field(default_factory=list)
    # What the page changed in a question it could not answer as asked (lenient mode).
    notes: list[str] = field(default_factory=list)

    @property
    def has_burstable(self) -> bool:
        return any(row.sustained_per_dollar is not None for row in self.results)


def coerce_param(raw: str) -> Any:
    """A query's text as the value results store: an int, a float, or the text itself."""
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            continue
    return raw


def per_dollar(benchmark: Benchmark, median: float, usd_per_hour: float | None) -> float | None:
    """Units of work per dollar (higher is better), or jobs per dollar (durations), to
    PER_DOLLAR_DIGITS significant digits."""
    if not usd_per_hour:
        return None
    if benchmark.higher_is_better:
        value = median * 3600 / usd_per_hour
    elif median <= 0:
        return None
    else:
        value = 3600 / (median * usd_per_hour)
    return float(f"{value:.{PER_DOLLAR_DIGITS}g}") if math.isfinite(value) else None


# A quotient's seventeen digits (14661529.411764706) claim a precision no benchmark has: seven
# are far finer than any run-to-run spread, and a 1,000-row answer is 1.5% smaller.
PER_DOLLAR_DIGITS = 7


def _ratio(value: float) -> float:
    """Ratios to the baseline, to three decimals (three significant digits when smaller)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, max(3, 2 - math.floor(math.log10(abs(value)))))


def _sustained(
    instance_type: Machine,
    benchmark: Benchmark,
    median: float,
    usd: float | None,
    processes: Any,
) -> dict[str, float | None]:
    """Work per dollar of a burstable type once its CPU credits are spent."""
    if not instance_type.burstable or instance_type.baseline_share is None:
        return {}
    share = float(instance_type.baseline_share)
    # The baseline is a share of every vCPU, pooled: fewer busy processes than vCPUs each
    # get more of it, up to a whole vCPU. Without a process count, assume every vCPU is busy.
    vcpus = float(instance_type.vcpus or 1)
    busy = min(float(processes), vcpus) if isinstance(processes, int) and processes else vcpus
    fraction = min(1.0, share * vcpus / busy)
    sustained = median * fraction if benchmark.higher_is_better else median / fraction
    return {
        "baseline_share": share,
        "sustained_per_dollar": per_dollar(benchmark, sustained, usd),
    }


def _bandwidth(
    instance_type: Machine, benchmark: Benchmark, median: float, usd: float
) -> dict[str, Any]:
    """A bandwidth's row (unit bit/s): the advertised bandwidth and Gbit/s per dollar-hour."""
    if benchmark.unit != BANDWIDTH_UNIT:
        return {}
    return {
        "advertised_bandwidth": instance_type.network_performance or None,
        "gbit_per_second_per_usd_hour": median / 1e9 / usd if usd else None,
    }


BANDWIDTH_UNIT = "bit/s"


class Machine(NamedTuple):
    """What pricing and the burst model need of an instance type (read with its series)."""

    pk: int
    name: str
    kind: str
    vcpus: Decimal | None
    memory_gib: Decimal | None
    architecture: str
    burstable: bool
    baseline_share: Decimal | None
    network_performance: str

    @property
    def family(self) -> str:
        return family_of(self.kind, self.name)


class Kept(NamedTuple):
    """One series' kept statistics in the question's scope, as read (no model instances)."""

    statistics_id: int
    machine: Machine
    variant: str
    params: dict
    runs: int
    results: int
    median: float
    minimum: float
    maximum: float
    first_quartile: float
    third_quartile: float
    cpu_models: dict
    regions: list
    flagged_runs: int | None
    only_flagged: bool
    # _EXTRAS, in its order.
    sources: list
    flags: list
    samples: list


_MACHINE = [f"series__instance_type__{name}" for name in Machine._fields]
_NUMBERS = list(Kept._fields[4:11])  # runs ... third_quartile
_COUNTS = ["flagged_runs", "only_flagged"]
# JSON columns read as text and decoded with orjson: Django's converters were a third of the
# time of a 1,000-row answer.
_JSON = ("cpu_models", "regions")
# Read only for the page (and `include=values`); samples last: the page reads them apart.
_EXTRAS = ("sources", "flags", "samples")


@functools.lru_cache(maxsize=4096)
def _params_of(key: str) -> dict:
    """A series' parameters from their canonical text; rows share few, so each is read once.

    The dict is shared: never change it."""
    return orjson.loads(key)


def _statistics_query(
    benchmark: Benchmark, query: PricePerformanceQuery, params: dict[str, Any]
) -> QuerySet:
    """The kept statistics of every series the question covers."""
    if query.measured_in:
        # Per-region rows exist only for series measured in several regions.
        scope = Q(measured_in=query.measured_in) | Q(
            measured_in=SeriesStatistics.ALL_REGIONS, sole_region=query.measured_in
        )
    else:
        scope = Q(measured_in=SeriesStatistics.ALL_REGIONS)
    rows = SeriesStatistics.objects.filter(
        scope,
        series__benchmark=benchmark,
        **{f"series__params__{name}": value for name, value in params.items()},
    )
    if query.instance_types:
        rows = rows.filter(series__instance_type__name__in=query.instance_types)
    if query.families:
        wanted = Q()
        for family in query.families:
            wanted |= in_family(family)
        rows = rows.filter(
            series__instance_type__in=InstanceType.objects.filter(wanted).values("pk")
        )
    return rows


def _read(rows: QuerySet, extras: tuple[str, ...]) -> list[Kept]:
    """The statistics as plain tuples (one query); `extras`: a start of _EXTRAS to read."""
    texts = _JSON + extras
    found = (
        rows.order_by("series__instance_type__name", "series__variant", "series_id")
        .annotate(**{f"{name}_text": Cast(name, TextField()) for name in texts})
        .values_list(
            "pk",
            *_MACHINE,
            "series__variant",
            "series__params_key",
            *_NUMBERS,
            *_COUNTS,
            *(f"{name}_text" for name in texts),
        )
    )
    width, numbers, counts = len(_MACHINE) + 1, len(_NUMBERS), len(_NUMBERS) + len(_COUNTS)
    missing = [[]] * (len(_EXTRAS) - len(extras))
    kept = []
    for row in found:
        variant, key, *rest = row[width:]
        cpu_models, regions, *read = [orjson.loads(text) for text in rest[counts:]]
        kept.append(
            Kept(
                row[0],
                Machine(*row[1:width]),
                variant,
                _params_of(key),
                *rest[:numbers],
                cpu_models,
                regions,
                *rest[numbers:counts],
                *read,
                *missing,
            )
        )
    return kept


def read_samples(rows: list[PricePerformanceRow]) -> None:
    """Fill the kept samples of `rows` (read without them), in one query."""
    wanted = {row.statistics_id: row for row in rows if row.statistics_id is not None}
    if not wanted:
        return
    found = (
        SeriesStatistics.objects.filter(pk__in=wanted)
        .annotate(samples_text=Cast("samples", TextField()))
        .values_list("pk", "samples_text")
    )
    for pk, text in found:
        wanted[pk].samples = orjson.loads(text)


def _open_parameters(rows: list[Kept]) -> list[tuple[str, tuple, set]]:
    """(parameter, machine, values) for each parameter with several values in one row."""
    groups: dict[tuple, list[Kept]] = defaultdict(list)
    for row in rows:
        groups[(row.machine.name, row.variant)].append(row)
    ambiguous = []
    for machine, members in groups.items():
        if len(members) < 2:
            continue
        seen: dict[str, set] = defaultdict(set)
        for member in members:
            for name, value in member.params.items():
                seen[name].add(_hashable(value))
        for name, values in sorted(seen.items()):
            if len(values) > 1:
                ambiguous.append((name, machine, values))
    return ambiguous


def _hashable(value: Any) -> Any:
    return str(value) if isinstance(value, dict | list) else value


def _pin_or_refuse(
    rows: list[Kept], params: dict[str, Any], lenient: bool, notes: list[str]
) -> list[Kept]:
    """Refuse to mix parameters in a row; the page instead picks the best-covered value."""
    while True:
        ambiguous = _open_parameters(rows)
        if not ambiguous:
            return rows
        name, (type_name, _), values = ambiguous[0]
        if not lenient:
            shown = ", ".join(str(v) for v in sorted(values, key=str))
            raise AmbiguousParameter(
                f"results for {type_name} were measured with several values of "
                f"{name} ({shown}); choose one with {name}=",
                name=name,
            )
        coverage: dict[Any, set] = defaultdict(set)
        for row in rows:
            if name in row.params:
                coverage[_hashable(row.params[name])].add(row.machine.pk)
        best = max(coverage, key=lambda value: (len(coverage[value]), str(value)))
        params[name] = best
        notes.append(f"{name} set to {best}, the value most instance types were measured with")
        rows = [row for row in rows if _hashable(row.params.get(name)) == best]


def benchmark_params(
    benchmark: Benchmark,
    given: dict[str, str],
    *,
    lenient: bool = False,
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """A query's parameters as stored values; unknown names are refused with a DomainError
    naming the benchmark's own, or (`lenient`, the page) dropped with a note."""
    params = {}
    for name, raw in given.items():
        if name not in benchmark.params:
            if lenient:
                if notes is not None:
                    notes.append(f"{name}={raw} does not apply to {benchmark.key} and was dropped")
                continue
            listed = ", ".join(benchmark.params) or "none"
            raise DomainError(
                f"unknown parameter {name!r} for {benchmark.key} (its parameters: {listed})",
                field=name,
            )
        params[name] = coerce_param(str(raw))
    return params


@dataclass(frozen=True)
class Subject:
    """The benchmark and the region a question names, looked up once."""

    benchmark: Benchmark
    region: Region

    @property
    def changed_at(self) -> datetime.datetime | None:
        """When the data behind the answer last changed: the results or the region's prices."""
        stamps = [self.benchmark.stats_updated_at, self.region.prices_updated_at]
        return max((stamp for stamp in stamps if stamp), default=None)


def subject_of(query: PricePerformanceQuery) -> Subject:
    """The question's benchmark and region, or a DomainError naming the field.

    One query, remembered for a few seconds (benchmarks.freshness): a cached answer then
    costs none.
    """
    if query.measured_in and query.measured_in not in REGION_CODES:
        raise DomainError(f"unknown region {query.measured_in!r}", field="measured_in")
    return freshness.remembered(
        _subject_key(query.benchmark, query.region),
        lambda: _read_subject(query.benchmark, query.region),
    )


def recalled_subject(benchmark_key: str, region_code: str) -> Subject | None:
    """The subject `subject_of` read for these names a few seconds ago, or None: no query."""
    return freshness.recalled(_subject_key(benchmark_key, region_code))


def _subject_key(benchmark_key: str, region_code: str) -> str:
    return f"subject:{benchmark_key}|{region_code}"


_REGION_FIELDS = ("pk", "code", "name", "pricing_location", "prices_updated_at")


def _read_subject(benchmark_key: str, region_code: str) -> Subject:
    region_rows = Region.objects.filter(code=region_code)
    benchmark = (
        Benchmark.objects.filter(key=benchmark_key)
        .annotate(
            **{f"region_{name}": Subquery(region_rows.values(name)[:1]) for name in _REGION_FIELDS}
        )
        .order_by()
        .first()
    )
    if benchmark is None:
        get_benchmark(benchmark_key)  # raises, naming the closest keys
    if benchmark.region_pk is None:
        get_region(region_code)  # raises, naming the closest codes
    region = Region(**{name: getattr(benchmark, f"region_{name}") for name in _REGION_FIELDS})
    return Subject(benchmark=benchmark, region=region)


def price_performance_table(
    query: PricePerformanceQuery,
    *,
    subject: Subject | None = None,
    lenient: bool = False,
    sources: bool = False,
) -> PricePerformanceTable:
    """Per instance type and variant: statistics, price in the region, and per-dollar figures.

    `lenient` (the page): parameters that do not apply are dropped and open parameters pinned
    to their best-covered value, each with a note, instead of a 400. `sources` also reads
    each row's sources and flagged runs (the page, which reads the samples of the rows it
    draws with `read_samples`); `include_values` reads them and every row's samples.
    """
    at = query.at or timezone.localdate()
    subject = subject or subject_of(query)
    benchmark, region = subject.benchmark, subject.region
    notes: list[str] = []
    params = benchmark_params(benchmark, query.params, lenient=lenient, notes=notes)
    statistics = _statistics_query(benchmark, query, params)
    if query.include_values:
        extras = _EXTRAS
    elif sources:
        extras = _EXTRAS[:2]  # sources, flags
    else:
        extras = ()
    rows = _pin_or_refuse(_read(statistics, extras), params, lenient, notes)
    quotes = prices.hourly_prices(
        instance_types={row.machine for row in rows},
        among=statistics.values("series__instance_type_id"),
        region=region,
        purchase_option=query.purchase_option,
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
        notes=notes,
    )
    for row in rows:
        instance_type = row.machine
        quote = quotes[instance_type.pk]
        if quote.usd_per_hour is None:
            reason = quote.note or "no price known"
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
        table.results.append(
            PricePerformanceRow(
                instance_type=instance_type.name,
                variant=row.variant or None,
                kind=instance_type.kind,
                family=instance_type.family,
                vcpus=float(instance_type.vcpus) if instance_type.vcpus is not None else None,
                runs=row.runs,
                results=row.results,
                median=row.median,
                min=row.minimum,
                max=row.maximum,
                first_quartile=row.first_quartile,
                third_quartile=row.third_quartile,
                cpu_models=row.cpu_models,
                measured_in=row.regions,
                sources=row.sources,
                samples=row.samples,
                usd_per_hour=usd,
                price_note=quote.note,
                per_dollar=per_dollar(benchmark, row.median, usd),
                flagged_runs=row.flagged_runs or 0,
                only_flagged=row.only_flagged,
                flags=row.flags,
                statistics_id=row.statistics_id,
                **_sustained(
                    instance_type, benchmark, row.median, usd, row.params.get("processes")
                ),
                **_bandwidth(instance_type, benchmark, row.median, usd),
            )
        )
    table.results.sort(
        key=lambda row: (row.per_dollar is None, -(row.per_dollar or 0), row.instance_type)
    )
    if query.baseline:
        try:
            _apply_baseline(table.results, query.baseline, benchmark)
        except DomainError as error:
            if not lenient:
                raise
            # The page keeps a baseline chosen for another benchmark or region: drop it.
            table.baseline = None
            notes.append(f"{error.message}: shown without a baseline")
    return table


def _apply_baseline(rows: list[PricePerformanceRow], baseline: str, benchmark: Benchmark) -> None:
    name, _, variant = baseline.partition(":")
    candidates = [row for row in rows if row.instance_type == name]
    if variant:
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
            f"baseline {baseline} has no priced results for {benchmark.key} with these "
            "parameters in this region",
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
