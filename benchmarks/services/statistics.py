"""The statistics kept at ingest: what the pages and the API read instead of the results.

Every result belongs to a series (benchmark, instance type, variant, parameters). Whenever a
run's results arrive, go or are parsed again, the series they touch are recomputed from their
results, in the caller's transaction and in a fixed number of queries whatever the number of
series: lock the series, read their values, delete their statistics, insert the new ones,
and merge each touched benchmark's summary (its parameters' values and its families). A
series the ingest itself created holds only the results in hand: its statistics are computed
from them without reading anything back (`refresh_stored`), the bulk of a first import.

Concurrent ingests of the same series wait for each other on the series' row locks (taken in
id order, then the benchmarks' in id order, so that two transactions never deadlock), and
each reads the values the other committed.
"""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import IntegrityError, connection, transaction
from django.db.models import BooleanField, Case, QuerySet, Value, When
from django.utils import timezone

from benchmarks import cpu_models, flags, freshness
from benchmarks.models import (
    Benchmark,
    InstanceType,
    Price,
    Result,
    Run,
    Series,
    SeriesStatistics,
    family_of,
)

ALL_REGIONS = SeriesStatistics.ALL_REGIONS
UNKNOWN_CPU = cpu_models.UNKNOWN
# Flagged runs whose ids a statistics row keeps, per flag, for the pages' links.
FLAGGED_RUN_IDS_KEPT = 10
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


class JsonText(str):
    """A JSON value already written as text (a series' `params_key`): `insert_rows` stores
    it as it is instead of dumping it again."""


_NO_FLAGS = JsonText("[]")


# ---- attaching results to series ------------------------------------------------------


def attach_series(results: list, *, keys: list[str] | None = None) -> set[int]:
    """Set the series of unsaved results (their runs set), creating the missing series.

    `results` are Result instances or anything with their `run`, `benchmark_id`, `params`
    and `series_id` (services.results.ResultRow); `keys` their params' `params_key`, when the
    caller has them. Returns the ids of the series this call created: until the transaction
    commits, they hold these results only.

    Three queries at most, whatever the number of results and machines.
    """
    wanted: dict[tuple[int, str, int, str], dict[str, Any]] = {}
    series_keys = []
    texts = keys if keys is not None else [params_key(result.params) for result in results]
    for result, text in zip(results, texts, strict=True):
        key = (result.run.instance_type_id, result.run.variant, result.benchmark_id, text)
        wanted.setdefault(key, result.params)
        series_keys.append(key)
    found = _series_ids(wanted)
    missing = [key for key in wanted if key not in found]
    created: set[int] = set()
    if missing:
        stored = stored_params([key[3] for key in missing], [wanted[key] for key in missing])
        all_ours = insert_rows(
            Series,
            ("instance_type_id", "variant", "benchmark_id", "params_key", "params"),
            [(*key, params) for key, params in zip(missing, stored, strict=True)],
            ignore_conflicts=True,  # another transaction may create the same series
        )
        inserted = _series_ids({key: wanted[key] for key in missing})
        found.update(inserted)
        if all_ours:
            created = set(inserted.values())
    for result, key in zip(results, series_keys, strict=True):
        result.series_id = found[key]
    return created


def _series_ids(wanted: dict[tuple, Any]) -> dict[tuple, int]:
    # The machines' series of these benchmarks: a query far cheaper to build than one that
    # lists every parameter key, and rarely more rows than wanted.
    rows = Series.objects.filter(
        instance_type_id__in={key[0] for key in wanted},
        variant__in={key[1] for key in wanted},
        benchmark_id__in={key[2] for key in wanted},
    ).values_list("instance_type_id", "variant", "benchmark_id", "params_key", "pk")
    return {tuple(key): pk for *key, pk in rows if tuple(key) in wanted}


# ---- computing statistics --------------------------------------------------------------


@dataclass
class _Sample:
    value: float
    run_id: int
    region: str | None
    # Normalised (benchmarks.cpu_models): one name per model.
    cpu_model: str
    source: str
    licence: str
    measured_at: Any
    # Why the result is left out of the figures (benchmarks.flags), or None.
    flag: str | None = None


# The columns of a statistics row, in the order `_row` gives them.
STATISTICS_COLUMNS = (
    "series_id",
    "measured_in",
    "sole_region",
    "runs",
    "results",
    "median",
    "minimum",
    "maximum",
    "first_quartile",
    "third_quartile",
    "cpu_models",
    "regions",
    "sources",
    "samples",
    "first_measured_at",
    "last_measured_at",
    "flagged_runs",
    "flags",
    "only_flagged",
    "updated_at",
)


