"""The instance type page: specifications, prices over time, and ranks in each benchmark.

Five queries whatever the data's size: the type, its EC2 prices (or the Fargate rates its
price follows from), its ranks from the kept statistics (counted in SQL, one pass over the
peers of each series of the type), and its latest runs.
"""

from __future__ import annotations

import datetime
import functools
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote_plus

import orjson
from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from benchmarks import cpu_models, palette, units
from benchmarks.models import (
    COMMITMENT_FIELDS,
    DatabasePrice,
    FargateRate,
    InstanceType,
    Price,
    Run,
    Series,
    SeriesStatistics,
)
from benchmarks.models.prices import purchase_label
from benchmarks.reference import fargate_first_sold, fargate_unsold
from benchmarks.selectors.answer.kept_series import params_of
from benchmarks.selectors.answer.lookups import get_instance_type
from benchmarks.selectors.costs.fargate_prices import FARGATE_COMPONENTS
from benchmarks.selectors.pages import instance_type_facts as facts

RECENT_RUNS = 20


@dataclass(frozen=True)
class PricePeriod:
    """One price of the type: from a day, to a day (None: still in force)."""

    usd_per_hour: float
    effective_from: datetime.date
    effective_to: datetime.date | None
    source: str


@dataclass
class PriceLine:
    """The type's price in one region for one purchase option (and zone), over time."""

    region: str
    purchase_option: str
    availability_zone: str
    periods: list[PricePeriod] = field(default_factory=list)

    @property
    def label(self) -> str:
        zone = f" {self.availability_zone}" if self.availability_zone else ""
        return f"{self.region} {purchase_label(self.purchase_option)}{zone}"

    @property
    def current(self) -> PricePeriod:
        return self.periods[-1]


@dataclass(frozen=True)
class Rank:
    """Where the type stands among the types measured with one benchmark and parameters."""

    benchmark: str
    unit: str
    higher_is_better: bool
    variant: str
    params: dict[str, Any]
    median: float
    runs: int
    # None: not counted (a parameter set other than the main one, the page not asked for
    # every rank: `ranks_of`).
    rank: int | None
    out_of: int
    reading: units.Reading
    # The processor lottery: how often each CPU model was met, when there were several
    # ("4 of 5 tasks ran on Intel Xeon E5-2676 v3", ...: cpu_models.odds).
    odds: tuple[str, ...] = ()

    @property
    def setting(self) -> str:
        """How the type was measured: `variant; block_size=8192, threads=1`."""
        params = ", ".join(f"{name}={value}" for name, value in self.params.items())
        return f"{self.variant}; {params}" if self.variant else params

    @property
    def shown_median(self) -> str:
        """The median in the reading's unit (`1.23 GB/s`)."""
        return self.reading.value.format(self.median)

    @property
    def comparison_url(self) -> str:
        """The comparison this rank comes from, with every family measured."""
        query = {"benchmark": self.benchmark, "families": "", **self.params}
        return f"{_comparison_path()}?{_query_string(query)}"


@functools.cache
def _comparison_path() -> str:
    return reverse("comparison")


def _query_string(query: dict[str, Any]) -> str:
    """`urlencode(query)`, each name and value quoted once per process: a page of a thousand
    ranks repeats a few hundred names and values, and urlencode's own steps were a third of
    the page's time (docs/performance.md, "Instance-type pages at the full demo's size")."""
    return "&".join(
        f"{_quoted(str(name))}={_quoted(value if isinstance(value, str) else str(value))}"
        for name, value in query.items()
    )


@functools.lru_cache(maxsize=16384)
def _quoted(text: str) -> str:
    return quote_plus(text)


@dataclass(frozen=True)
class BenchmarkRanks:
    """A benchmark's ranks: the best-covered parameter set first, then the others."""

    benchmark: str
    ranks: list[Rank]

    @property
    def main(self) -> Rank:
        return self.ranks[0]

    @property
    def others(self) -> list[Rank]:
        return self.ranks[1:]


