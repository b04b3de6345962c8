"""A series measured again: its new statistics rows from its kept row and the samples in hand,
without reading its results back, wherever that gives exactly what a recomputation gives.

Most series hold one run (Spare Cores measures a type once, in no region it names): measured
again, in the same region or in one a table names, their rows are merged here; the others are
recomputed from the database (`compute.compute_statistics`).
"""

from __future__ import annotations

from bisect import insort
from collections import defaultdict
from collections.abc import Sequence
from operator import attrgetter, itemgetter
from typing import Any

from benchmarks.models import SeriesStatistics
from benchmarks.per_dollar import quartiles

from .compute import (
    ALL_REGIONS,
    SERIES_KEY_FIELDS,
    STATISTICS_COLUMNS,
    Sample,
    _json_remembered,
    by_count,
    statistics_row,
)

_first = itemgetter(0)


# The keys `_json_remembered` keeps a merged row's counts under: the kind, then each item
# as a tuple (a region list's items are its codes).


def _remembered_models(items: list[tuple[str, int]]) -> str:
    """The JSON of a CPU model count, from its items in order."""
    return _json_remembered(dict(items), ("models", *items))


def _remembered_sources(items: list[tuple[tuple[str, str], int]]) -> str:
    """The JSON of a source list, from its ((source, licence), count) items in order."""
    rows = [(source, licence, count) for (source, licence), count in items]
    return _json_remembered([list(r) for r in rows], ("sources", *rows))


_value_and_run = attrgetter("value", "run_id")


def mergeable(kept: Sequence[Any], samples: list[Sample]) -> dict[str, Any] | None:
    """The kept row as a dict of its columns when `merged_from` can give, from it and these
    samples of new runs alone, exactly what `compute.statistics_rows` would give the series;
    else None (the series is recomputed from the database). `kept` is the series' one kept
    row (a tuple of STATISTICS_COLUMNS, with its peer group: the all-regions row of a series
    measured in one region).

    The kept row holds every value of a series of at most SAMPLES_KEPT results (its
    `samples`, with each run's CPU model); counts of runs, CPU models and sources add up,
    as the new runs are not among the kept ones. The new runs may be in the kept region or
    in others: the all-regions row then merges every value, and each region gets its row
    (the kept region's merged the same way, another's from the samples in hand alone, as a
    recomputation reads them). It cannot when a result is flagged, when the series outgrows
    the kept samples, when a run stands for several machines (the samples keep no weights:
    its CPU models then count more than its runs), or when a new value equals a kept one (a
    recomputation orders equal values by run, which the samples do not keep).
    """
    row = dict(zip(STATISTICS_COLUMNS, kept, strict=True))
    if (
        row["measured_in"] != ALL_REGIONS
        or len(row["regions"]) != 1
        or sum(row["cpu_models"].values()) != row["runs"]
        or row["flagged_runs"] != 0
        or row["only_flagged"]
        or row["results"] + len(samples) > SeriesStatistics.SAMPLES_KEPT
        or len(row["samples"]) != row["results"]
        or any(sample.weight != 1 or sample.flag is not None for sample in samples)
    ):
        return None
    kept_region = row["regions"][0]
    if (row["sole_region"] or None) != kept_region:
        return None
    kept_values = {value for value, _model in row["samples"]}
    if any(sample.value in kept_values for sample in samples):
        return None
    return row


def merged_from(row: dict[str, Any], samples: list[Sample], now) -> list[tuple]:
    """The series' new statistics rows, from a kept row `mergeable` gave (as a dict of its
    columns) and the samples of its new runs."""
    kept_region = row["regions"][0]
    by_region: dict[str | None, list[Sample]] = defaultdict(list)
    for sample in samples:
        by_region[sample.region].append(sample)
    measured = {kept_region, *by_region}
    key = tuple(row[name] for name in SERIES_KEY_FIELDS)
    regions = sorted(measured, key=lambda code: (code is None, code))
    sole = kept_region if len(measured) == 1 else None
    rows = [_merged(row, samples, ALL_REGIONS, sole or "", regions, now)]
    if len(measured) > 1:
        for code in sorted(code for code in measured if code):
            if code == kept_region:
                rows.append(_merged(row, by_region[code], code, "", [code], now))
            else:
                rows.append((*statistics_row(row["series_id"], code, by_region[code], now), *key))
    return rows


def _merged(
    row: dict[str, Any],
    samples: list[Sample],
    measured_in: str,
    sole_region: str,
    regions: list,
    now,
) -> tuple:
    """The row over the kept row's values and these samples (none flagged, none equal to a
    kept value), measured in `measured_in`."""
    # The kept samples are in the order of their values: the new ones (in the order of their
    # values and runs, as a recomputation sorts them) are put in their places.
    ordered = list(row["samples"])
    for sample in samples if len(samples) == 1 else sorted(samples, key=_value_and_run):
        insort(ordered, [sample.value, sample.cpu_model], key=_first)
    values = [pair[0] for pair in ordered]
    runs: dict[int, Sample] = {}
    for sample in samples:
        runs.setdefault(sample.run_id, sample)
    # Counts added as Counter.update adds them (new names last, in the runs' order), in plain
    # dicts: a Counter's copy and update checked their argument's type for every row (a
    # series measured again is merged twice, an upload's 400 series 800 times).
    models = dict(row["cpu_models"])
    sources = {(source, licence): count for source, licence, count in row["sources"]}
    dates = [row["first_measured_at"], row["last_measured_at"]]
    for run in runs.values():
        models[run.cpu_model] = models.get(run.cpu_model, 0) + 1
        source = (run.source, run.licence)
        sources[source] = sources.get(source, 0) + 1
        dates.append(run.measured_at)
    dates = sorted(date for date in dates if date)
    first_quartile, median, third_quartile = quartiles(values)
    return (
        row["series_id"],
        measured_in,
        sole_region,
        row["runs"] + len(runs),
        len(values),
        median,
        values[0],
        values[-1],
        first_quartile,
        third_quartile,
        # Written as JSON once per distinct value: a few recur over a whole import.
        _remembered_models(sorted(models.items(), key=by_count)),
        _json_remembered(regions, ("regions", *regions)),
        _remembered_sources(sorted(sources.items(), key=by_count)),
        ordered,
        dates[0] if dates else None,
        dates[-1] if dates else None,
        0,
        [],
        False,
        row["verified_runs"] + sum(run.verified for run in runs.values()),
        now,
        *(row[name] for name in SERIES_KEY_FIELDS),
    )
