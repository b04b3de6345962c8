"""Robust screening of uploaded figures: a result far outside its series, or beyond its
token's share of the series, is held for review (models.HeldResult): kept, counted nowhere.

Screened: the results of runs someone uploaded (`POST runs/`, the agent, the upload page:
a run with an upload token or a signed-in uploader). Spare Cores' bundled data, the studies
and `import_results` (the operator's own files) are not.

The rules (docs/verified.md says why):
- **Outlier**: a figure more than OUTLIER_MADS scaled median absolute deviations from its
  series' kept median (SeriesStatistics over every region: its median, and its kept
  samples, every value of a series of up to SAMPLES_KEPT results, for the MAD). The MAD is
  at least MAD_FLOOR of the median, so that a series of identical values does not hold
  every figure that differs at all; a series with fewer than MIN_RUNS runs (a new one)
  holds nothing.
- **Token limit**: a token's runs make at most TOKEN_SHARE of a series' runs once the
  series has runs of others; its further runs' results in that series are held.

A release (staff, in the admin) puts the result in its series and refreshes the series'
statistics; a withdrawal leaves it out for good. Both in one transaction.
"""

from __future__ import annotations

import math
import statistics as stats
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from benchmarks.models import HeldResult, Result, Run, SeriesStatistics
from benchmarks.services import statistics

# Held beyond this many scaled MADs from the median: a figure as far out as ten standard
# deviations of a normal series is not noise; a burstable type out of credit (a tenth of
# its figure) is still held, for a person to look at.
OUTLIER_MADS = 10.0
# 1.4826 x MAD estimates the standard deviation of normally distributed values.
MAD_SCALE = 1.4826
# The MAD is taken as at least this share of the median's size: the values of one type
# repeat within a few percent, and a series of identical values has a MAD of zero.
MAD_FLOOR = 0.05
# A series with fewer runs than this is too thin to judge a figure against. One is enough:
# nearly every series holds one run (Spare Cores measures a type once), which is what the
# answers show, and the floor above keeps a figure within 74% of it.
MIN_RUNS = 1
# A token's runs may make at most this share of a series' runs once others measured it.
TOKEN_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why one result is held: what the screen read of its series and how far off it is."""

    reason: str  # HeldResult.Reason
    series_id: int
    series_runs: int
    median: float
    mad: float
    deviations: float
    token_runs: int | None = None


def is_screened(run) -> bool:
    """Whether a run's results are screened: someone uploaded it (a token or a signed-in
    user), rather than the bundled imports or the operator's commands."""
    return bool(run.upload_token_id or run.uploaded_by_id)


# Where a kept statistics row (a tuple of STATISTICS_COLUMNS) holds what the screen reads.
_SERIES, _MEASURED_IN, _RUNS, _MEDIAN, _SAMPLES = (
    statistics.STATISTICS_COLUMNS.index(name)
    for name in ("series_id", "measured_in", "runs", "median", "samples")
)


@dataclass(slots=True)
class _Kept:
    runs: int
    median: float
    mad: float


def screen(
    rows: Sequence, *, created: Collection[int], kept: Mapping[int, Sequence[tuple]]
) -> dict[int, Verdict]:
    """The rows to hold, by index, with why. `rows` are services.results.ResultRow with their
    series attached; `created` the series this ingest created (nothing to judge against);
    `kept` the other series' statistics rows, locked (`statistics.lock_kept`).

    Two queries at most, whatever the number of rows: the uploads' tokens' earlier runs of
    the judged types, and their runs in the series when there are any (`_token_runs`).
    """
    judged = [
        index
        for index, row in enumerate(rows)
        if row.series_id not in created and is_screened(row.run)
    ]
    if not judged:
        return {}
    series_ids = {rows[index].series_id for index in judged}
    kept = {
        row[_SERIES]: _Kept(row[_RUNS], row[_MEDIAN],
                            median_absolute_deviation(row[_MEDIAN], row[_SAMPLES]))
        for series_id in series_ids
        for row in kept.get(series_id, ())
        if row[_MEASURED_IN] == SeriesStatistics.ALL_REGIONS
    }  # fmt: skip
    mine = _token_runs([rows[index] for index in judged], kept)
    held: dict[int, Verdict] = {}
    # A run's verdict on the token limit holds for all its results in the series.
    limited: dict[tuple[int, int], Verdict | None] = {}
    for index in judged:
        row = rows[index]
        series = kept.get(row.series_id)
        if series is None:
            continue
        verdict = _outlier(row, series)
        if verdict is None and row.run.upload_token_id is not None:
            key = (row.series_id, row.run.pk)
            if key not in limited:
                limited[key] = _beyond_share(row, series, mine)
            verdict = limited[key]
        if verdict is not None:
            held[index] = verdict
    return held