@dataclass
class RegionPrices:
    """A region's on-demand price and cheapest spot zone now (None: no such price)."""

    region: str
    on_demand: float | None = None
    spot: float | None = None
    spot_zone: str = ""


@dataclass
class InstanceTypePage:
    """Everything the instance type page shows."""

    instance_type: InstanceType
    colour: str
    lines: list[PriceLine]
    price_basis: str
    ranks: list[BenchmarkRanks]
    runs: list[Run]
    # Whether every parameter set's rank was counted, or each benchmark's main one alone.
    every_rank: bool = False

    @property
    def network(self) -> facts.Network | None:
        """The type's network as its vendor sells it (burst, baseline, the vendor's words)."""
        return facts.network_of(self.instance_type)

    @property
    def month_convention(self) -> str:
        """Whose convention the cost table's 730-hour month is."""
        return facts.month_convention(self.instance_type.vendor)

    def price_now(self, region: str | None = None) -> facts.PriceNow | None:
        """The price in force now in `region` (else the page's default region), for the
        first screen: from the lines, no query."""
        return facts.price_now(self.regions_by_price, region)

    @property
    def has_spot(self) -> bool:
        return any(line.availability_zone for line in self.lines)

    @property
    def verified_runs(self) -> int:
        """How many of the latest runs listed are verified (Run.verified)."""
        return sum(run.verified for run in self.runs)

    @property
    def regions_by_price(self) -> list[RegionPrices]:
        """Each region with an on-demand or spot price in force, cheapest on demand first (then
        those with spot only): from the lines, no query."""
        found: dict[str, RegionPrices] = {}
        for line in self.lines:
            current = line.current
            if current.effective_to is not None:
                continue
            prices = found.setdefault(line.region, RegionPrices(line.region))
            if line.purchase_option == "on_demand":
                prices.on_demand = current.usd_per_hour
            elif line.purchase_option == "spot" and (
                prices.spot is None or current.usd_per_hour < prices.spot
            ):
                prices.spot, prices.spot_zone = current.usd_per_hour, line.availability_zone
        return sorted(
            (prices for prices in found.values() if prices.on_demand or prices.spot),
            key=lambda prices: (
                prices.on_demand is None,
                prices.on_demand or prices.spot,
                prices.region,
            ),
        )


def instance_type_page(name: str, *, every_rank: bool = False) -> InstanceTypePage:
    """The page of one instance type; DomainError (404) for an unknown name. Each benchmark's
    main parameter set is ranked, or (`every_rank`) every parameter set (`ranks_of`)."""
    instance_type = get_instance_type(name)
    if instance_type.kind == InstanceType.Kind.FARGATE:
        lines, basis = _fargate_lines(instance_type)
    else:
        lines, basis = _ec2_lines(instance_type), facts.price_basis(instance_type.vendor)
    return InstanceTypePage(
        instance_type=instance_type,
        colour=palette.family_colour(instance_type.family),
        lines=lines,
        price_basis=basis,
        ranks=ranks_of(instance_type, every=every_rank),
        every_rank=every_rank,
        runs=list(
            Run.objects.filter(instance_type=instance_type)
            .select_related("region")
            .order_by("-measured_at", "-created_at")[:RECENT_RUNS]
        ),
    )


def _ec2_lines(instance_type: InstanceType) -> list[PriceLine]:
    rows = (
        Price.objects.filter(instance_type=instance_type)
        .order_by(
            "region__code",
            "purchase_option",
            *COMMITMENT_FIELDS,
            "availability_zone",
            "effective_from",
        )
        .values_list(
            "region__code",
            "purchase_option",
            "availability_zone",
            "usd_per_hour",
            "effective_from",
            "effective_to",
            "source",
            *COMMITMENT_FIELDS,
        )
    )
    lines: dict[tuple, PriceLine] = {}
    for region, option, zone, usd, start, end, source, *commitment in rows:
        # A commitment's line names it: "reserved 3y all_upfront standard".
        option = " ".join([option, *(word for word in commitment if word)])
        line = lines.setdefault((region, option, zone), PriceLine(region, option, zone))
        line.periods.append(PricePeriod(float(usd), start, end, source))
    return list(lines.values())


