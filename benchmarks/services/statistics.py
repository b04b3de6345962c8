"""The statistics kept at ingest: what the pages and the API read instead of the results.

Every result belongs to a series (benchmark, instance type, variant, parameters). Whenever a
run's results arrive, go or are parsed again, the series they touch are recomputed from their
results, in the caller's transaction and in a fixed number of queries whatever the number of
series: lock the series, read their values, delete their statistics, insert the new ones,
and merge each touched benchmark's summary (its parameters' values and its families).

Concurrent ingests of the same series wait for each other on the series' row locks (taken in
id order, then the benchmarks' in id order, so that two transactions never deadlock), and
each reads the values the other committed.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from benchmarks.models import (
    Benchmark,
    Result,
    Run,
    Series,
    SeriesStatistics,
    family_of,
)

ALL_REGIONS = SeriesStatistics.ALL_REGIONS
UNKNOWN_CPU = "unknown"
# rebuild_stats reads this many series' values at a time.
REBUILD_BATCH = 2000


def params_key(params: dict[str, Any]) -> str:
    """The canonical text of a parameter set: one series per benchmark, machine and key."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def param_order(value: Any) -> tuple:
    """Numbers first, in numeric order, then everything else as text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value))


# ---- attaching results to series ------------------------------------------------------


def attach_series(results: list[Result], *, instance_type_id: int, variant: str) -> None:
    """Set the series of unsaved results of one machine and variant, creating missing series.

    Three queries at most, whatever the number of results.
    """
    wanted: dict[tuple[int, str], dict[str, Any]] = {}
    for result in results:
        wanted.setdefault((result.benchmark_id, params_key(result.params)), result.params)
    found = _series_ids(wanted, instance_type_id=instance_type_id, variant=variant)
    missing = [key for key in wanted if key not in found]
    if missing:
        Series.objects.bulk_create(
            [
                Series(
                    benchmark_id=benchmark_id,
                    instance_type_id=instance_type_id,
                    variant=variant,
                    params=wanted[(benchmark_id, key)],
                    params_key=key,
                )
                for benchmark_id, key in missing
            ],
            ignore_conflicts=True,  # another transaction may create the same series
        )
        found.update(
            _series_ids(
                {key: wanted[key] for key in missing},
                instance_type_id=instance_type_id,
                variant=variant,
            )
        )
    for result in results:
        result.series_id = found[(result.benchmark_id, params_key(result.params))]


def _series_ids(
    wanted: dict[tuple[int, str], Any], *, instance_type_id: int, variant: str
) -> dict[tuple[int, str], int]:
    rows = Series.objects.filter(
        instance_type_id=instance_type_id,
        variant=variant,
        benchmark_id__in={benchmark_id for benchmark_id, _ in wanted},
        params_key__in={key for _, key in wanted},
    ).values_list("benchmark_id", "params_key", "pk")
    return {
        (benchmark_id, key): pk for benchmark_id, key, pk in rows if (benchmark_id, key) in wanted
    }


# ---- computing statistics --------------------------------------------------------------


@dataclass
class _Sample:
    value: float
    run_id: int
    region: str | None
    cpu_model: str
    source: str
    licence: str
    measured_at: Any


@dataclass
class _Accumulator:
    """The samples of one series in one scope."""

    samples: list[_Sample] = field(default_factory=list)

    def statistics(self, series_id: int, measured_in: str) -> SeriesStatistics:
        ordered = sorted(self.samples, key=lambda sample: (sample.value, sample.run_id))
        values = [sample.value for sample in ordered]
        runs: dict[int, _Sample] = {}
        for sample in self.samples:
            runs.setdefault(sample.run_id, sample)
        quartiles = (
            statistics.quantiles(values, n=4, method="inclusive")
            if len(values) > 1
            else [values[0]] * 3
        )
        cpu_models = Counter(run.cpu_model or UNKNOWN_CPU for run in runs.values())
        sources = Counter((run.source, run.licence) for run in runs.values())
        dates = sorted(run.measured_at for run in runs.values() if run.measured_at)
        regions = {run.region for run in runs.values()}
        return SeriesStatistics(
            series_id=series_id,
            measured_in=measured_in,
            runs=len(runs),
            results=len(values),
            median=statistics.median(values),
            minimum=values[0],
            maximum=values[-1],
            first_quartile=quartiles[0],
            third_quartile=quartiles[2],
            cpu_models=dict(sorted(cpu_models.items(), key=lambda item: (-item[1], item[0]))),
            regions=sorted(regions, key=lambda code: (code is None, code or "")),
            sources=[
                [source, licence, count]
                for (source, licence), count in sorted(
                    sources.items(), key=lambda item: (-item[1], item[0])
                )
            ],
            samples=[
                [sample.value, sample.cpu_model or UNKNOWN_CPU] for sample in _spaced(ordered)
            ],
            first_measured_at=dates[0] if dates else None,
            last_measured_at=dates[-1] if dates else None,
        )


def _spaced(ordered: list[_Sample]) -> list[_Sample]:
    """At most SAMPLES_KEPT samples, evenly spaced in rank, the first and last included."""
    kept = SeriesStatistics.SAMPLES_KEPT
    if len(ordered) <= kept:
        return ordered
    step = (len(ordered) - 1) / (kept - 1)
    return [ordered[round(index * step)] for index in range(kept)]


def _samples(series_ids: Collection[int]) -> Iterator[tuple[int, _Sample]]:
    rows = (
        Result.objects.filter(series_id__in=series_ids, run__status=Run.Status.DONE)
        .values_list(
            "series_id",
            "value",
            "run_id",
            "run__region__code",
            "run__cpu_model",
            "run__source",
            "run__licence",
            "run__measured_at",
        )
        .order_by()
    )
    for series_id, value, run_id, region, cpu_model, source, licence, measured_at in rows.iterator(
        chunk_size=10_000
    ):
        yield series_id, _Sample(value, run_id, region, cpu_model, source, licence, measured_at)


def compute_statistics(series_ids: Collection[int]) -> list[SeriesStatistics]:
    """The statistics of these series, from their done runs' results (one query)."""
    scopes: dict[tuple[int, str], _Accumulator] = defaultdict(_Accumulator)
    for series_id, sample in _samples(series_ids):
        scopes[(series_id, ALL_REGIONS)].samples.append(sample)
        if sample.region:
            scopes[(series_id, sample.region)].samples.append(sample)
    return [
        accumulator.statistics(series_id, measured_in)
        for (series_id, measured_in), accumulator in sorted(scopes.items())
    ]