def _token_runs(judged: Sequence, kept: Collection[int]) -> Counter:
    """{(series id, token id): runs of that upload token with results in that series} for
    the judged rows' tokens and the kept series.

    A series is one instance type's, so a token with no earlier run of the judged types has
    none in their series: one small query on the runs says so, and the results are read
    only for the earlier runs it finds (by series they were every result of every series
    judged, with its run: a seventh of an upload's database time at 10M results, issue 56).
    """
    tokens = {row.run.upload_token_id for row in judged} - {None}
    if not tokens or not kept:
        return Counter()
    earlier = dict(
        Run.objects.filter(
            upload_token_id__in=tokens,
            instance_type_id__in={row.run.instance_type_id for row in judged},
        )
        .exclude(pk__in={row.run.pk for row in judged})  # this ingest's: no results yet
        .values_list("pk", "upload_token_id")
    )
    if not earlier:
        return Counter()
    return Counter(
        (series_id, earlier[run_id])
        for series_id, run_id in Result.objects.filter(
            statistics.in_ids("series_id", kept), statistics.in_ids("run_id", earlier)
        )
        .order_by()
        .values_list("series_id", "run_id")
        .distinct()
    )


def median_absolute_deviation(median: float, samples: list) -> float:
    """The kept samples' median absolute deviation from `median`, floored (MAD_FLOOR)."""
    deviations = [abs(value - median) for value, *_ in samples]
    mad = stats.median(deviations) if deviations else 0.0
    return max(mad, MAD_FLOOR * abs(median))


def _outlier(row, series: _Kept) -> Verdict | None:
    if series.runs < MIN_RUNS:
        return None
    distance = abs(row.value - series.median)
    spread = MAD_SCALE * series.mad
    deviations = distance / spread if spread else (0.0 if distance == 0 else math.inf)
    if deviations <= OUTLIER_MADS:
        return None
    return Verdict(
        HeldResult.Reason.OUTLIER,
        row.series_id,
        series.runs,
        series.median,
        series.mad,
        min(deviations, 1e12),
    )


def _beyond_share(row, series: _Kept, mine: Counter) -> Verdict | None:
    """Held when this run would take the token past TOKEN_SHARE of the series' runs (which
    then counts the run: the next of the same upload is judged with it)."""
    key = (row.series_id, row.run.upload_token_id)
    before = mine[key]
    others = series.runs - before
    if others >= 1 and before + 1 > TOKEN_SHARE * (series.runs + 1):
        spread = MAD_SCALE * series.mad
        return Verdict(
            HeldResult.Reason.TOKEN_LIMIT,
            row.series_id,
            series.runs,
            series.median,
            series.mad,
            abs(row.value - series.median) / spread if spread else 0.0,
            token_runs=before,
        )
    mine[key] += 1
    series.runs += 1
    return None


def hold(rows: Sequence, held: dict[int, Verdict]) -> None:
    """Keep why the held rows were held, once they are stored (out of their series, in the
    output's order with the others): one query for their ids, one insert."""
    by_run: dict[int, list[Verdict]] = {}
    for index, verdict in held.items():
        by_run.setdefault(rows[index].run_id, []).append(verdict)
    # A run being ingested has no other result without a series: its held ones, in order.
    ids: dict[int, list[int]] = {}
    for pk, run_id in (
        Result.objects.filter(run_id__in=by_run, series=None)
        .order_by("run_id", "pk")
        .values_list("pk", "run_id")
    ):
        ids.setdefault(run_id, []).append(pk)
    HeldResult.objects.bulk_create(
        HeldResult(
            result_id=pk,
            series_id=verdict.series_id,
            reason=verdict.reason,
            series_runs=verdict.series_runs,
            series_median=verdict.median,
            series_mad=verdict.mad,
            deviations=verdict.deviations,
            token_runs=verdict.token_runs,
        )
        for run_id, verdicts in by_run.items()
        for pk, verdict in zip(ids[run_id], verdicts, strict=True)
    )


@transaction.atomic
def decide_held(*, result_ids: Collection[int], release: bool, by_user=None) -> int:
    """Release held results (they join their series, whose statistics are refreshed) or
    withdraw them (counted nowhere, for good); returns how many were still held.

    One transaction; the holds are locked, so that two staff deciding at once decide once.
    """
    query = HeldResult.objects.select_for_update(of=("self",)).filter(
        pk__in=result_ids, status=HeldResult.Status.HELD
    )
    if release:
        # A withdrawn run's results count nowhere, released or not.
        query = query.filter(result__run__status=Run.Status.DONE)
    holds = list(query.select_related("result__run").order_by("pk"))
    if not holds:
        return 0
    results = [held.result for held in holds]
    if release:
        # Its series again (created anew if its last counted result went meanwhile).
        statistics.attach_series(results)
        Result.objects.bulk_update(results, ["series"])
        statistics.refresh_series({result.series_id for result in results})
    HeldResult.objects.filter(pk__in=[held.pk for held in holds]).update(
        status=HeldResult.Status.RELEASED if release else HeldResult.Status.WITHDRAWN,
        decided_at=timezone.now(),
        decided_by=by_user,
    )
    return len(holds)
