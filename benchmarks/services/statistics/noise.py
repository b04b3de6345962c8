"""Each benchmark's noise, measured from its kept statistics and kept on the benchmark.

The measurement (benchmarks/noise.py) reads every all-regions statistics row of a benchmark,
so it is not redone on every ingest: a benchmark whose statistics changed after its noise was
measured is measured again by `keep_noise` (run by `rebuild_stats`, at the end of `loaddemo`
and `import_sparecores`, and by the beat schedule); answers read the kept figure with the
benchmark, in no query of their own.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from benchmarks import noise
from benchmarks.models import Benchmark, FargateBasis, SeriesStatistics

from .compute import ALL_REGIONS
from .fargate import keep_fargate_basis


def measure_benchmark(benchmark_id: int) -> noise.Noise | None:
    """The noise of one benchmark from its all-regions statistics rows."""
    rows = SeriesStatistics.objects.filter(
        benchmark_id=benchmark_id, measured_in=ALL_REGIONS, only_flagged=False
    ).values_list(
        "series__params",
        "instance_type__vcpus",
        "cpu_models",
        "median",
        "runs",
        "samples",
    )
    figures = []
    # Every run's figure only where the series keeps them all (one sample per run).
    for params, vcpus, cpu_models, median, runs, samples in rows.iterator(2000):
        figures.append(
            noise.SeriesFigure(
                params=params or {},
                cpu_model=_main_processor(cpu_models),
                vcpus=float(vcpus) if vcpus else None,
                median=median,
                # Every run's figure only where the series keeps them all (one per run).
                runs=[value for value, _cpu in samples]
                if runs >= 2 and len(samples) == runs
                else (),
            )
        )
    return noise.measure(figures)


def _main_processor(cpu_models: dict) -> str:
    """The processor most of a series' results ran on; '' when they disagree evenly or none
    is known (such a series is left out of the family groups)."""
    if not cpu_models:
        return ""
    counts = sorted(cpu_models.values(), reverse=True)
    if len(counts) > 1 and counts[0] == counts[1]:
        return ""
    return max(cpu_models, key=cpu_models.get)


def keep_noise(benchmark_ids: Collection[int] | None = None, *, stale_only: bool = True) -> int:
    """Measure and keep the noise of these benchmarks (all when None); with `stale_only`, only
    of those whose statistics changed since. Returns how many were measured."""
    benchmarks = Benchmark.objects.all()
    if benchmark_ids is not None:
        benchmarks = benchmarks.filter(pk__in=benchmark_ids)
    if stale_only:
        benchmarks = benchmarks.filter(
            Q(noise_measured_at=None) | Q(stats_updated_at__gt=F("noise_measured_at"))
        )
    measured = 0
    for pk in benchmarks.order_by("pk").values_list("pk", flat=True):
        started = timezone.now()
        figure = measure_benchmark(pk)
        with transaction.atomic():
            Benchmark.objects.filter(pk=pk).update(
                noise=figure.as_dict() if figure else None, noise_measured_at=started
            )
        measured += 1
    # Fargate's estimates stand on the same statistics (services/statistics/fargate.py).
    if measured or not FargateBasis.objects.exists():
        keep_fargate_basis()
    return measured
