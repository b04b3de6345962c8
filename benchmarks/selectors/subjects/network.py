"""Network bandwidth (study S3): Gbit/s against streams and processes, per instance type.

Read from the kept statistics of the iperf3 throughput series in three queries (benchmark,
statistics, prices) whatever the number of points: every (processes, streams) pair measured
on a type is one point; a result without `processes` (stored before measurements of several
processes were summed) counts as one process. Before any bandwidth is measured, a question
for one of iperf3's keys is answered with what to upload (`summary`), not refused.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, InstanceType, PurchaseOption, SeriesStatistics
from benchmarks.per_dollar import BITS_PER_GIGABIT, gbit_per_second_per_usd_hour
from benchmarks.questions.scaling import DIRECTIONS
from benchmarks.selectors.answer.lookups import get_benchmark, get_region
from benchmarks.selectors.costs import prices


@dataclass
class ScalingPoint:
    """One (processes, streams) pair measured on one type: its bandwidth statistics."""

    processes: int
    streams: int
    runs: int
    median_gbit_per_second: float
    min_gbit_per_second: float
    max_gbit_per_second: float
    gbit_per_second_per_usd_hour: float | None


@dataclass
class ScalingCurve:
    """An instance type (and variant): its advertised bandwidth, price and measured points."""

    instance_type: str
    variant: str | None
    advertised_bandwidth: str | None
    usd_per_hour: float | None
    price_note: str | None
    points: list[ScalingPoint] = field(default_factory=list)


@dataclass
class NetworkScaling:
    """The answer of `GET /api/v1/network-scaling/` and of the network page's chart."""

    benchmark: Benchmark
    direction: str
    region: str | None
    purchase_option: str
    at: datetime.date
    curves: list[ScalingCurve] = field(default_factory=list)
    # Set when no bandwidth is measured yet: what the answer needs and how to send it.
    summary: str | None = None

    @property
    def rows(self) -> list[dict]:
        """One flat row per point (the CSV export)."""
        return [
            {
                "instance_type": curve.instance_type,
                "variant": curve.variant,
                "advertised_bandwidth": curve.advertised_bandwidth,
                "usd_per_hour": curve.usd_per_hour,
                **point.__dict__,
            }
            for curve in self.curves
            for point in curve.points
        ]


# The keys iperf3's parser writes in bit/s: the questions this answer is for.
BANDWIDTH_KEYS = ("iperf3:tcp", "iperf3:udp")
BANDWIDTH_UNIT = "bit/s"


def awaiting_bandwidth(benchmark_key: str) -> str:
    """What the answer says before any bandwidth is measured: the data it needs and how."""
    return (
        f"No bandwidth is measured yet, so there is no {benchmark_key} curve to show. Upload "
        "iperf3 -J outputs with POST /api/v1/runs/ (a file part per process run at once, with "
        "instance_type and region), or run the benchmark agent with --iperf3 HOST."
    )


def bandwidth_benchmarks() -> list[str]:
    """The keys `network-scaling/` answers for: those measured in bit/s, or, before any is,
    iperf3's (answered with `awaiting_bandwidth`)."""
    measured = Benchmark.objects.filter(unit=BANDWIDTH_UNIT).order_by("key")
    return list(measured.values_list("key", flat=True)) or list(BANDWIDTH_KEYS)


def _bandwidth_benchmark(benchmark_key: str) -> Benchmark | None:
    """The benchmark asked, or None when it is one of iperf3's and no bandwidth is measured
    yet; a DomainError naming the benchmark otherwise."""
    benchmark = Benchmark.objects.filter(key=benchmark_key).first()
    if benchmark is None:
        if (
            benchmark_key in BANDWIDTH_KEYS
            and not Benchmark.objects.filter(unit=BANDWIDTH_UNIT).exists()
        ):
            return None
        benchmark = get_benchmark(benchmark_key)
    if benchmark.unit != BANDWIDTH_UNIT:
        raise DomainError(
            f"{benchmark.key} is measured in {benchmark.unit}, not bit/s: not a bandwidth",
            field="benchmark",
        )
    return benchmark


def network_scaling(
    *,
    benchmark_key: str = "iperf3:tcp",
    direction: str = "receive",
    instance_types: tuple[str, ...] = (),
    region_code: str | None = None,
    purchase_option: str = PurchaseOption.ON_DEMAND,
    at: datetime.date | None = None,
) -> NetworkScaling:
    """Bandwidth against processes and streams per type; priced when a region is given."""
    benchmark = _bandwidth_benchmark(benchmark_key)
    if direction not in DIRECTIONS:
        raise DomainError(
            f"direction {direction!r} is not one of {', '.join(DIRECTIONS)}", field="direction"
        )
    day = at or timezone.localdate()
    if benchmark is None:
        if region_code:
            get_region(region_code)
        return NetworkScaling(
            benchmark=Benchmark(key=benchmark_key, unit=BANDWIDTH_UNIT),
            direction=direction,
            region=region_code,
            purchase_option=purchase_option,
            at=day,
            summary=awaiting_bandwidth(benchmark_key),
        )
    statistics = SeriesStatistics.objects.filter(
        measured_in=SeriesStatistics.ALL_REGIONS,
        series__benchmark=benchmark,
        series__params__direction=direction,
    )
    if instance_types:
        statistics = statistics.filter(series__instance_type__name__in=instance_types)
    rows = list(
        statistics.select_related("series__instance_type").order_by(
            "series__instance_type__name", "series__variant"
        )
    )
    machines = {row.series.instance_type_id: row.series.instance_type for row in rows}
    quotes = {}
    if region_code:
        quotes = prices.hourly_prices(
            instance_types=machines.values(),
            region=get_region(region_code),
            purchase_option=purchase_option,
            day=day,
        )
    curves: dict[tuple[int, str], ScalingCurve] = {}
    points: dict[tuple[int, str], list[ScalingPoint]] = defaultdict(list)
    for row in rows:
        series = row.series
        machine: InstanceType = series.instance_type
        key = (machine.pk, series.variant)
        quote = quotes.get(machine.pk)
        usd = float(quote.usd_per_hour) if quote and quote.usd_per_hour is not None else None
        if key not in curves:
            curves[key] = ScalingCurve(
                instance_type=machine.name,
                variant=series.variant or None,
                advertised_bandwidth=machine.network_performance or None,
                usd_per_hour=usd,
                price_note=(quote.note if quote else None),
            )
        points[key].append(
            ScalingPoint(
                processes=int(series.params.get("processes", 1)),
                streams=int(series.params.get("streams", 1)),
                runs=row.runs,
                median_gbit_per_second=row.median / BITS_PER_GIGABIT,
                min_gbit_per_second=row.minimum / BITS_PER_GIGABIT,
                max_gbit_per_second=row.maximum / BITS_PER_GIGABIT,
                gbit_per_second_per_usd_hour=gbit_per_second_per_usd_hour(row.median, usd),
            )
        )
    answer = NetworkScaling(
        benchmark=benchmark,
        direction=direction,
        region=region_code,
        purchase_option=purchase_option,
        at=day,
    )
    for key, curve in curves.items():
        curve.points = sorted(points[key], key=lambda point: (point.processes, point.streams))
        answer.curves.append(curve)
    return answer
