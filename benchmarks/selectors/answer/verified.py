"""Answers from verified runs only (`verified=only`): each row's figures recomputed from the
results of its runs whose identity proof named their type (Run.verified), rows without any
left out. Asked rarely: read from the results, not from what ingest keeps."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import orjson
from django.utils import timezone

from benchmarks.models import SeriesStatistics
from benchmarks.selectors.answer.kept_series import KeptSeries
from benchmarks.services.statistics.compute import (
    ALL_REGIONS,
    STATISTICS_COLUMNS,
    Sample,
    statistics_row,
    stored_samples,
)
from benchmarks.services.statistics.rows import JsonText

# The figures of a statistics row that a KeptSeries carries, by the same names.
_FIGURES = (
    "runs",
    "results",
    "median",
    "minimum",
    "maximum",
    "first_quartile",
    "third_quartile",
    "flagged_runs",
    "only_flagged",
    "verified_runs",
    "cpu_models",
    "regions",
    "sources",
    "flags",
    "samples",
)


def only_verified(rows: list[KeptSeries], *, measured_in: str | None) -> list[KeptSeries]:
    """`rows` again with their figures from their verified runs only (measured in
    `measured_in` when given); rows that kept no verified run are left out (three queries)."""
    candidates = [row for row in rows if row.verified_runs]
    if not candidates:
        return []
    series_of = dict(
        SeriesStatistics.objects.filter(pk__in=[row.statistics_id for row in candidates])
        .order_by()
        .values_list("pk", "series_id")
    )
    by_series: dict[int, list[Sample]] = defaultdict(list)
    for series_id, sample in stored_samples(set(series_of.values())):
        if sample.verified and (measured_in is None or sample.region == measured_in):
            by_series[series_id].append(sample)
    now = timezone.now()
    answered = []
    for row in candidates:
        series_id = series_of[row.statistics_id]
        samples = by_series.get(series_id)
        if not samples:
            continue
        figures = dict(
            zip(
                STATISTICS_COLUMNS,
                statistics_row(series_id, measured_in or ALL_REGIONS, samples, now),
                strict=False,
            )
        )
        answered.append(row._replace(**{name: _plain(figures[name]) for name in _FIGURES}))
    return answered


def _plain(value: Any) -> Any:
    # A one-result row writes its JSON columns as text ready for the database.
    return orjson.loads(str(value)) if isinstance(value, JsonText) else value
