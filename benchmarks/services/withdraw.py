"""Withdrawing a run: its uploader takes it back. The run stays on record (who withdrew it and
when), its results stay with it, and no kept statistic or answer counts them any more."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from benchmarks.models import Result, Run
from benchmarks.services import statistics


@transaction.atomic
def withdraw_run(*, run_id: int, by_user=None, by_token=None) -> tuple[Run, bool]:
    """Withdraw a run, and a table's row runs with it: (the run, whether withdrawn just now).

    One transaction: the run is locked (an ingest holding it commits first), its results leave
    their series, the statistics of those series and their benchmarks' summaries are
    recomputed (`statistics.refresh_series`, as for a deleted run), and the run is marked
    withdrawn with `by_user`, `by_token` and the time. Statistics count only done runs, so
    `rebuild_stats` leaves it out too. Withdrawing a withdrawn run changes nothing; a pending
    run withdrawn is never ingested (`ingest_run` takes only pending runs).
    """
    parent_id = Run.objects.values_list("parent_id", flat=True).get(pk=run_id)
    # The table's run first, as re-parsing it locks it before touching its row runs.
    locked = Run.objects.select_for_update(of=("self",)).filter(pk__in=[parent_id, run_id])
    run = next(row for row in locked.order_by("pk") if row.pk == run_id)
    if run.status == Run.Status.WITHDRAWN:
        return run, False
    run_ids = [
        run.pk,
        *run.children.exclude(status=Run.Status.WITHDRAWN).values_list("pk", flat=True),
    ]
    touched = set(statistics.series_of_runs(run_ids).values_list("series_id", flat=True))
    # Out of their series (which a refresh may delete once empty), kept with their run.
    Result.objects.filter(run_id__in=run_ids).update(series=None)
    Run.objects.filter(pk__in=run_ids).update(
        status=Run.Status.WITHDRAWN,
        withdrawn_at=timezone.now(),
        withdrawn_by=by_user,
        withdrawn_by_token=by_token,
    )
    statistics.refresh_series(touched, removed=True)
    run.refresh_from_db()
    return run, True