def _flagged(samples: list[_Sample]) -> tuple[list[_Sample], int, list, bool]:
    """(samples the figures come from, flagged runs, [[flag, runs, [run ids]]], only flagged).

    Flagged results are left out, unless the series has nothing else: its figures then come
    from them, and say so (`only_flagged`).
    """
    clean = [sample for sample in samples if sample.flag is None]
    if len(clean) == len(samples):
        return samples, 0, [], False
    runs_by_flag: dict[str, set[int]] = defaultdict(set)
    for sample in samples:
        if sample.flag is not None:
            runs_by_flag[sample.flag].add(sample.run_id)
    listed = [
        [flag, len(runs), sorted(runs)[:FLAGGED_RUN_IDS_KEPT]]
        for flag, runs in sorted(runs_by_flag.items(), key=lambda item: (-len(item[1]), item[0]))
    ]
    flagged_runs = len(set().union(*runs_by_flag.values()))
    return (clean or samples), flagged_runs, listed, not clean


def _row(series_id: int, measured_in: str, samples: list[_Sample], now) -> tuple:
    """One statistics row as a tuple of STATISTICS_COLUMNS."""
    if len(samples) == 1 and samples[0].flag is None:
        return _single_row(series_id, measured_in, samples[0], now)
    # The all-regions row of a series measured in one region (flagged runs included: they
    # decide whether rows per region exist) also answers for that region.
    measured = {sample.region for sample in samples}
    sole_region = (
        next(iter(measured)) if measured_in == ALL_REGIONS and len(measured) == 1 else None
    )
    samples, flagged_runs, flag_list, only_flagged = _flagged(samples)
    ordered = sorted(samples, key=lambda sample: (sample.value, sample.run_id))
    values = [sample.value for sample in ordered]
    runs: dict[int, _Sample] = {}
    for sample in ordered:
        runs.setdefault(sample.run_id, sample)
    quartiles = (
        statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3
    )
    models = Counter(run.cpu_model for run in runs.values())
    sources = Counter((run.source, run.licence) for run in runs.values())
    dates = sorted(run.measured_at for run in runs.values() if run.measured_at)
    regions = sorted({run.region for run in runs.values()}, key=lambda code: (code is None, code))
    return (
        series_id,
        measured_in,
        sole_region or "",
        len(runs),
        len(values),
        statistics.median(values),
        values[0],
        values[-1],
        quartiles[0],
        quartiles[2],
        dict(sorted(models.items(), key=lambda item: (-item[1], item[0]))),
        regions,
        [
            [source, licence, count]
            for (source, licence), count in sorted(
                sources.items(), key=lambda item: (-item[1], item[0])
            )
        ],
        [[sample.value, sample.cpu_model] for sample in _spaced(ordered)],
        dates[0] if dates else None,
        dates[-1] if dates else None,
        flagged_runs,
        flag_list,
        only_flagged,
        now,
    )


def _single_row(series_id: int, measured_in: str, sample: _Sample, now) -> tuple:
    """`_row` of a series of one result (most series of fresh data), without sorting, its
    JSON written from pieces kept across rows (dumping it took a tenth of a bulk import)."""
    value, cpu_model = sample.value, sample.cpu_model
    return (
        series_id,
        measured_in,
        (sample.region or "") if measured_in == ALL_REGIONS else "",
        1,
        1,
        value,
        value,
        value,
        value,
        value,
        _json_once({cpu_model: 1}, ("models", cpu_model)),
        _json_once([sample.region], ("regions", sample.region)),
        _json_once(
            [[sample.source, sample.licence, 1]], ("sources", sample.source, sample.licence)
        ),
        JsonText(f"[[{_json_number(value)}, {_json_once(cpu_model, ('name', cpu_model))}]]"),
        sample.measured_at,
        sample.measured_at,
        0,
        _NO_FLAGS,
        False,
        now,
    )


# JSON texts of small values that recur across rows (a CPU model, a region, a source).
_JSON_KEPT: dict[Any, str] = {}


def _json_once(value: Any, key: Any) -> str:
    """json.dumps(value), kept under `key` (which names the value whole) for the next rows."""
    text = _JSON_KEPT.get(key)
    if text is None:
        if len(_JSON_KEPT) > 10_000:  # a long-lived worker meets few distinct ones
            _JSON_KEPT.clear()
        text = _JSON_KEPT[key] = JsonText(json.dumps(value))
    return text


