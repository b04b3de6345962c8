"""Keeping the statistics: recompute the series a write touched, and merge (or recompute)
their benchmarks' summaries (each parameter's values, the families and instance types
measured, the sample run).

Concurrent ingests of the same series wait for each other on the series' row locks (taken in
id order, then the benchmarks' in id order, so that two transactions never deadlock), and
each reads the values the other committed.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

import orjson
from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast
from django.utils import timezone

from benchmarks import freshness
from benchmarks.models import (
    Benchmark,
    PeerGroup,
    Result,
    Run,
    Series,
    SeriesStatistics,
    family_of,
)

from .attach import params_key
from .compute import (
    ALL_REGIONS,
    STATISTICS_COLUMNS,
    Sample,
    SeriesKey,
    compute_statistics,
    samples_in_hand,
    statistics_rows,
)
from .coverage import CoverageTally, add_coverage, recount_coverage
from .merge import mergeable, merged_from
from .rows import in_ids, insert_rows


def param_order(value: Any) -> tuple:
    """Numbers first, in numeric order, then everything else as text."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value))


@transaction.atomic
def refresh_series(series_ids: Iterable[int] | QuerySet, *, removed: bool = False) -> None:
    """Recompute the statistics of these series and their benchmarks' summaries.

    `series_ids` may be a query of ids (`series_of_runs`), which spares building queries
    that list tens of thousands of ids. `removed` says results may have gone (a deleted or
    re-parsed run): the benchmarks' summaries are then recomputed instead of merged, and
    series left empty are deleted.
    """
    ids = series_ids if isinstance(series_ids, QuerySet) else sorted(set(series_ids))
    if not ids:
        return
    freshness.data_changed()
    # Read before the series left empty go.
    pairs = set(Series.objects.filter(pk__in=ids).values_list("benchmark_id", "instance_type_id"))
    locked, fresh = _lock_and_recompute(ids)
    insert_rows(SeriesStatistics, STATISTICS_COLUMNS, fresh)
    if removed:
        kept = {row[0] for row in fresh}
        empty = [pk for pk, *_ in locked if pk not in kept]
        if empty:
            Series.objects.filter(pk__in=empty).delete()
        recompute_summaries({benchmark_id for _, benchmark_id, *_ in locked})
    else:
        _merge_summaries(locked)
        # Series given here may have had no statistics before: their groups are counted again.
        recount_peers({benchmark_id for _, benchmark_id, *_ in locked})
    # Under the benchmarks' locks, taken above.
    recount_coverage(pairs)


def _lock_and_recompute(ids: Collection[int] | QuerySet) -> tuple[list[tuple], list[tuple]]:
    """Lock these series, recompute their statistics from the database and delete the old
    ones: (the series as (pk, benchmark id, params, kind, name), their new rows)."""
    locked = _lock(ids)
    fresh = compute_statistics(ids)
    SeriesStatistics.objects.filter(series_id__in=ids).delete()
    return locked, fresh


def _lock(ids: Collection[int] | QuerySet) -> list[tuple]:
    return list(
        Series.objects.select_for_update(of=("self",))
        .filter(in_ids("pk", ids))
        .order_by("pk")
        .values_list("pk", "benchmark_id", "params", "instance_type__kind", "instance_type__name")
    )


