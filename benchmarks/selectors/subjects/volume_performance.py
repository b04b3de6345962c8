"""fio on EBS volumes: IOPS and MB/s per dollar-month, burst and sustained (study S4).

A fio run measures a volume attached to an instance: it is uploaded for the instance, with
the volume as its variant, `<type>-<size>gb[-<iops>iops][-<throughput>mibps]` (`gp2-100gb`,
`io1-100gb-1000iops`, `gp3-500gb-6000iops-250mibps`). The measured figure is the burst
figure; the sustained figure is what the volume holds for good: gp2's baseline (3 IOPS per
GB, at least 100) once its credits are spent, a provisioned volume's IOPS, each at most what
was measured. MB/s follow IOPS at the run's block size. Read in four queries plus one per
distinct volume priced, whatever the number of results.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, SeriesStatistics
from benchmarks.per_dollar import per_price
from benchmarks.questions.parameters import benchmark_params
from benchmarks.selectors.answer.kept_series import BenchmarkAnswer
from benchmarks.selectors.answer.lookups import get_benchmark, get_region
from benchmarks.selectors.subjects import storage
from benchmarks.storage import gp2

VOLUME_VARIANT = re.compile(
    r"^(?P<volume_type>gp2|gp3|io1|io2|st1|sc1)-(?P<size_gb>\d+)gb"
    r"(?:-(?P<iops>\d+)iops)?(?:-(?P<throughput>\d+)mibps)?$"
)
BYTES_PER_MB = 1e6
DEFAULT_BENCHMARK = "fio:randread"


def volume_of_variant(variant: str) -> tuple[str, int, int | None, int | None] | None:
    """`io1-100gb-1000iops` -> ("io1", 100, 1000, None); None for a variant that is no volume."""
    found = VOLUME_VARIANT.match(variant or "")
    if found is None:
        return None
    optional = [found[name] for name in ("iops", "throughput")]
    return (
        found["volume_type"],
        int(found["size_gb"]),
        *(int(value) if value else None for value in optional),
    )


@dataclass
class VolumeRow:
    """One volume measured from one instance with one set of fio parameters."""

    instance_type: str
    volume: str
    volume_type: str
    size_gb: int
    params: dict[str, Any]
    runs: int
    iops: float
    mb_per_second: float | None
    usd_per_month: float
    iops_per_usd_month: float
    mb_per_second_per_usd_month: float | None
    sustained_iops: float
    sustained_iops_per_usd_month: float
    sustained_mb_per_second_per_usd_month: float | None
    # gp2: how long the measured load lasts on a full credit bucket; null when it never ends.
    burst_seconds: int | None
    price_note: str | None


@dataclass(kw_only=True)
class VolumePerformance(BenchmarkAnswer):
    """The answer of `GET /api/v1/volume-performance/` and of the volumes page's table."""

    results: list[VolumeRow] = field(default_factory=list)
    unpriced: list[dict] = field(default_factory=list)
    # Before any volume is measured: what the answer needs (`awaiting_volumes`).
    summary: str | None = None


def awaiting_volumes(benchmark_key: str) -> str:
    """What the answer says before any fio IOPS benchmark is measured: the data it needs."""
    return (
        f"No volume is measured yet, so there is no {benchmark_key} to price. Upload a fio "
        "--output-format=json output with POST /api/v1/runs/, with the instance type, the "
        "region and the volume as the variant (gp2-100gb, io1-100gb-1000iops)."
    )


def _statistics(benchmark: Benchmark, params: dict[str, Any]) -> list[SeriesStatistics]:
    return list(
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS,
            series__benchmark=benchmark,
            **{f"series__params__{name}": value for name, value in params.items()},
        )
        .select_related("series__instance_type")
        .order_by("series__instance_type__name", "series__variant", "series__params_key")
    )


def volume_benchmarks() -> list[str]:
    """The keys `volume-performance/` answers for: fio's, in op/s, or, before any is measured,
    the default one (answered with `awaiting_volumes`)."""
    return list(_fio_iops().values_list("key", flat=True)) or [DEFAULT_BENCHMARK]


def _fio_iops():
    return Benchmark.objects.filter(unit="op/s", key__startswith="fio:").order_by("key")


