"""Checking the kept statistics against the stored results (`rebuild_stats --check`).

Every series' statistics are recomputed in batches, the way `rebuild_stats` does (two grouped
reads per REBUILD_BATCH series, plus one read of the kept rows and one of the series' names),
and compared field by field with what is kept; so are the benchmarks' summaries. Nothing is
written: on PostgreSQL the check runs in one read-only, repeatable-read transaction, so that
an ingest committing meanwhile cannot make it see half a write.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Exists, F, OuterRef, Q

from benchmarks.models import (
    Benchmark,
    BenchmarkCoverage,
    InstanceType,
    PeerGroup,
    Result,
    Run,
    Series,
    SeriesStatistics,
    counted_results,
)

from .compute import ALL_REGIONS, STATISTICS_COLUMNS, compute_statistics
from .coverage import FIGURES, CoverageTally
from .keep import newest_sample_runs, ordered_params, summaries_of
from .rebuild import REBUILD_BATCH
from .rows import JsonText

# Compared fields: every column but the series, the scope (the row's key) and updated_at.
CHECKED_FIELDS = tuple(
    column
    for column in STATISTICS_COLUMNS
    if column not in {"series_id", "measured_in", "updated_at"}
)
# Floats recomputed the same way agree exactly; this only absorbs a storage round trip.
_RELATIVE_TOLERANCE = 1e-12
_MISSING = "(no row)"


@dataclass(frozen=True)
class Difference:
    """One kept figure that disagrees with its recomputation from the stored results."""

    benchmark: str
    instance_type: str
    variant: str
    params: str
    measured_in: str
    field: str
    kept: Any
    recomputed: Any

    def __str__(self) -> str:
        variant = f" variant {self.variant}" if self.variant else ""
        scope = f"measured in {self.measured_in}" if self.measured_in else "all regions"
        where = f"{self.benchmark} {self.params} on {self.instance_type}{variant}, {scope}"
        return (
            f"{where}: {self.field} kept {_shown(self.kept)}, recomputed {_shown(self.recomputed)}"
        )


@dataclass
class StatisticsCheck:
    """What `check_statistics` compared, and every difference it found."""

    series: int = 0
    rows: int = 0
    benchmarks: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.differences


def check_statistics() -> StatisticsCheck:
    """Compare every kept statistic and benchmark summary with a recomputation; write nothing."""
    if connection.in_atomic_block:
        return _check()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        return _check()


def _check() -> StatisticsCheck:
    report = StatisticsCheck()
    report.differences.extend(_results_without_series())
    report.differences.extend(_results_in_another_series())
    report.differences.extend(_statistics_without_series())
    # (benchmark id, params, kind, name, params key) of the series that still have results,
    # for the summaries and peer groups.
    with_results: list[tuple] = []
    coverage = CoverageTally()
    series_ids = list(Series.objects.order_by("pk").values_list("pk", flat=True))
    report.series = len(series_ids)
    for start in range(0, len(series_ids), REBUILD_BATCH):
        batch = series_ids[start : start + REBUILD_BATCH]
        report.rows += _check_batch(batch, report.differences, with_results, coverage)
    # Only the names beside the figures: each row's benchmark read whole (its noise, tens of
    # kilobytes of JSON) held some 20 GB on the full demo, and the check was killed (issue 56).
    kept_coverage = list(
        BenchmarkCoverage.objects.select_related("benchmark", "instance_type").only(
            "benchmark_id", "instance_type_id", *FIGURES, "benchmark__key", "instance_type__name"
        )
    )
    report.benchmarks = _check_summaries(with_results, kept_coverage, report.differences)
    _check_coverage(kept_coverage, coverage, report.differences)
    return report


def _results_without_series() -> Iterator[Difference]:
    """Results of done runs that no statistic counts (rebuild_stats gives them a series)."""
    unattached = (
        Result.objects.filter(counted_results(), series=None, run__status=Run.Status.DONE)
        .exclude(run__instance_type=None)
        .values("benchmark__key", "run__instance_type__name", "run__variant")
        .annotate(results=Count("pk"))
        .order_by("benchmark__key", "run__instance_type__name", "run__variant")
    )
    for group in unattached:
        yield Difference(
            benchmark=group["benchmark__key"],
            instance_type=group["run__instance_type__name"],
            variant=group["run__variant"],
            params="(any)",
            measured_in=ALL_REGIONS,
            field="results without a series",
            kept=0,
            recomputed=group["results"],
        )


def _statistics_without_series() -> Iterator[Difference]:
    """Kept statistics rows whose series is gone: the table has no foreign key to the series
    (services/statistics writes a row only beside its series, and deleting a series deletes
    its rows), so the check looks. One query; the names by the rows' own copies, which have
    no foreign key either (an id stands in for a name that is gone too)."""
    orphans = list(
        SeriesStatistics.objects.filter(~Exists(Series.objects.filter(pk=OuterRef("series_id"))))
        .values_list("benchmark_id", "instance_type_id", "variant", "params_key", "measured_in")
        .order_by("benchmark_id", "instance_type_id", "variant", "params_key", "measured_in")
    )
    if not orphans:
        return
    benchmarks = dict(
        Benchmark.objects.filter(pk__in={row[0] for row in orphans}).values_list("pk", "key")
    )
    types = dict(
        InstanceType.objects.filter(pk__in={row[1] for row in orphans}).values_list("pk", "name")
    )
    for benchmark_id, type_id, variant, key, measured_in in orphans:
        yield Difference(
            benchmark=benchmarks.get(benchmark_id, f"benchmark {benchmark_id}"),
            instance_type=types.get(type_id, f"instance type {type_id}"),
            variant=variant,
            params=key,
            measured_in=measured_in,
            field="statistics row without a series",
            kept="present",
            recomputed="(no series)",
        )


def _results_in_another_series() -> Iterator[Difference]:
    """Results counted in a series that is not theirs (another benchmark, machine, variant or,
    on PostgreSQL where JSON compares by value, other parameters): one grouped query."""
    elsewhere = (
        ~Q(series__benchmark_id=F("benchmark_id"))
        | ~Q(series__instance_type_id=F("run__instance_type_id"))
        | ~Q(series__variant=F("run__variant"))
    )
    if connection.vendor == "postgresql":
        elsewhere |= ~Q(series__params=F("params"))
    misplaced = (
        Result.objects.filter(run__status=Run.Status.DONE)
        .exclude(series=None)
        .filter(elsewhere)
        .values(
            "series__benchmark__key",
            "series__instance_type__name",
            "series__variant",
            "series__params_key",
        )
        .annotate(results=Count("pk"))
        .order_by("series__benchmark__key", "series__instance_type__name", "series__params_key")
    )
    for group in misplaced:
        yield Difference(
            benchmark=group["series__benchmark__key"],
            instance_type=group["series__instance_type__name"],
            variant=group["series__variant"],
            params=group["series__params_key"],
            measured_in=ALL_REGIONS,
            field="results of another series",
            kept=group["results"],
            recomputed=0,
        )


def _check_batch(
    batch: list[int], differences: list[Difference], with_results: list, coverage: CoverageTally
) -> int:
    """Compare these series' kept rows with fresh ones, counting their samples into
    `coverage`; returns how many rows were compared."""
    names = {
        pk: rest
        for pk, *rest in Series.objects.filter(pk__in=batch)
        .order_by()
        .values_list(
            "pk",
            "benchmark__key",
            "instance_type__name",
            "variant",
            "params_key",
            "benchmark_id",
            "params",
            "instance_type__kind",
            "instance_type_id",
        )
    }
    keys = {
        pk: (benchmark_id, key, type_id, variant)
        for pk, (_, _, variant, key, benchmark_id, _, _, type_id) in names.items()
    }
    fresh = {(row[0], row[1]): row for row in compute_statistics(batch, keys, coverage=coverage)}
    kept = {
        (row[0], row[1]): row
        for row in SeriesStatistics.objects.filter(series_id__in=batch)
        .order_by()
        .values_list(*STATISTICS_COLUMNS)
    }
    for series_id, measured_in in fresh:
        if measured_in == ALL_REGIONS:
            _key, name, variant, params_key, benchmark_id, params, kind, _ = names[series_id]
            with_results.append((benchmark_id, params, kind, name, params_key))
    for key in sorted(fresh.keys() | kept.keys()):
        series_id, measured_in = key
        where = (*names[series_id][:4], measured_in)
        kept_row, fresh_row = kept.get(key), fresh.get(key)
        if kept_row is None or fresh_row is None:
            differences.append(
                Difference(
                    *where,
                    "statistics row",
                    _MISSING if kept_row is None else "present",
                    _MISSING if fresh_row is None else "present",
                )
            )
            continue
        for index, column in enumerate(STATISTICS_COLUMNS):
            if column in CHECKED_FIELDS:
                kept_value, recomputed = kept_row[index], _plain(fresh_row[index])
                if not _same(kept_value, recomputed):
                    differences.append(Difference(*where, column, kept_value, recomputed))
    return len(kept)


def _check_summaries(
    with_results: list, kept_coverage: list[BenchmarkCoverage], differences: list[Difference]
) -> int:
    """Each benchmark's parameter values, families, instance types (its coverage rows) and
    peer groups against those of its series, and its sample run against the results."""
    summaries = summaries_of(row[:4] for row in with_results)
    covered: dict[int, list[str]] = defaultdict(list)
    for row in kept_coverage:
        covered[row.benchmark_id].append(row.instance_type.name)
    peers: dict[int, dict[str, int]] = defaultdict(dict)
    for pk, key, series in PeerGroup.objects.values_list("benchmark_id", "params_key", "series"):
        peers[pk][key] = series
    counted: dict[int, Counter] = defaultdict(Counter)
    for benchmark_id, *_, key in with_results:
        counted[benchmark_id][key] += 1
    benchmarks = Benchmark.objects.order_by("key").values_list(
        "pk", "key", "params", "families", "sample_run"
    )
    samples = newest_sample_runs([pk for pk, *_ in benchmarks])
    count = 0
    for pk, key, params, families, sample_run in benchmarks:
        count += 1
        values, measured, names = summaries.get(pk, ({}, set(), set()))
        for name, kept_value, recomputed in (
            ("params", params, ordered_params(values)),
            ("families", families, sorted(measured)),
            ("instance types measured", sorted(covered[pk]), sorted(names)),
            ("sample_run", sample_run, samples.get(pk)),
            ("series per parameter set", peers[pk], dict(counted[pk])),
        ):
            if not _same(kept_value, recomputed):
                differences.append(
                    Difference(key, "(every type)", "", "(summary)", ALL_REGIONS, name,
                               kept_value, recomputed)
                )  # fmt: skip
    return count


def _check_coverage(
    kept_coverage: list[BenchmarkCoverage], coverage: CoverageTally, differences: list[Difference]
) -> None:
    """Each type's runs, days and regions on each benchmark (a benchmark's page sums them)
    against a count of its stored results; its presence is checked with the summaries."""
    kept = {(row.benchmark_id, row.instance_type_id): row for row in kept_coverage}
    for benchmark_id, type_id, *figures in coverage.rows():
        row = kept.get((benchmark_id, type_id))
        if row is None:
            continue
        for name, recomputed in zip(FIGURES, figures, strict=True):
            if not _same(getattr(row, name), recomputed):
                differences.append(
                    Difference(row.benchmark.key, row.instance_type.name, "", "(coverage)",
                               ALL_REGIONS, name, getattr(row, name), recomputed)
                )  # fmt: skip


def _plain(value: Any) -> Any:
    """A recomputed value as the database gives it back (JSON written ahead as text, read)."""
    return json.loads(value) if isinstance(value, JsonText) else value


def _same(kept: Any, recomputed: Any) -> bool:
    if isinstance(kept, float) or isinstance(recomputed, float):
        if isinstance(kept, int | float) and isinstance(recomputed, int | float):
            return math.isclose(kept, recomputed, rel_tol=_RELATIVE_TOLERANCE) or (
                math.isnan(kept) and math.isnan(recomputed)
            )
        return False
    if isinstance(kept, dict) and isinstance(recomputed, dict):
        return kept.keys() == recomputed.keys() and all(
            _same(kept[name], recomputed[name]) for name in kept
        )
    if isinstance(kept, list | tuple) and isinstance(recomputed, list | tuple):
        return len(kept) == len(recomputed) and all(
            _same(a, b) for a, b in zip(kept, recomputed, strict=True)
        )
    return kept == recomputed


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 200 else text[:197] + "..."
