"""A series' statistics rows from its samples: median, quartiles, extremes, CPU models,
regions, sources, evenly spaced samples and the flagged runs left out of the figures.

The samples are read from the database (`stored_samples`) or taken from results just stored,
still in memory (`samples_in_hand`); both give the same figures.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import connection
from django.db.models import BooleanField, Case, Value, When
from django.utils import timezone

from benchmarks import cpu_models, flags
from benchmarks.models import Result, Run, Series, SeriesStatistics
from benchmarks.per_dollar import quartiles

from .rows import JsonText, in_ids

ALL_REGIONS = SeriesStatistics.ALL_REGIONS
# Flagged runs whose ids a statistics row keeps, per flag, for the pages' links.
FLAGGED_RUN_IDS_KEPT = 10
_NO_FLAGS = JsonText("[]")


@dataclass
class Sample:
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
    # How many machines the run stands for (Run.observations): the result counts that many
    # times in the quartiles and its CPU model that many times in `cpu_models`.
    weight: int = 1
    # Its run's identity proof named the run's type (Run.verified).
    verified: bool = False


# The columns of a statistics row, in the order `statistics_row` gives them.
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
    "verified_runs",
    "updated_at",
    # The series' peer group (benchmark, parameter key), then its instance type and variant:
    # what it is (`SeriesKey`), appended by `statistics_rows`.
    "benchmark_id",
    "params_key",
    "instance_type_id",
    "variant",
)

# A series as its statistics rows name it: (benchmark id, parameter key, instance type id,
# variant); the first two are its peer group.
SeriesKey = tuple[int, str, int, str]
SERIES_KEY_FIELDS = ("benchmark_id", "params_key", "instance_type_id", "variant")


def _without_flagged(samples: list[Sample]) -> tuple[list[Sample], int, list, bool]:
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


def by_count(item: tuple) -> tuple:
    """A (name, count) item's order in a kept row's counts: most counted first, then by name."""
    return (-item[1], item[0])


def statistics_row(series_id: int, measured_in: str, samples: list[Sample], now) -> tuple:
    """One statistics row as a tuple of STATISTICS_COLUMNS, but for the peer group."""
    if len(samples) == 1 and samples[0].flag is None:
        return _one_result_row(series_id, measured_in, samples[0], now)
    # The all-regions row of a series measured in one region (flagged runs included: they
    # decide whether rows per region exist) also answers for that region.
    measured = {sample.region for sample in samples}
    sole_region = (
        next(iter(measured)) if measured_in == ALL_REGIONS and len(measured) == 1 else None
    )
    samples, flagged_runs, flag_list, only_flagged = _without_flagged(samples)
    ordered = sorted(samples, key=lambda sample: (sample.value, sample.run_id))
    values = [sample.value for sample in ordered]
    runs: dict[int, Sample] = {}
    for sample in ordered:
        runs.setdefault(sample.run_id, sample)
    first_quartile, median, third_quartile = quartiles(
        values, [sample.weight for sample in ordered]
    )
    models: Counter = Counter()
    for run in runs.values():
        models[run.cpu_model] += run.weight
    sources = Counter((run.source, run.licence) for run in runs.values())
    dates = sorted(run.measured_at for run in runs.values() if run.measured_at)
    regions = sorted({run.region for run in runs.values()}, key=lambda code: (code is None, code))
    return (
        series_id,
        measured_in,
        sole_region or "",
        len(runs),
        len(values),
        median,
        values[0],
        values[-1],
        first_quartile,
        third_quartile,
        dict(sorted(models.items(), key=by_count)),
        regions,
        [
            [source, licence, count]
            for (source, licence), count in sorted(sources.items(), key=by_count)
        ],
        [[sample.value, sample.cpu_model] for sample in _evenly_spaced(ordered)],
        dates[0] if dates else None,
        dates[-1] if dates else None,
        flagged_runs,
        flag_list,
        only_flagged,
        sum(run.verified for run in runs.values()),
        now,
    )


def _one_result_row(series_id: int, measured_in: str, sample: Sample, now) -> tuple:
    """`statistics_row` of a series of one result (most series of fresh data), without sorting, its
    JSON written from pieces remembered across rows rather than dumped again per row."""
    value, cpu_model, weight = sample.value, sample.cpu_model, sample.weight
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
        _json_remembered({cpu_model: weight}, ("models", cpu_model, weight)),
        _json_remembered([sample.region], ("regions", sample.region)),
        _json_remembered(
            [[sample.source, sample.licence, 1]], ("sources", sample.source, sample.licence)
        ),
        JsonText(f"[[{_json_number(value)}, {_json_remembered(cpu_model, ('name', cpu_model))}]]"),
        sample.measured_at,
        sample.measured_at,
        0,
        _NO_FLAGS,
        False,
        int(sample.verified),
        now,
    )


# JSON texts of small values that recur across rows (a CPU model, a region, a source).
_JSON_TEXTS: dict[Any, str] = {}


def _json_remembered(value: Any, key: Any) -> str:
    """json.dumps(value), kept under `key` (which names the value whole) for the next rows."""
    text = _JSON_TEXTS.get(key)
    if text is None:
        if len(_JSON_TEXTS) > 10_000:  # a long-lived worker meets few distinct ones
            _JSON_TEXTS.clear()
        text = _JSON_TEXTS[key] = JsonText(json.dumps(value))
    return text


def _json_number(value: Any) -> str:
    """json.dumps of a number: a finite float is its repr, as the json module writes it."""
    return repr(value) if type(value) is float and math.isfinite(value) else json.dumps(value)


def _evenly_spaced(ordered: list[Sample]) -> list[Sample]:
    """At most SAMPLES_KEPT samples, evenly spaced in rank, the first and last included."""
    kept = SeriesStatistics.SAMPLES_KEPT
    if len(ordered) <= kept:
        return ordered
    step = (len(ordered) - 1) / (kept - 1)
    return [ordered[round(index * step)] for index in range(kept)]


def stored_samples(series_ids: Collection[int]) -> Iterator[tuple[int, Sample]]:
    # Read through the results' series: a result held for review has none (models.HeldResult,
    # services/screening.py), so no statistic, noise, coverage or answer counts it.
    # Two plain lookups (results by series, then their runs by primary key) rather than one
    # join: with the join, PostgreSQL without statistics on the results table (rows a
    # transaction has not committed yet, as when a test or a long load writes many types)
    # chose a nested loop over every run, so that each refresh read more than the one before.
    results = list(
        Result.objects.filter(in_ids("series_id", series_ids))
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
            in_ids("pk", {run_id for _, _, run_id, _ in results}), status=Run.Status.DONE
        )
        .values_list(
            "pk",
            "region__code",
            "cpu_model",
            "source",
            "licence",
            "measured_at",
            "warnings",
            "observations",
            "verified_instance_type",
        )
        .order_by()
        .iterator(chunk_size=10_000)
    }
    names: dict[str, str] = {}
    for series_id, value, run_id, failed_note in results:
        run = runs.get(run_id)
        if run is None:
            continue
        region, raw_cpu, source, licence, measured_at, warnings, observations, verified_type = run
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
            Sample(
                value,
                run_id,
                region,
                cpu_model,
                source,
                licence,
                measured_at,
                flag,
                observations,
                # A proof that names a type is stored only when it names the run's own.
                bool(verified_type),
            ),
        )


class SampleTally(Protocol):
    """What counts samples as they are read (coverage.CoverageTally): named here, as
    coverage.py reads this module's samples."""

    def add(self, pair: tuple[int, int], sample: Sample) -> None: ...