def _fargate_lines(instance_type: InstanceType) -> tuple[list[PriceLine], str]:
    """A task's price in each region, from the vCPU and GB rates, period by period."""
    architecture = instance_type.architecture or "x86_64"
    rates = (
        FargateRate.objects.filter(
            operating_system="linux", architecture=architecture, purchase_option="on_demand"
        )
        .order_by("region__code", "effective_from")
        .values_list("region__code", "component", "usd_per_unit_hour", "effective_from", "source")
    )
    by_region: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for region, component, usd, start, source in rates:
        by_region[region][component].append((start, usd, source))
    lines = []
    for region, components in sorted(by_region.items()):
        wanted = [component for component, _size in FARGATE_COMPONENTS]
        if not all(components.get(component) for component in wanted):
            continue
        line = PriceLine(region, "on_demand", "")
        # From the day AWS first sold the size: the rates in force before it priced no such task.
        sold = fargate_first_sold(instance_type.vcpus, architecture).first_sold
        starts = {start for component in wanted for start, _, _ in components[component]}
        days = sorted(
            day
            for day in {*starts, sold}
            if not fargate_unsold(instance_type.vcpus, architecture, day)
        )
        for index, day in enumerate(days):
            total, sources = Decimal(0), []
            for component, size in FARGATE_COMPONENTS:
                in_force = [item for item in components[component] if item[0] <= day]
                if not in_force:
                    break
                _start, usd, source = in_force[-1]
                total += usd * getattr(instance_type, size)
                sources.append(source)
            else:
                end = days[index + 1] - datetime.timedelta(1) if index + 1 < len(days) else None
                line.periods.append(PricePeriod(float(total), day, end, "; ".join(sources)))
        if line.periods:
            lines.append(line)
    basis = (
        f"Fargate rates per vCPU-hour and GB-hour × {float(instance_type.vcpus):g} vCPU and "
        f"{float(instance_type.memory_gib):g} GB"
    )
    return lines, basis


def ranks_of(instance_type: InstanceType, *, every: bool = False) -> list[BenchmarkRanks]:
    """The type's rank in every benchmark and parameter set it was measured with: counted for
    each benchmark's main parameter set (the one most types were measured with, the
    comparison's default), or with `every` for all of them.

    One query, whatever the data's size: per statistics row of the type, its peers' count
    kept at ingest (`PeerGroup`), and those better than the type counted over their entries
    in the `statistics_peers` index from the type's median on. The index holds every figure
    the count reads, so PostgreSQL counts from it alone, without visiting the peers' rows
    (docs/performance.md, "Ten million results"). The counts are what the query spends:
    about half of a peer group's entries each, some 120,000 for a type measured with 200
    parameter sets; the main sets alone, a twentieth of that.
    """
    with connection.cursor() as cursor:
        cursor.execute(_RANKS, [ALL_REGIONS, instance_type.pk, every, ALL_REGIONS, ALL_REGIONS])
        rows = cursor.fetchall()
    grouped: dict[str, list[Rank]] = defaultdict(list)
    readings: dict[str, units.Reading] = {}
    for key, unit, higher, variant, params, median, runs, models, out_of, better in rows:
        params = params_of(params)
        reading = readings.get(key) or readings.setdefault(key, units.reading(key, unit, higher))
        grouped[key].append(
            Rank(
                benchmark=key,
                unit=unit,
                higher_is_better=higher,
                variant=variant,
                params=params,
                median=median,
                runs=runs,
                rank=None if better is None else 1 + better,
                out_of=out_of,
                reading=reading,
                odds=_odds(models, instance_type.kind),
            )
        )
    return [BenchmarkRanks(key, ranks) for key, ranks in grouped.items()]


