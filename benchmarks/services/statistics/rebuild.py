"""Rebuilding every kept statistic from the stored results (`rebuild_stats`), telling when a
database needs it, and giving the planner the sizes of freshly filled tables."""

from __future__ import annotations

from django.db import connection, transaction

from benchmarks.models import (
    Benchmark,
    BenchmarkCoverage,
    InstanceType,
    Price,
    Result,
    Run,
    Series,
    SeriesStatistics,
    counted_results,
)

from .attach import attach_series
from .compute import STATISTICS_COLUMNS, compute_statistics
from .coverage import CoverageTally, replace_coverage
from .keep import recompute_summaries
from .noise import keep_noise
from .rows import insert_rows

# rebuild_stats reads this many series' values at a time.
REBUILD_BATCH = 2000


@transaction.atomic
def rebuild_statistics() -> dict[str, int]:
    """Recompute every series, statistic and summary from the stored results.

    Gives every result of a done run its series (but those held for review, which stay out:
    models.HeldResult), recomputes all statistics in batches (counting each benchmark's
    coverage from the same reads), deletes series without results, and recomputes every
    benchmark's summary and noise. On a consistent database
    this changes no answer.
    """
    attached = _attach_results_without_series()
    series_ids = list(Series.objects.order_by("pk").values_list("pk", flat=True))
    SeriesStatistics.objects.all().delete()
    computed = 0
    coverage = CoverageTally()
    for start in range(0, len(series_ids), REBUILD_BATCH):
        batch = series_ids[start : start + REBUILD_BATCH]
        fresh = compute_statistics(batch, coverage=coverage)
        insert_rows(SeriesStatistics, STATISTICS_COLUMNS, fresh)
        computed += len(fresh)
    empty, _ = Series.objects.filter(results=None).delete()
    recompute_summaries(list(Benchmark.objects.values_list("pk", flat=True)))
    replace_coverage(coverage)
    keep_noise(stale_only=False)
    _keep_workload_matrix()
    return {"results_attached": attached, "statistics": computed, "empty_series_deleted": empty}


def _keep_workload_matrix() -> None:
    """The workload model's matrix read from the new statistics and stored, so that a process's
    first workload question after a rebuild (or `loaddemo`) reads it in one query."""
    # Imported here: the selectors import this package.
    from benchmarks.selectors.subjects import workload_vectors

    workload_vectors.keep_stored()


def _attach_results_without_series() -> int:
    """Results stored before statistics were kept (or by hand) get their series; results held
    for review or withdrawn in review do not."""
    pending = (
        Result.objects.filter(counted_results(), series=None, run__status=Run.Status.DONE)
        .exclude(run__instance_type=None)
        .select_related("run")
        .order_by("pk")
    )
    attached = 0
    batch: list[Result] = []
    for result in pending.iterator(chunk_size=5000):
        batch.append(result)
        if len(batch) == 5000:
            attached += _attach_batch(batch)
            batch = []
    return attached + _attach_batch(batch)


def _attach_batch(results: list[Result]) -> int:
    if results:
        attach_series(results)
        Result.objects.bulk_update(results, ["series"], batch_size=1000)
    return len(results)


def needs_rebuild() -> bool:
    """Whether some done run's results have no series yet (a database from before statistics)
    or some statistics were kept before flagged runs were counted, or some coverage before
    its runs were."""
    return (
        (
            Result.objects.filter(counted_results(), series=None, run__status=Run.Status.DONE)
            .exclude(run__instance_type=None)
            .exists()
        )
        or SeriesStatistics.objects.filter(flagged_runs=None).exists()
        or BenchmarkCoverage.objects.filter(runs=None).exists()
    )


def analyze_tables() -> None:
    """Give PostgreSQL's planner the new sizes of the tables a bulk load fills.

    Until autovacuum looks at freshly filled tables the planner takes them as empty, and a
    price-performance question joining them can then be planned to take minutes.
    """
    if connection.vendor != "postgresql":
        return
    models = (InstanceType, Price, Run, Result, Series, SeriesStatistics, Benchmark)
    tables = [model._meta.db_table for model in models]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE " + ", ".join(connection.ops.quote_name(t) for t in tables))