def _json_number(value: Any) -> str:
    """json.dumps of a number: a finite float is its repr, as the json module writes it."""
    return repr(value) if type(value) is float and math.isfinite(value) else json.dumps(value)


def _spaced(ordered: list[_Sample]) -> list[_Sample]:
    """At most SAMPLES_KEPT samples, evenly spaced in rank, the first and last included."""
    kept = SeriesStatistics.SAMPLES_KEPT
    if len(ordered) <= kept:
        return ordered
    step = (len(ordered) - 1) / (kept - 1)
    return [ordered[round(index * step)] for index in range(kept)]


def _samples(series_ids: Collection[int]) -> Iterator[tuple[int, _Sample]]:
    # Two plain lookups (results by series, then their runs by primary key) rather than one
    # join: with the join, PostgreSQL without statistics on the results table (rows a
    # transaction has not committed yet, as when a test or a long load writes many types)
    # chose a nested loop over every run, which made each type's refresh slower than the last.
    results = list(
        Result.objects.filter(series_id__in=series_ids)
        # Only the notes that flag a result cross the wire, as a boolean.
        .annotate(
            failed_note=Case(
                When(notes__contains=flags.FAILED_RESPONSES_NOTE, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .values_list("series_id", "value", "run_id", "failed_note")
        .order_by()
        .iterator(chunk_size=10_000)
    )
    runs = {
        pk: rest
        for pk, *rest in Run.objects.filter(
            pk__in={run_id for _, _, run_id, _ in results}, status=Run.Status.DONE
        )
        .values_list(
            "pk", "region__code", "cpu_model", "source", "licence", "measured_at", "warnings"
        )
        .order_by()
        .iterator(chunk_size=10_000)
    }
    names: dict[str, str] = {}
    for series_id, value, run_id, failed_note in results:
        run = runs.get(run_id)
        if run is None:
            continue
        region, raw_cpu, source, licence, measured_at, warnings = run
        cpu_model = names.get(raw_cpu)
        if cpu_model is None:
            cpu_model = names[raw_cpu] = cpu_models.normalise(raw_cpu)
        flag = (
            flags.flag_of(warnings, flags.FAILED_RESPONSES_NOTE if failed_note else None)
            if warnings or failed_note
            else None
        )
        yield (
            series_id,
            _Sample(value, run_id, region, cpu_model, source, licence, measured_at, flag),
        )


def compute_statistics(series_ids: Collection[int]) -> list[tuple]:
    """The statistics rows of these series, from their done runs' results (two queries).

    An all-regions row per series, and a row per region only for series measured in
    several regions (the all-regions row of the others names their one region).
    """
    by_series: dict[int, list[_Sample]] = defaultdict(list)
    for series_id, sample in _samples(series_ids):
        by_series[series_id].append(sample)
    return _statistics_rows(by_series)


def _statistics_rows(by_series: dict[int, list[_Sample]]) -> list[tuple]:
    """`compute_statistics` from the samples of each series, wherever they were read."""
    now = timezone.now()
    rows = []
    for series_id in sorted(by_series):
        samples = by_series[series_id]
        rows.append(_row(series_id, ALL_REGIONS, samples, now))
        regions: dict[str | None, list[_Sample]] = defaultdict(list)
        for sample in samples:
            regions[sample.region].append(sample)
        if len(regions) > 1:
            for region in sorted(code for code in regions if code):
                rows.append(_row(series_id, region, regions[region], now))
    return rows


# How a Run's measured_at is stored (a date from a date, a datetime or ISO text).
_stored_date = Run._meta.get_field("measured_at").to_python


def _samples_in_hand(rows: Iterable) -> Iterator[tuple[int, _Sample]]:
    """`_samples` of results just stored, from their rows and runs in memory (no query).

    The same figures the database would give back: each value as the float column stores
    it, the run's region, normalised CPU model, date and flags, the done runs only.
    """
    names: dict[str, str] = {}
    note = flags.FAILED_RESPONSES_NOTE
    # SQLite's LIKE (`notes__contains` in `_samples`) ignores the case of ASCII letters.
    blind = connection.vendor == "sqlite"
    for row in rows:
        run = row.run
        if run.status != Run.Status.DONE:
            continue
        cpu_model = names.get(run.cpu_model)
        if cpu_model is None:
            cpu_model = names[run.cpu_model] = cpu_models.normalise(run.cpu_model)
        notes = row.notes or ""
        failed_note = (note.lower() in notes.lower()) if blind else (note in notes)
        flag = (
            flags.flag_of(run.warnings, note if failed_note else None)
            if run.warnings or failed_note
            else None
        )
        region = run.region.code if run.region_id else None
        yield (
            row.series_id,
            _Sample(
                float(row.value),
                run.pk,
                region,
                cpu_model,
                run.source,
                run.licence,
                _stored_date(run.measured_at),
                flag,
            ),
        )


def stored_params(texts: Sequence[str], params: Sequence[dict[str, Any]]) -> list[Any]:
    """What `insert_rows` writes for params whose `params_key`s are `texts`.

    On PostgreSQL the canonical texts themselves (jsonb keeps no key order, so nothing changes
    but the dumping saved); elsewhere the dicts, whose keys then keep the parser's order.
    """
    if connection.vendor == "postgresql":
        return [JsonText(text) for text in texts]
    return list(params)


def _json_text(value: Any) -> str:
    # Django's JSONField writes json.dumps(value) (no encoder is set on our fields).
    return value if isinstance(value, JsonText) else json.dumps(value)


def insert_rows(
    model, columns: tuple[str, ...], rows: list[tuple], *, ignore_conflicts: bool = False
) -> bool:
    """Insert rows of plain values (tuples of `columns`): with COPY on PostgreSQL, else one
    executemany per 5,000. Returns whether this call inserted every row itself (False when,
    ignoring conflicts, some rows may have been there already).

    The ORM's per-field work made bulk_create of series and statistics most of an ingest's
    time; here each value is adapted once, the way the ORM adapts it for the column's type.
    JSON is passed to COPY as text, which PostgreSQL reads as jsonb: psycopg's Jsonb wrapper
    cost as much as the dumping itself.
    """
    if not rows:
        return True
    ops = connection.ops
    fields = [model._meta.get_field(column.removesuffix("_id")) for column in columns]
    adapters = []
    for index, model_field in enumerate(fields):
        kind = model_field.get_internal_type()
        if kind == "JSONField":
            adapters.append((index, _json_text))
        elif kind == "DateField":
            adapters.append((index, ops.adapt_datefield_value))
        elif kind == "DateTimeField":
            adapters.append((index, ops.adapt_datetimefield_value))

    def adapt(row: tuple) -> tuple:
        values = list(row)
        for index, adapter in adapters:
            values[index] = adapter(values[index])
        return tuple(values)

    quote = ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(column) for column in columns)
    if connection.vendor == "postgresql":
        return _copy(table, names, [adapt(row) for row in rows], ignore_conflicts=ignore_conflicts)
    sql = "INSERT INTO {} ({}) VALUES ({}){}".format(
        table,
        names,
        ", ".join(["%s"] * len(columns)),
        " ON CONFLICT DO NOTHING" if ignore_conflicts else "",
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, [adapt(row) for row in rows[start : start + 5000]])
    # SQLite has one writer: a transaction that has read a row missing cannot commit a write
    # after another connection inserted it, so ON CONFLICT never skips a row we looked for.
    return True


def _copy(table: str, names: str, rows: list[tuple], *, ignore_conflicts: bool) -> bool:
    """PostgreSQL's COPY, several times faster than executemany (whose client-side binding
    quotes every value in Python).

    COPY cannot skip conflicts. Rows that may conflict (series another transaction may be
    creating) are copied in a savepoint; only when that meets a conflict do they go through a
    temporary table and an INSERT ... ON CONFLICT DO NOTHING.
    """
    if not ignore_conflicts:
        _copy_into(table, names, rows)
        return True
    try:
        with transaction.atomic():
            _copy_into(table, names, rows)
        return True
    except (IntegrityError, psycopg.errors.IntegrityError):
        pass
    temporary = connection.ops.quote_name("pricebench_copy")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE {temporary} AS SELECT {names} FROM {table} WITH NO DATA"
        )
        _copy_into(temporary, names, rows)
        cursor.execute(
            f"INSERT INTO {table} ({names}) SELECT {names} FROM {temporary} ON CONFLICT DO NOTHING"
        )
        cursor.execute(f"DROP TABLE {temporary}")
    return False


def _copy_into(table: str, names: str, rows: list[tuple]) -> None:
    with connection.cursor() as cursor:
        # Django's cursor wraps psycopg's, which alone speaks COPY.
        with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


# ---- keeping them ---------------------------------------------------------------------


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
    locked, fresh = _recompute(ids)
    insert_rows(SeriesStatistics, STATISTICS_COLUMNS, fresh)
    if removed:
        kept = {row[0] for row in fresh}
        empty = [pk for pk, *_ in locked if pk not in kept]
        if empty:
            Series.objects.filter(pk__in=empty).delete()
        _recompute_summaries({benchmark_id for _, benchmark_id, *_ in locked})
    else:
        _merge_summaries(locked)


def _recompute(ids: Collection[int] | QuerySet) -> tuple[list[tuple], list[tuple]]:
    """Lock these series, recompute their statistics from the database and delete the old
    ones: (the series as (pk, benchmark id, params, kind, name), their new rows)."""
    locked = list(
        Series.objects.select_for_update(of=("self",))
        .filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "benchmark_id", "params", "instance_type__kind", "instance_type__name")
    )
    fresh = compute_statistics(ids)
    SeriesStatistics.objects.filter(series_id__in=ids).delete()
    return locked, fresh