# ---- keeping them ---------------------------------------------------------------------


@transaction.atomic
def refresh_series(series_ids: Iterable[int], *, removed: bool = False) -> None:
    """Recompute the statistics of these series and their benchmarks' summaries.

    `removed` says results may have gone (a deleted or re-parsed run): the benchmarks'
    summaries are then recomputed instead of merged, and series left empty are deleted.
    """
    ids = sorted(set(series_ids))
    if not ids:
        return
    locked = list(
        Series.objects.select_for_update(of=("self",))
        .filter(pk__in=ids)
        .select_related("instance_type")
        .order_by("pk")
    )
    fresh = compute_statistics(ids)
    SeriesStatistics.objects.filter(series_id__in=ids).delete()
    SeriesStatistics.objects.bulk_create(fresh, batch_size=1000)
    if removed:
        kept = {row.series_id for row in fresh}
        empty = [series.pk for series in locked if series.pk not in kept]
        if empty:
            Series.objects.filter(pk__in=empty).delete()
        _recompute_summaries({series.benchmark_id for series in locked})
    else:
        _merge_summaries(locked)


def _summary_of(series: Iterable[tuple[int, dict, str, str]]) -> dict[int, tuple[dict, set]]:
    """(benchmark id, params, instance type kind, name) -> {benchmark id: (values, families)}."""
    summaries: dict[int, tuple[dict[str, set], set[str]]] = defaultdict(
        lambda: (defaultdict(set), set())
    )
    for benchmark_id, params, kind, name in series:
        values, families = summaries[benchmark_id]
        for param, value in params.items():
            values[param].add(_hashable(value))
        families.add(family_of(kind, name))
    return summaries


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def _ordered_params(values: dict[str, set]) -> dict[str, list]:
    return {name: sorted(values[name], key=param_order) for name in sorted(values)}