def _odds(models: str | dict, kind: str) -> tuple[str, ...]:
    """`cpu_models.odds` of a row's CPU models as the query gives them (JSON text)."""
    if isinstance(models, str):
        models = orjson.loads(models)
    return tuple(said for _model, said in cpu_models.odds(models, kind))


ALL_REGIONS = SeriesStatistics.ALL_REGIONS
# The type's rows, each benchmark's main parameter set first (most peers, then by key and
# variant). The peers' count is kept (`PeerGroup`); those better than the type are counted,
# for the main set or (the third parameter) every set, in the `statistics_peers` index from
# the type's median on: above it for a higher-is-better benchmark, else below it (only the
# branch that applies runs).
_RANKS = """
    WITH mine AS (
        SELECT b.key, b.unit, b.higher_is_better, se.variant, st.params_key, st.median,
            st.runs, st.cpu_models, st.benchmark_id, peers.series,
            ROW_NUMBER() OVER (
                PARTITION BY b.key ORDER BY peers.series DESC, st.params_key, se.variant
            ) AS place
        FROM benchmarks_seriesstatistics st
        JOIN benchmarks_series se ON se.id = st.series_id
        JOIN benchmarks_benchmark b ON b.id = st.benchmark_id
        JOIN benchmarks_peergroup peers
            ON peers.benchmark_id = st.benchmark_id AND peers.params_key = st.params_key
        WHERE st.measured_in = %s AND se.instance_type_id = %s
    )
    SELECT mine.key, mine.unit, mine.higher_is_better, mine.variant, mine.params_key,
        mine.median, mine.runs, mine.cpu_models, mine.series,
        CASE WHEN mine.place > 1 AND NOT %s THEN NULL
            WHEN mine.higher_is_better
            THEN (SELECT COUNT(*) FROM benchmarks_seriesstatistics peer
                  WHERE peer.benchmark_id = mine.benchmark_id
                    AND peer.params_key = mine.params_key
                    AND peer.measured_in = %s AND peer.median > mine.median)
            ELSE (SELECT COUNT(*) FROM benchmarks_seriesstatistics peer
                  WHERE peer.benchmark_id = mine.benchmark_id
                    AND peer.params_key = mine.params_key
                    AND peer.measured_in = %s AND peer.median < mine.median)
        END
    FROM mine
    ORDER BY mine.key, mine.place
"""


# What every type with a result or a price must say (`check_specs`).
REQUIRED_SPECS = ("vcpus", "memory_gib", "architecture", "cpu_allocation")


@dataclass(frozen=True)
class SpecsCheck:
    """The types with a result or a price, and those among them lacking a required spec."""

    checked: int
    lacking: list[tuple[str, list[str]]]  # (name, the required fields it lacks), by name


def types_lacking_specs() -> SpecsCheck:
    """Every instance type with a result (a series) or a price (an EC2 or DB instance price,
    or a Fargate rate of its architecture) that lacks vCPUs, memory, architecture or
    cpu_allocation; one query."""
    fargate_priced = FargateRate.objects.filter(architecture=OuterRef("architecture"))
    used = (
        InstanceType.objects.annotate(
            has_result=Exists(Series.objects.filter(instance_type=OuterRef("pk"))),
            has_price=Exists(Price.objects.filter(instance_type=OuterRef("pk")))
            | Exists(DatabasePrice.objects.filter(instance_type=OuterRef("pk")))
            | (Q(kind=InstanceType.Kind.FARGATE) & Exists(fargate_priced)),
        )
        .filter(Q(has_result=True) | Q(has_price=True))
        .order_by("name")
        .values_list("name", *REQUIRED_SPECS)
    )
    checked, lacking = 0, []
    for name, *values in used:
        checked += 1
        missing = [field for field, value in zip(REQUIRED_SPECS, values, strict=True) if not value]
        if missing:
            lacking.append((name, missing))
    return SpecsCheck(checked=checked, lacking=lacking)