@transaction.atomic
def refresh_stored(rows: Sequence, *, created: Collection[int]) -> None:
    """Keep the statistics of the series that just-stored results went to (their runs saved
    done or failed), and merge their benchmarks' summaries.

    `rows` are the results as `attach_series` left them (services.results.ResultRow, their runs'
    region and instance type in memory); `created` the series it created. Those hold these
    results only, so their statistics come from the values in hand, without reading anything
    back; the other series are locked and recomputed from the database, as `refresh_series`
    does. The same statistics either way (tests/services/test_statistics.py).
    """
    if not rows:
        return
    freshness.data_changed()
    new: dict[int, tuple] = {}
    for row in rows:
        if row.series_id in created and row.series_id not in new:
            machine = row.run.instance_type
            new[row.series_id] = (row.benchmark_id, row.params, machine.kind, machine.name)
    old = sorted({row.series_id for row in rows} - new.keys())
    locked, fresh = _recompute(old) if old else ([], [])
    by_series: dict[int, list[_Sample]] = defaultdict(list)
    for series_id, sample in _samples_in_hand(row for row in rows if row.series_id in new):
        by_series[series_id].append(sample)
    fresh.extend(_statistics_rows(by_series))
    insert_rows(SeriesStatistics, STATISTICS_COLUMNS, fresh)
    _merge_summaries([*locked, *((pk, *described) for pk, described in new.items())])


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


