"""Results find their series: the canonical key of a parameter set, and `attach_series`,
which gives unsaved results their series and creates the missing ones."""

from __future__ import annotations

import json
from typing import Any

from django.db import connection

from benchmarks.models import Series

from .rows import insert_rows, stored_params


def params_key(params: dict[str, Any]) -> str:
    """The canonical text of a parameter set: one series per benchmark, machine and key.

    An upload repeats a few parameter sets over its rows, and each is keyed at upload, at
    ingest and for its statistics: the texts of sets of plain values are kept (`_KEYS`),
    under their items with each value's type (1, 1.0 and True are equal keys in Python but
    not in JSON).
    """
    try:
        seen = tuple((name, type(value), value) for name, value in params.items())
        text = _KEYS.get(seen)
    except TypeError:  # a list or mapping among the values: not hashable
        return _dumps(params)
    if text is None:
        if len(_KEYS) >= _KEYS_KEPT:  # a long-lived worker meets many; keep the recent ones
            _KEYS.clear()
        text = _KEYS[seen] = _dumps(params)
    return text


_KEYS: dict[tuple, str] = {}
_KEYS_KEPT = 20_000


def _dumps(params: dict[str, Any]) -> str:
    return json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
    if connection.vendor == "postgresql":
        found, created = _attach_postgresql(wanted)
    else:
        found, created = _attach(wanted)
    for result, key in zip(results, series_keys, strict=True):
        result.series_id = found[key]
    return created


def _attach(wanted: dict[tuple, dict[str, Any]]) -> tuple[dict[tuple, int], set[int]]:
    """(series id by key, ids created): the machines' series read, the missing inserted."""
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
    return found, created


def _series_ids(wanted: dict[tuple, Any]) -> dict[tuple, int]:
    # The machines' series of these benchmarks: a query far cheaper to build than one that
    # lists every parameter key, and rarely more rows than wanted.
    rows = Series.objects.filter(
        instance_type_id__in={key[0] for key in wanted},
        variant__in={key[1] for key in wanted},
        benchmark_id__in={key[2] for key in wanted},
    ).values_list("instance_type_id", "variant", "benchmark_id", "params_key", "pk")
    return {tuple(key): pk for *key, pk in rows if tuple(key) in wanted}


def _attach_postgresql(wanted: dict[tuple, dict[str, Any]]) -> tuple[dict[tuple, int], set[int]]:
    """`_attach` in two statements, each given the wanted keys as one JSON document (psycopg
    would escape every element of arrays in Python): the existing series looked up by their
    natural key's index, then the missing inserted, returning their ids. Reading a machine's
    every series instead grew with its parameter sets; a series another transaction creates
    meanwhile is skipped by the insert and read after it (a third statement, rarely).
    """
    table = connection.ops.quote_name(Series._meta.db_table)
    keys = list(wanted)
    columns = "instance_type_id bigint, variant text, benchmark_id bigint, params_key text"
    match = (
        "series.benchmark_id = w.benchmark_id AND series.instance_type_id = w.instance_type_id "
        "AND series.variant = w.variant AND series.params_key = w.params_key"
    )
    returned = "series.instance_type_id, series.variant, series.benchmark_id, series.params_key"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {returned}, series.id FROM jsonb_to_recordset(%s::jsonb) AS w({columns}) "
            f"JOIN {table} AS series ON {match}",
            [_keys_json(keys)],
        )
        found = {tuple(key): pk for *key, pk in cursor.fetchall()}
        # In one order for every transaction, so that two inserting the same series wait
        # for each other rather than deadlock.
        missing = sorted(key for key in keys if key not in found)
        if not missing:
            return found, set()
        cursor.execute(
            f"INSERT INTO {table} AS series "
            "(instance_type_id, variant, benchmark_id, params_key, params) "
            "SELECT w.instance_type_id, w.variant, w.benchmark_id, w.params_key, "
            f"w.params_key::jsonb FROM jsonb_to_recordset(%s::jsonb) AS w({columns}) "
            f"ON CONFLICT DO NOTHING RETURNING {returned}, series.id",
            [_keys_json(missing)],
        )
        inserted = {tuple(key): pk for *key, pk in cursor.fetchall()}
        found.update(inserted)
        if len(inserted) < len(missing):  # created by another transaction meanwhile
            cursor.execute(
                f"SELECT {returned}, series.id FROM jsonb_to_recordset(%s::jsonb) "
                f"AS w({columns}) JOIN {table} AS series ON {match}",
                [_keys_json([key for key in missing if key not in inserted])],
            )
            found.update((tuple(key), pk) for *key, pk in cursor.fetchall())
    return found, set(inserted.values())


def _keys_json(keys: list[tuple]) -> str:
    return json.dumps(
        [
            {"instance_type_id": t, "variant": v, "benchmark_id": b, "params_key": k}
            for t, v, b, k in keys
        ],
        ensure_ascii=False,
    )
