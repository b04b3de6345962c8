"""Each benchmark's noise, measured from its kept statistics and kept on the benchmark.

The measurement (benchmarks/noise.py) reads every all-regions statistics row of a benchmark,
so it is not redone on every ingest: a benchmark whose statistics changed after its noise was
measured is measured again by `keep_noise` (run by `rebuild_stats`, at the end of `loaddemo`
and `import_sparecores`, and by the beat schedule); answers read the kept figure with the
benchmark, in no query of their own.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import F, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from benchmarks import noise
from benchmarks.models import Benchmark, FargateBasis, InstanceType, SeriesStatistics

from .compute import ALL_REGIONS
from .fargate import keep_fargate_basis


def measure_benchmark(
    benchmark_id: int, *, vcpus_of: dict[int, Any] | None = None
) -> noise.Noise | None:
    """The noise of one benchmark from its all-regions statistics rows.

    The JSON columns are read as text: a benchmark's rows repeat a few parameter sets and
    CPU models, each decoded once here, and a series' samples are decoded only when it has
    several runs (few do). Decoding every row's JSON took most of the measurement's time
    on the full demo (docs/performance.md, "Loading the demo").
    """
    rows = SeriesStatistics.objects.filter(
        benchmark_id=benchmark_id, measured_in=ALL_REGIONS, only_flagged=False
    ).values_list(
        # The series' params as canonical JSON: the same set as `series__params`.
        "params_key",
        "instance_type_id",
        Cast("cpu_models", TextField()),
        "median",
        "runs",
        Cast("samples", TextField()),
    )
    if vcpus_of is None:
        vcpus_of = instance_type_vcpus()
    figures = []
    params_of: dict[str, dict] = {}
    processor_of: dict[str, str] = {}
    for key, type_id, cpu_models, median, runs, samples in rows.iterator(2000):
        params = params_of.get(key)
        if params is None:
            params = params_of[key] = json.loads(key) or {}
        processor = processor_of.get(cpu_models)
        if processor is None:
            processor = processor_of[cpu_models] = _main_processor(json.loads(cpu_models))
        kept = json.loads(samples) if runs >= 2 else ()
        figures.append(
            noise.SeriesFigure(
                params=params,
                cpu_model=processor,
                vcpus=float(vcpus) if (vcpus := vcpus_of.get(type_id)) else None,
                median=median,
                # Every run's figure only where the series keeps them all (one per run).
                runs=[value for value, _cpu in kept] if runs >= 2 and len(kept) == runs else (),
            )
        )
    return noise.measure(figures)


def instance_type_vcpus() -> dict[int, Any]:
    """Every instance type's vCPUs by id: looked up by the measurement rather than joined to
    each statistics row, and read once for all the benchmarks `keep_noise` measures."""
    return dict(InstanceType.objects.values_list("pk", "vcpus"))


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
    vcpus_of = instance_type_vcpus()
    for pk in benchmarks.order_by("pk").values_list("pk", flat=True):
        started = timezone.now()
        figure = measure_benchmark(pk, vcpus_of=vcpus_of)
        with transaction.atomic():
            Benchmark.objects.filter(pk=pk).update(
                noise=figure.as_dict() if figure else None, noise_measured_at=started
            )
        measured += 1
    # Fargate's estimates stand on the same statistics (services/statistics/fargate.py).
    if measured or not FargateBasis.objects.exists():
        keep_fargate_basis()
    return measured
