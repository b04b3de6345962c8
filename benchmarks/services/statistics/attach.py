"""Results find their series: the canonical key of a parameter set, and `attach_series`,
which gives unsaved results their series and creates the missing ones."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.models import Series

from .rows import insert_rows, stored_params


def params_key(params: dict[str, Any]) -> str:
    """The canonical text of a parameter set: one series per benchmark, machine and key."""
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