def compute_statistics(
    series_ids: Collection[int],
    keys: Mapping[int, SeriesKey] | None = None,
    *,
    coverage: SampleTally | None = None,
) -> list[tuple]:
    """The statistics rows of these series, from their done runs' results (two queries, and
    one for the series' keys (SeriesKey) unless `keys` gives them); each sample also counted
    into `coverage` when given (`rebuild_stats`, its check).

    An all-regions row per series, and a row per region only for series measured in
    several regions (the all-regions row of the others names their one region).
    """
    if keys is None:
        keys = {
            pk: tuple(key)
            for pk, *key in Series.objects.filter(in_ids("pk", series_ids))
            .order_by()
            .values_list("pk", *SERIES_KEY_FIELDS)
        }
    by_series: dict[int, list[Sample]] = defaultdict(list)
    for series_id, sample in stored_samples(series_ids):
        by_series[series_id].append(sample)
        if coverage is not None:
            benchmark_id, _params, type_id, _variant = keys[series_id]
            coverage.add((benchmark_id, type_id), sample)
    return statistics_rows(by_series, keys)


def statistics_rows(
    by_series: dict[int, list[Sample]], keys: Mapping[int, SeriesKey]
) -> list[tuple]:
    """`compute_statistics` from the samples of each series, wherever they were read;
    `keys` gives each series' key (SeriesKey)."""
    now = timezone.now()
    rows = []
    for series_id in sorted(by_series):
        samples, key = by_series[series_id], keys[series_id]
        rows.append((*statistics_row(series_id, ALL_REGIONS, samples, now), *key))
        if len(samples) == 1:
            continue  # measured in one region (most series of fresh data)
        regions: dict[str | None, list[Sample]] = defaultdict(list)
        for sample in samples:
            regions[sample.region].append(sample)
        if len(regions) > 1:
            for region in sorted(code for code in regions if code):
                rows.append((*statistics_row(series_id, region, regions[region], now), *key))
    return rows


# How a Run's measured_at is stored (a date from a date, a datetime or ISO text).
_date_as_stored = Run._meta.get_field("measured_at").to_python


def samples_in_hand(rows: Iterable) -> Iterator[tuple[int, Sample]]:
    """`stored_samples` of results just stored, from their rows and runs in memory (no query).

    The same figures the database would give back: each value as the float column stores
    it, the run's region, normalised CPU model, date and flags, the done runs only.
    """
    names: dict[str, str] = {}
    note = flags.FAILED_RESPONSES_NOTE
    # SQLite's LIKE (`notes__contains` in `stored_samples`) ignores the case of ASCII letters.
    ignores_case = connection.vendor == "sqlite"
    for row in rows:
        run = row.run
        if run.status != Run.Status.DONE:
            continue
        cpu_model = names.get(run.cpu_model)
        if cpu_model is None:
            cpu_model = names[run.cpu_model] = cpu_models.normalise(run.cpu_model)
        notes = row.notes or ""
        failed_note = (note.lower() in notes.lower()) if ignores_case else (note in notes)
        flag = (
            flags.flag_of(run.warnings, note if failed_note else None)
            if run.warnings or failed_note
            else None
        )
        region = run.region.code if run.region_id else None
        yield (
            row.series_id,
            Sample(
                float(row.value),
                run.pk,
                region,
                cpu_model,
                run.source,
                run.licence,
                _date_as_stored(run.measured_at),
                flag,
                run.observations,
                bool(run.verified_instance_type),
            ),
        )