def lock_kept(ids: Collection[int]) -> dict[int, list[tuple]]:
    """Lock these series (which had results before this ingest) by id alone, in id order,
    and read their kept statistics rows: {series id: its rows, as tuples of
    STATISTICS_COLUMNS}. Read once per ingest, right after the results found their series:
    the screen judges uploaded figures against them and `refresh_stored` merges them.

    Reading every series' parameters and type as well cost an import of a hundred thousand
    results seconds for summaries that hold them (issue 56).
    """
    ids = sorted(ids)
    if not ids:
        return {}
    list(
        Series.objects.select_for_update()
        .filter(in_ids("pk", ids))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    kept: dict[int, list[tuple]] = {}
    for row in _kept_rows(ids):
        kept.setdefault(row[0], []).append(row)
    return kept


def _lock_and_merge(
    ids: list[int], samples: Sequence[tuple[int, Sample]], kept: dict[int, list[tuple]]
) -> tuple[list[tuple], Iterator[tuple]]:
    """`_lock_and_recompute` for series that already had results and now have `samples` too
    (locked, their kept rows read: `lock_kept`): a series' new rows are merged from its kept
    one and the values in hand where that gives the recomputation's figures exactly
    (`merge.mergeable`: most series measured again, in their region or another), so its results
    are not read back; the others are recomputed.

    Returns (the series that had no statistics, as `_lock` gives them: the only ones whose
    parameters and family the benchmarks' summaries may not hold yet; their new rows). The
    merged rows come as the iterator is read, querying nothing: `insert_rows` merges each
    while the server stores the ones before it.
    """
    in_hand: dict[int, list[Sample]] = {}
    for series_id, sample in samples:
        if series_id in kept:
            in_hand.setdefault(series_id, []).append(sample)
    now = timezone.now()
    merging, again = [], []
    for pk in ids:
        rows, new = kept.get(pk, ()), in_hand.get(pk)
        row = mergeable(rows[0], new) if len(rows) == 1 and new else None
        if row is None:
            again.append(pk)
        else:
            merging.append((row, new))
    recomputed = compute_statistics(again) if again else []
    SeriesStatistics.objects.filter(in_ids("series_id", ids)).delete()
    unkept = [pk for pk in ids if pk not in kept]
    merged = chain.from_iterable(merged_from(row, new, now) for row, new in merging)
    return (_lock(unkept) if unkept else []), chain(merged, recomputed)


# The JSON columns of a statistics row, read as text: most of their values recur over an
# import (a CPU model count, a region, a source), and each distinct text is decoded once
# (Django's converter decoded every row's: a tenth of a 100,000-result import, issue 56).
_JSON_COLUMNS = frozenset(("cpu_models", "regions", "sources", "samples", "flags"))


def _kept_rows(ids: list[int]) -> Iterable[tuple]:
    """The statistics rows of these series, as tuples of STATISTICS_COLUMNS; their JSON
    values shared between rows that hold the same (never change them)."""
    texts = {f"{name}_text": Cast(name, TextField()) for name in _JSON_COLUMNS}
    rows = (
        SeriesStatistics.objects.filter(in_ids("series_id", ids))
        .order_by()
        .annotate(**texts)
        .values_list(
            *(f"{name}_text" if name in _JSON_COLUMNS else name for name in STATISTICS_COLUMNS)
        )
    )
    positions = [
        (index, name != "samples")  # a series' samples are its own: not kept
        for index, name in enumerate(STATISTICS_COLUMNS)
        if name in _JSON_COLUMNS
    ]
    decoded: dict[str, Any] = {}
    for row in rows:
        values = list(row)
        for index, recurs in positions:
            text = values[index]
            value = decoded.get(text) if recurs else None
            if value is None and text is not None:
                value = orjson.loads(text)
                if recurs and len(decoded) < 10_000:
                    decoded[text] = value
            values[index] = value
        yield tuple(values)


@transaction.atomic
def refresh_stored(
    rows: Sequence, *, created: Collection[int], kept: dict[int, list[tuple]] | None = None
) -> None:
    """Keep the statistics of the series that just-stored results went to (their runs saved
    done or failed), and merge their benchmarks' summaries.

    `rows` are the results as `attach_series` left them (services.results.ResultRow, their runs'
    region and instance type in memory); `created` the series it created. Those hold these
    results only, so their statistics come from the values in hand, without reading anything
    back; the other series are locked, and their rows merged from the kept ones and the
    values in hand or recomputed from the database (`_lock_and_merge`). `kept` is what
    `lock_kept` gave for them, when the caller locked and read them already. The same statistics
    every way (tests/services/statistics/test_compute.py, test_keep.py).
    """
    if not rows:
        return
    freshness.data_changed()
    new: dict[int, tuple] = {}
    keys: dict[int, SeriesKey] = {}
    for row in rows:
        if row.series_id in created and row.series_id not in new:
            machine = row.run.instance_type
            new[row.series_id] = (row.benchmark_id, row.params, machine.kind, machine.name)
            keys[row.series_id] = (
                row.benchmark_id,
                params_key(row.params),
                machine.pk,
                row.run.variant,
            )
    samples = list(samples_in_hand(rows))
    old = sorted({row.series_id for row in rows} - new.keys())
    if old and kept is None:
        kept = lock_kept(old)
    unkept, fresh = _lock_and_merge(old, samples, kept) if old else ([], [])
    by_series: dict[int, list[Sample]] = defaultdict(list)
    coverage = CoverageTally()
    pair_of = {row.series_id: (row.benchmark_id, row.run.instance_type_id) for row in rows}
    for series_id, sample in samples:
        if series_id in new:
            by_series[series_id].append(sample)
        coverage.add(pair_of[series_id], sample)
    insert_rows(
        SeriesStatistics, STATISTICS_COLUMNS, chain(fresh, statistics_rows(by_series, keys))
    )
    _merge_summaries(
        [*unkept, *((pk, *described) for pk, described in new.items())],
        coverage=coverage,
        touched={row.benchmark_id for row in rows},
    )
    _count_peers(key[:2] for key in keys.values())
    _keep_sample_runs(rows)


def _keep_sample_runs(rows: Sequence) -> None:
    """Each benchmark's newest run with raw output among these rows becomes its sample,
    unless it already has a newer one: one UPDATE (the benchmarks are locked already)."""
    newest: dict[int, int] = {}
    for row in rows:
        if row.run.raw_output and row.run.pk > newest.get(row.benchmark_id, 0):
            newest[row.benchmark_id] = row.run.pk
    if not newest:
        return
    run = Case(*(When(pk=pk, then=Value(run_id)) for pk, run_id in newest.items()))
    Benchmark.objects.filter(pk__in=newest).filter(
        Q(sample_run__isnull=True) | Q(sample_run_id__lt=run)
    ).update(sample_run_id=run)


def newest_sample_runs(benchmark_ids: Collection[int]) -> dict[int, int]:
    """Benchmark id -> its newest done run with raw output and a result in a series, read
    from the results (a deletion and `rebuild_stats` call it; pages read `sample_run`)."""
    newest = (
        Result.objects.filter(
            benchmark=OuterRef("pk"), series__isnull=False, run__status=Run.Status.DONE
        )
        .exclude(run__raw_output="")
        .order_by("-run_id")
        .values("run_id")[:1]
    )
    return {
        pk: run_id
        for pk, run_id in Benchmark.objects.filter(pk__in=benchmark_ids)
        .annotate(sample=Subquery(newest))
        .values_list("pk", "sample")
        if run_id is not None
    }


def summaries_of(
    series: Iterable[tuple[int, dict, str, str]],
) -> dict[int, tuple[dict, set, set]]:
    """(benchmark id, params, instance type kind, name) -> {benchmark id: (values, families,
    instance type names)}."""
    summaries: dict[int, tuple[dict[str, set], set[str], set[str]]] = defaultdict(
        lambda: (defaultdict(set), set(), set())
    )
    for benchmark_id, params, kind, name in series:
        values, families, names = summaries[benchmark_id]
        for param, value in params.items():
            values[param].add(_hashable(value))
        families.add(family_of(kind, name))
        names.add(name)
    return summaries


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


def ordered_params(values: dict[str, set]) -> dict[str, list]:
    return {name: sorted(values[name], key=param_order) for name in sorted(values)}


def _merge_summaries(
    series: list[tuple],
    *,
    coverage: CoverageTally | None = None,
    touched: Collection[int] = (),
) -> None:
    """New results only add parameter values and families: merge them into the summaries,
    and the runs just stored (`coverage`) into the benchmarks' coverage. `series` are those
    whose parameters and family the summaries may not hold yet; `touched` the benchmarks of
    other series given results (stamped and locked all the same).

    The benchmarks are locked in id order (a deletion recomputes them under the same lock).
    On PostgreSQL, one query locks them and tells which already hold every value and family
    (jsonb containment), so that only the others are read and written: most ingests bring
    nothing new, and their summaries are then neither read back nor written.
    """
    summaries = summaries_of(rest for _pk, *rest in series)
    ids = sorted({*summaries, *touched})
    if not ids:
        return
    if connection.vendor == "postgresql":
        # One JSON document rather than arrays: psycopg escapes every array element in Python.
        wanted = json.dumps(
            [
                {
                    "id": pk,
                    "params": ordered_params(summaries[pk][0]),
                    "families": sorted(summaries[pk][1]),
                }
                for pk in ids
            ]
        )
        table = connection.ops.quote_name(Benchmark._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT benchmark.id, benchmark.params @> wanted.params "
                f"AND benchmark.families @> wanted.families "
                f"FROM {table} AS benchmark "
                f"JOIN jsonb_to_recordset(%s::jsonb) "
                f"AS wanted(id bigint, params jsonb, families jsonb) ON benchmark.id = wanted.id "
                f"ORDER BY benchmark.id FOR UPDATE OF benchmark",
                [wanted],
            )
            stale = [pk for pk, holds in cursor.fetchall() if not holds]
        current = Benchmark.objects.filter(pk__in=stale) if stale else Benchmark.objects.none()
    else:
        current = Benchmark.objects.select_for_update().filter(pk__in=ids)
    # Under the benchmarks' locks: two ingests adding to the same type wait on them, not on
    # each other's coverage rows.
    if coverage is not None:
        add_coverage(coverage)
    changed: dict[int, tuple[dict, list]] = {}
    for pk, known_params, known_families in current.order_by("pk").values_list(
        "pk", "params", "families"
    ):
        values, families, _names = summaries[pk]
        for name, known in known_params.items():
            values[name].update(_hashable(value) for value in known)
        params = ordered_params(values)
        families = sorted(families | set(known_families))
        if (params, families) != (known_params, known_families):
            changed[pk] = (params, families)
    # Every summary gets the new time in one plain UPDATE rather than bulk_update's CASE per
    # row; only the changed ones are written whole.
    Benchmark.objects.filter(pk__in=ids).update(stats_updated_at=timezone.now())
    if changed:
        _write_summaries(changed)


def _count_peers(groups: Iterable[tuple[int, str]]) -> None:
    """Count new series, as (benchmark id, parameter key), into their peer groups: one
    INSERT ... ON CONFLICT per group adds to its count (PostgreSQL and SQLite alike), sent
    at once. The benchmarks are locked already, so two ingests never add to a group at once.
    """
    added = sorted(Counter(groups).items())
    if not added:
        return
    table = connection.ops.quote_name(PeerGroup._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {table} (benchmark_id, params_key, series) VALUES (%s, %s, %s) "
            f"ON CONFLICT (benchmark_id, params_key) DO UPDATE "
            f"SET series = {table}.series + excluded.series",
            [(pk, key, count) for (pk, key), count in added],
        )


def recount_peers(benchmark_ids: Collection[int]) -> None:
    """These benchmarks' peer groups again from their series' all-regions statistics rows
    (deletions and `rebuild_stats` call it)."""
    PeerGroup.objects.filter(benchmark_id__in=benchmark_ids).delete()
    groups = (
        SeriesStatistics.objects.filter(benchmark_id__in=benchmark_ids, measured_in=ALL_REGIONS)
        .values_list("benchmark_id", "params_key")
        .annotate(series=Count("pk"))
        .order_by()
    )
    PeerGroup.objects.bulk_create(
        [PeerGroup(benchmark_id=pk, params_key=key, series=n) for pk, key, n in groups],
        batch_size=5000,
    )


def _write_summaries(changed: dict[int, tuple[dict, list]]) -> None:
    """Write these benchmarks' (params, families): one UPDATE from a JSON list on PostgreSQL."""
    if connection.vendor != "postgresql":
        Benchmark.objects.bulk_update(
            [Benchmark(pk=pk, params=params, families=families) for pk, (params, families) in
             changed.items()],
            ["params", "families"],
        )  # fmt: skip
        return
    table = connection.ops.quote_name(Benchmark._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS benchmark SET params = new.params, families = new.families "
            f"FROM jsonb_to_recordset(%s::jsonb) AS new(id bigint, params jsonb, families jsonb) "
            f"WHERE benchmark.id = new.id",
            [
                json.dumps(
                    [
                        {"id": pk, "params": params, "families": families}
                        for pk, (params, families) in changed.items()
                    ]
                )
            ],
        )


def recompute_summaries(benchmark_ids: Collection[int]) -> None:
    """The summaries of these benchmarks from their series that still have results (their
    coverage apart: `recount_coverage` of the pairs a change touched, or `replace_coverage`)."""
    benchmarks = list(
        Benchmark.objects.select_for_update().filter(pk__in=benchmark_ids).order_by("pk")
    )
    summaries = summaries_of(
        Series.objects.filter(
            benchmark_id__in=benchmark_ids, statistics__measured_in=ALL_REGIONS
        ).values_list("benchmark_id", "params", "instance_type__kind", "instance_type__name")
    )
    recount_peers(benchmark_ids)
    samples = newest_sample_runs(benchmark_ids)
    now = timezone.now()
    for benchmark in benchmarks:
        benchmark.sample_run_id = samples.get(benchmark.pk)
        values, families, _names = summaries.get(benchmark.pk, ({}, set(), set()))
        benchmark.params = ordered_params(values)
        benchmark.families = sorted(families)
        benchmark.stats_updated_at = now
    Benchmark.objects.bulk_update(
        benchmarks, ["params", "families", "sample_run", "stats_updated_at"]
    )


def series_of_runs(run_ids: Collection[int]) -> QuerySet:
    """A query of the series that the results of these runs belong to."""
    return Result.objects.filter(run_id__in=run_ids).exclude(series=None).values("series_id")