def _merge_summaries(series: list[tuple]) -> None:
    """New results only add parameter values and families: merge them into the summaries.

    The benchmarks are locked in id order (a deletion recomputes them under the same lock).
    On PostgreSQL, one query locks them and tells which already hold every value and family
    (jsonb containment), so that only the others are read and written: most ingests bring
    nothing new, and reading every summary back had cost a tenth of a bulk import.
    """
    summaries = _summary_of(rest for _pk, *rest in series)
    if not summaries:
        return
    ids = sorted(summaries)
    if connection.vendor == "postgresql":
        # One JSON document rather than arrays: psycopg escapes every array element in Python.
        wanted = json.dumps(
            [
                {
                    "id": pk,
                    "params": _ordered_params(summaries[pk][0]),
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
    changed: dict[int, tuple[dict, list]] = {}
    for pk, known_params, known_families in current.order_by("pk").values_list(
        "pk", "params", "families"
    ):
        values, families = summaries[pk]
        for name, known in known_params.items():
            values[name].update(_hashable(value) for value in known)
        params = _ordered_params(values)
        families = sorted(families | set(known_families))
        if (params, families) != (known_params, known_families):
            changed[pk] = (params, families)
    # Every summary gets the new time in one UPDATE (bulk_update's CASE per row took longer
    # than the whole ingest); only the changed ones are written whole.
    Benchmark.objects.filter(pk__in=ids).update(stats_updated_at=timezone.now())
    if changed:
        _write_summaries(changed)


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


def series_of_runs(run_ids: Collection[int]) -> QuerySet:
    """A query of the series that the results of these runs belong to."""
    return Result.objects.filter(run_id__in=run_ids).exclude(series=None).values("series_id")


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
        insert_rows(SeriesStatistics, STATISTICS_COLUMNS, fresh)
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
    or some statistics were kept before flagged runs were counted."""
    return (
        Result.objects.filter(series=None, run__status=Run.Status.DONE)
        .exclude(run__instance_type=None)
        .exists()
    ) or SeriesStatistics.objects.filter(flagged_runs=None).exists()


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