def volume_performance(
    *,
    region_code: str,
    benchmark_key: str = DEFAULT_BENCHMARK,
    at: datetime.date | None = None,
    params: dict[str, str] | None = None,
) -> VolumePerformance:
    """IOPS and MB/s per dollar-month of every volume measured with a fio benchmark; before
    any is, the default one is answered with what to upload, not refused."""
    if benchmark_key == DEFAULT_BENCHMARK and not _fio_iops().exists():
        awaiting = Benchmark(key=DEFAULT_BENCHMARK, unit="op/s")
        # Measured with none yet: a parameter is refused as it would be once measured.
        benchmark_params(awaiting, params or {})
        return VolumePerformance(
            benchmark=awaiting,
            region=get_region(region_code).code,
            at=at or timezone.localdate(),
            params={},
            summary=awaiting_volumes(DEFAULT_BENCHMARK),
        )
    benchmark = get_benchmark(benchmark_key)
    if benchmark.unit != "op/s" or not benchmark.key.startswith("fio:"):
        raise DomainError(
            f"{benchmark.key} is not a fio IOPS benchmark (fio:<rw>, op/s)", field="benchmark"
        )
    region = get_region(region_code)
    given = benchmark_params(benchmark, params or {})
    day = at or timezone.localdate()
    bandwidth_benchmark = Benchmark.objects.filter(key=f"{benchmark.key}:bandwidth").first()
    bandwidth = {
        (row.series.instance_type_id, row.series.variant, row.series.params_key): row.median
        for row in (_statistics(bandwidth_benchmark, given) if bandwidth_benchmark else [])
    }
    answer = VolumePerformance(benchmark=benchmark, region=region.code, at=day, params=given)
    costs: dict[str, storage.VolumeCost | str] = {}
    for row in _statistics(benchmark, given):
        series = row.series
        spec = volume_of_variant(series.variant)
        if spec is None:
            continue
        if series.variant not in costs:
            try:
                (costs[series.variant],) = storage.volume_costs(
                    region_code=region.code, specs=[spec], at=day
                )
            except DomainError as error:
                costs[series.variant] = error.message
        cost = costs[series.variant]
        if isinstance(cost, str):
            answer.unpriced.append(
                {
                    "instance_type": series.instance_type.name,
                    "volume": series.variant,
                    "reason": cost,
                }
            )
            continue
        answer.results.append(
            _row(
                row,
                cost,
                bandwidth.get((series.instance_type_id, series.variant, series.params_key)),
            )
        )
    answer.results.sort(key=lambda row: -row.sustained_iops_per_usd_month)
    return answer


def _row(
    row: SeriesStatistics, cost: storage.VolumeCost, bytes_per_second: float | None
) -> VolumeRow:
    usd = float(cost.usd_per_month)
    measured = row.median
    sustained = min(measured, cost.baseline_iops) if cost.baseline_iops is not None else measured
    megabytes = bytes_per_second / BYTES_PER_MB if bytes_per_second is not None else None
    sustained_megabytes = megabytes * sustained / measured if megabytes and measured else megabytes
    burst_seconds = None
    if cost.volume_type == "gp2" and measured > cost.baseline_iops:
        burst_seconds = gp2.gp2_burst(
            size_gb=cost.size_gb, iops=min(round(measured), gp2.MAX_BASELINE_IOPS), seconds=1
        ).burst_seconds
    notes = {part.price_note for part in cost.parts if part.price_note}
    return VolumeRow(
        instance_type=row.series.instance_type.name,
        volume=row.series.variant,
        volume_type=cost.volume_type,
        size_gb=cost.size_gb,
        params=row.series.params,
        runs=row.runs,
        iops=measured,
        mb_per_second=megabytes,
        usd_per_month=usd,
        iops_per_usd_month=per_price(measured, usd),
        mb_per_second_per_usd_month=per_price(megabytes, usd),
        sustained_iops=sustained,
        sustained_iops_per_usd_month=per_price(sustained, usd),
        sustained_mb_per_second_per_usd_month=per_price(sustained_megabytes, usd),
        burst_seconds=burst_seconds,
        price_note="; ".join(sorted(notes)) or None,
    )