def _merge_summaries(series: list[Series]) -> None:
    """New results only add parameter values and families: merge them into the summaries."""
    summaries = _summary_of(
        (s.benchmark_id, s.params, s.instance_type.kind, s.instance_type.name) for s in series
    )
    benchmarks = list(Benchmark.objects.select_for_update().filter(pk__in=summaries).order_by("pk"))
    now = timezone.now()
    for benchmark in benchmarks:
        values, families = summaries[benchmark.pk]
        for name, known in benchmark.params.items():
            values[name].update(_hashable(value) for value in known)
        benchmark.params = _ordered_params(values)
        benchmark.families = sorted(families | set(benchmark.families))
        benchmark.stats_updated_at = now
    Benchmark.objects.bulk_update(benchmarks, ["params", "families", "stats_updated_at"])


def _recompute_summaries(benchmark_ids: Collection[int]) -> None:
    """The summaries of these benchmarks from their series that still have results."""
    benchmarks = list(
        Benchmark.objects.select_for_update().filter(pk__in=benchmark_ids).order_by("pk")
    )
    summaries = _summary_of(
        Series.objects.filter(
            benchmark_id__in=benchmark_ids, statistics__measured_in=ALL_REGIONS
        ).values_list("benchmark_id", "params", "instance_type__kind", "instance_type__name")
    )
    now = timezone.now()
    for benchmark in benchmarks:
        values, families = summaries.get(benchmark.pk, ({}, set()))
        benchmark.params = _ordered_params(values)
        benchmark.families = sorted(families)
        benchmark.stats_updated_at = now
    Benchmark.objects.bulk_update(benchmarks, ["params", "families", "stats_updated_at"])


def series_of_runs(run_ids: Collection[int]) -> set[int]:
    """The series that the results of these runs (and of their child runs) belong to."""
    return set(
        Result.objects.filter(run_id__in=run_ids)
        .exclude(series=None)
        .values_list("series_id", flat=True)
        .distinct()
    ) | set(
        Result.objects.filter(run__parent_id__in=run_ids)
        .exclude(series=None)
        .values_list("series_id", flat=True)
        .distinct()
    )


# ---- rebuilding everything ------------------------------------------------------------


@transaction.atomic
def rebuild_statistics() -> dict[str, int]:
    """Recompute every series, statistic and summary from the stored results.

    Gives every result of a done run its series, recomputes all statistics in batches,
    deletes series without results, and recomputes every benchmark's summary. On a consistent
    database this changes no answer.
    """
    attached = _attach_unattached()
    series_ids = list(Series.objects.order_by("pk").values_list("pk", flat=True))
    SeriesStatistics.objects.all().delete()
    computed = 0
    for start in range(0, len(series_ids), REBUILD_BATCH):
        batch = series_ids[start : start + REBUILD_BATCH]
        fresh = compute_statistics(batch)
        SeriesStatistics.objects.bulk_create(fresh, batch_size=1000)
        computed += len(fresh)
    empty, _ = Series.objects.filter(results=None).delete()
    _recompute_summaries(list(Benchmark.objects.values_list("pk", flat=True)))
    return {"results_attached": attached, "statistics": computed, "empty_series_deleted": empty}


def _attach_unattached() -> int:
    """Results stored before statistics were kept (or by hand) get their series."""
    pending = (
        Result.objects.filter(series=None, run__status=Run.Status.DONE)
        .exclude(run__instance_type=None)
        .select_related("run")
        .order_by("run__instance_type_id", "run__variant", "pk")
    )
    attached = 0
    batch: list[Result] = []
    machine: tuple[int, str] | None = None
    for result in pending.iterator(chunk_size=5000):
        key = (result.run.instance_type_id, result.run.variant)
        if batch and (key != machine or len(batch) >= 5000):
            attached += _attach_batch(batch, machine)
            batch = []
        machine = key
        batch.append(result)
    if batch:
        attached += _attach_batch(batch, machine)
    return attached


def _attach_batch(results: list[Result], machine: tuple[int, str]) -> int:
    instance_type_id, variant = machine
    attach_series(results, instance_type_id=instance_type_id, variant=variant)
    Result.objects.bulk_update(results, ["series"], batch_size=1000)
    return len(results)


def needs_rebuild() -> bool:
    """Whether some done run's results have no series yet (a database from before statistics)."""
    return (
        Result.objects.filter(series=None, run__status=Run.Status.DONE)
        .exclude(run__instance_type=None)
        .exists()
    )
