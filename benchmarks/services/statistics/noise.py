"""Each benchmark's noise, measured from its kept statistics and its repeated runs, and kept
on the benchmark.

The measurement (benchmarks/noise.py) reads every all-regions statistics row of a benchmark and
the results of its series with several runs, so it is not redone on every ingest: a benchmark
whose statistics changed after its noise was measured is measured again by `keep_noise` (run by
`rebuild_stats`, at the end of `loaddemo` and `import_sparecores`, and by the beat schedule);
answers read the kept figures with the benchmark, in no query of their own.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from collections import defaultdict
from collections.abc import Collection

from django.db import transaction
from django.db.models import F, Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from benchmarks import noise
from benchmarks.cpu_models import UNKNOWN
from benchmarks.models import Benchmark, FargateBasis, Run, SeriesStatistics

from .compute import ALL_REGIONS, stored_samples
from .fargate import keep_fargate_basis

# Series whose results are read at once: a benchmark's repeats are read in slices this big.
SERIES_PER_READ = 2000
# At most this many results of a benchmark's repeated series are read (a few seconds): beyond
# it, a deterministic share of its series (spread by id, not the first ones), enough pairs
# for any quantile kept, whatever the number of results (docs/performance.md: 10M).
REPEAT_RESULTS_READ = 200_000
# Spreads series ids over the order they are read in (a prime: every id lands elsewhere).
SPREAD = 2_654_435_761


def measure_benchmark(benchmark_id: int) -> noise.Noise | None:
    """The noise of one benchmark from its all-regions statistics rows and repeated runs."""
    rows = (
        SeriesStatistics.objects.filter(
            benchmark_id=benchmark_id, measured_in=ALL_REGIONS, only_flagged=False
        )
        # Read as text: a few parameter sets and processor mixes recur over many rows, and
        # each text is decoded once below (Django's converter decoded every row's, a fifth of
        # the measurement's time on the full demo).
        .annotate(
            params_text=Cast("series__params", TextField()),
            cpu_models_text=Cast("cpu_models", TextField()),
        )
        .values_list(
            "series_id",
            "params_text",
            "params_key",
            "instance_type__vcpus",
            "instance_type__vendor",
            "instance_type__cpu_allocation",
            "instance_type__burstable",
            "cpu_models_text",
            "median",
            "runs",
            "results",
            "last_measured_at",
        )
    )
    params_of: dict[str | None, dict] = {}
    processor_of: dict[str | None, str] = {}
    figures = {}
    results_of = {}
    for row in rows.iterator(2000):
        (
            series_id,
            params_text,
            key,
            vcpus,
            vendor,
            allocation,
            burstable,
            cpus_text,
            median,
            runs,
            results,
            last,
        ) = row
        params = params_of.get(params_text)
        if params is None:
            params = params_of[params_text] = _json(params_text) or {}
        processor = processor_of.get(cpus_text)
        if processor is None:
            processor = processor_of[cpus_text] = _main_processor(_json(cpus_text))
        results_of[series_id] = results
        figures[series_id] = (
            noise.SeriesFigure(
                params=params,
                cpu_model=processor,
                vcpus=float(vcpus) if vcpus else None,
                median=median,
                vendor=vendor or "",
                allocation=allocation or ("burstable" if burstable else ""),
                series_id=series_id,
                day=last.isoformat() if last else "",
                params_key=key,
            ),
            runs,
        )
    repeated = _within_budget(
        [series_id for series_id, (_figure, runs) in figures.items() if runs >= 2], results_of
    )
    runs_of = _run_figures(repeated)
    return noise.measure(
        _with_runs(figure, runs_of.get(series_id, ()))
        for series_id, (figure, _runs) in figures.items()
    )


def _json(text: str | None):
    """A JSON column read as text, as Django's JSONField gives it back."""
    return None if text is None else json.loads(text)


def _within_budget(series_ids: list[int], results_of: dict[int, int]) -> list[int]:
    """The repeated series whose results are read: all, or as many as REPEAT_RESULTS_READ
    results allow, in an order spread over the ids (the same every time)."""
    if sum(results_of[series_id] for series_id in series_ids) <= REPEAT_RESULTS_READ:
        return series_ids
    chosen, total = [], 0
    for series_id in sorted(series_ids, key=lambda pk: (pk * SPREAD) % 2**32):
        if total + results_of[series_id] > REPEAT_RESULTS_READ:
            continue
        chosen.append(series_id)
        total += results_of[series_id]
    return chosen


def _with_runs(figure: noise.SeriesFigure, runs) -> noise.SeriesFigure:
    return dataclasses.replace(figure, runs=tuple(runs)) if runs else figure


def _run_figures(series_ids: list[int]) -> dict[int, list[noise.RunFigure]]:
    """Each series' runs (a run's figure: the median of its results there, flagged ones left
    out as the statistics leave them out), with their day and tool version."""
    found: dict[int, list[noise.RunFigure]] = {}
    for start in range(0, len(series_ids), SERIES_PER_READ):
        values: dict[tuple[int, int], list[float]] = defaultdict(list)
        days = {}
        for series_id, sample in stored_samples(series_ids[start : start + SERIES_PER_READ]):
            if sample.flag is None:
                values[(series_id, sample.run_id)].append(sample.value)
                days[sample.run_id] = sample.measured_at
        versions = dict(
            Run.objects.filter(pk__in=days).values_list("pk", "tool_version").order_by()
        )
        for (series_id, run_id), figures in values.items():
            day = days[run_id]
            found.setdefault(series_id, []).append(
                noise.RunFigure(
                    statistics.median(figures),
                    day.isoformat() if day else "",
                    versions.get(run_id, "") or "",
                )
            )
    return found


def _main_processor(cpu_models: dict) -> str:
    """The processor most of a series' results ran on; '' when they disagree evenly or none
    is known (such a series is left out of the peer groups: types whose processor was not
    recorded are no peers of each other)."""
    known = {name: runs for name, runs in (cpu_models or {}).items() if name != UNKNOWN}
    if not known:
        return ""
    counts = sorted(known.values(), reverse=True)
    if len(counts) > 1 and counts[0] == counts[1]:
        return ""
    return max(known, key=known.get)


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
