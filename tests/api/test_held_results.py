"""Robust screening: an uploaded figure far outside its series, or beyond its token's share of
the series, is held for review (kept, counted nowhere), shown in the admin with why, and
released or withdrawn there."""

import csv
import io

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import HeldResult, Result, Run, SeriesStatistics
from benchmarks.services import runs as run_services
from benchmarks.services.statistics import check_statistics, rebuild_statistics

pytestmark = pytest.mark.django_db

FIGURES = ("runs", "results", "median", "minimum", "maximum", "verified_runs")


@pytest.fixture
def uploader(demo_rolled_back, django_user_model):
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def kept(runs: int = 1) -> SeriesStatistics:
    """The statistics over every region of a demo series with `runs` runs (nearly all have
    one: Spare Cores measures a type once) and a median above zero."""
    return (
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS, median__gt=0, runs=runs
        )
        .select_related("series__benchmark", "series__instance_type")
        .order_by("series_id")
        .first()
    )


def figures(statistics: SeriesStatistics) -> list[tuple]:
    return list(
        SeriesStatistics.objects.filter(series_id=statistics.series_id)
        .order_by("measured_in")
        .values_list("measured_in", *FIGURES)
    )


def upload(client, statistics: SeriesStatistics, value: float, on_commit, **params) -> dict:
    """A one-row table for the series of `statistics` (its parameters changed by `params`),
    with `value`, uploaded and ingested: the run's representation (runs/ID/)."""
    series = statistics.series
    region = statistics.regions[0]
    row = {
        "benchmark": series.benchmark.key,
        "instance_type": series.instance_type.name,
        "region": region,
        "variant": series.variant,
        "value": repr(value),
        "unit": series.benchmark.unit,
        "higher_is_better": str(series.benchmark.higher_is_better).lower(),
        **{f"param.{name}": param for name, param in {**series.params, **params}.items()},
    }
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(row))
    writer.writeheader()
    writer.writerow(row)
    part = io.BytesIO(text.getvalue().encode())
    part.name = "results.csv"
    with on_commit(execute=True):
        response = client.post("/api/v1/runs/", {"file": part}, format="multipart")
    assert response.status_code == 202, response.content
    answer = client.get(f"/api/v1/runs/{response.json()['id']}/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "done", body
    return body


def test_a_figure_100_times_the_median_is_held_counted_nowhere_and_shown_with_why(
    uploader, django_capture_on_commit_callbacks, admin_client
):
    statistics = kept()
    before = figures(statistics)
    run = upload(uploader, statistics, statistics.median * 100, django_capture_on_commit_callbacks)

    assert run["held"] == 1
    held = HeldResult.objects.select_related("result").get()
    assert held.status == HeldResult.Status.HELD
    assert held.reason == HeldResult.Reason.OUTLIER
    assert held.series_id == statistics.series_id
    assert held.series_median == statistics.median
    assert held.series_runs == statistics.runs
    assert held.deviations > 10
    # Kept, out of its series: no statistic counts it, a recomputation neither.
    assert held.result.value == statistics.median * 100
    assert held.result.series_id is None
    assert figures(statistics) == before
    assert check_statistics().clean, check_statistics().differences[:3]
    rebuild_statistics()
    assert figures(statistics) == before
    assert Result.objects.get(pk=held.pk).series_id is None

    # The run's page says so beside the figure.
    assert "held for review" in Client().get(f"/runs/{run['id']}/").content.decode()

    page = admin_client.get("/admin/benchmarks/heldresult/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Far outside its series" in text
    assert f"series median {statistics.median:.6g} over 1 run, MAD " in text
    assert "(at least 5% of the median)" in text
    assert "100 times the median" in text


def test_a_figure_within_its_series_spread_counts(uploader, django_capture_on_commit_callbacks):
    statistics = kept()
    runs_before = statistics.runs
    run = upload(uploader, statistics, statistics.median * 1.01, django_capture_on_commit_callbacks)
    assert run["held"] == 0
    assert not HeldResult.objects.exists()
    after = SeriesStatistics.objects.get(
        pk__isnull=False, series_id=statistics.series_id, measured_in=SeriesStatistics.ALL_REGIONS
    )
    assert after.runs == runs_before + 1


def test_a_new_series_has_nothing_to_judge_against_and_holds_nothing(
    uploader, django_capture_on_commit_callbacks
):
    statistics = kept()
    run = upload(
        uploader,
        statistics,
        statistics.median * 100,
        django_capture_on_commit_callbacks,
        never_measured=7,
    )
    assert run["held"] == 0
    assert not HeldResult.objects.exists()


def test_a_bundled_import_is_not_screened(demo_rolled_back):
    statistics = kept()
    series = statistics.series
    params = "".join(f",param.{name}" for name in series.params)
    values = "".join(f",{value}" for value in series.params.values())
    table = (
        f"benchmark,instance_type,region,variant,value,unit{params}\n"
        f"{series.benchmark.key},{series.instance_type.name},{statistics.regions[0]},"
        f"{series.variant},{statistics.median * 100!r},{series.benchmark.unit}{values}\n"
    )
    run, _ = run_services.record_run(content=table.encode(), filename="import.csv")
    assert run.status == Run.Status.DONE, run.error
    assert not HeldResult.objects.exists()


def test_releasing_a_held_result_counts_it_and_withdrawing_one_never_does(
    uploader, django_capture_on_commit_callbacks, admin_client
):
    statistics = kept()
    before = figures(statistics)
    upload(uploader, statistics, statistics.median * 100, django_capture_on_commit_callbacks)
    run = upload(uploader, statistics, statistics.median * 200, django_capture_on_commit_callbacks)
    assert run["held"] == 1
    first, second = HeldResult.objects.order_by("pk")

    changelist = "/admin/benchmarks/heldresult/"
    admin_client.post(changelist, {"action": "withdraw", "_selected_action": [second.pk]})
    second.refresh_from_db()
    assert second.status == HeldResult.Status.WITHDRAWN
    assert figures(statistics) == before
    assert uploader.get(f"/api/v1/runs/{run['id']}/").json()["held"] == 0

    admin_client.post(changelist, {"action": "release", "_selected_action": [first.pk]})
    first.refresh_from_db()
    assert first.status == HeldResult.Status.RELEASED
    assert first.decided_by is not None
    after = SeriesStatistics.objects.get(
        series_id=statistics.series_id, measured_in=SeriesStatistics.ALL_REGIONS
    )
    assert after.runs == statistics.runs + 1
    assert after.maximum == statistics.median * 100
    assert Result.objects.get(pk=first.pk).series_id == statistics.series_id
    assert check_statistics().clean, check_statistics().differences[:3]
    # A rebuild keeps the withdrawn one out and the released one in.
    rebuild_statistics()
    assert figures(statistics) != before
    assert Result.objects.get(pk=second.pk).series_id is None


def test_a_token_supplies_at_most_half_of_a_series_runs(
    uploader, django_capture_on_commit_callbacks, admin_client, django_user_model
):
    statistics = kept()
    on_commit = django_capture_on_commit_callbacks
    first = upload(uploader, statistics, statistics.median, on_commit)
    assert first["held"] == 0
    assert "held for review" not in Client().get(f"/runs/{first['id']}/").content.decode()
    # Its second run would make two of the series' three: held, whatever its figure.
    run = upload(uploader, statistics, statistics.median * 1.001, on_commit)
    assert run["held"] == 1
    held = HeldResult.objects.get()
    assert held.reason == HeldResult.Reason.TOKEN_LIMIT
    assert (held.token_runs, held.series_runs) == (1, 2)
    after = SeriesStatistics.objects.get(
        series_id=statistics.series_id, measured_in=SeriesStatistics.ALL_REGIONS
    )
    assert after.runs == 2
    text = admin_client.get("/admin/benchmarks/heldresult/").content.decode()
    assert "its token had 1 of the series&#x27; 2 runs already (at most 50%)" in text
    # Another token's run is its first: it counts.
    other = APIClient()
    user = django_user_model.objects.create(username="other")
    other.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    assert upload(other, statistics, statistics.median * 1.002, on_commit)["held"] == 0


def test_screening_takes_the_same_number_of_queries_for_2_and_20_results(
    uploader, django_user_model
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token, _key = create_upload_token(user=django_user_model.objects.get(username="uploader"))
    series = list(
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS, median__gt=0, runs=1
        )
        .exclude(series__params__has_key="size")
        .select_related("series__benchmark", "series__instance_type")
        .order_by("series_id")[:20]
    )
    names = sorted({name for row in series for name in row.series.params})

    def table(rows: list[SeriesStatistics], times: float, base: float = 1.0) -> bytes:
        lines = [",".join(["benchmark", "instance_type", "region", "variant", "value", "unit",
                           *(f"param.{name}" for name in names)])]  # fmt: skip
        for index, row in enumerate(rows):
            lines.append(",".join([
                row.series.benchmark.key, row.series.instance_type.name,
                next(region for region in row.regions if region), row.series.variant,
                repr(row.median * base * (times if index % 2 else 1)), row.series.benchmark.unit,
                *(str(row.series.params.get(name, "")) for name in names),
            ]))  # fmt: skip
        return ("\n".join(lines) + "\n").encode()

    # Each table by its own token: the first pair judges the tokens' first runs of these
    # types (nothing of theirs to count), the second their next ones (counted, all held).
    other, _key = create_upload_token(user=token.user)
    counts = []
    for base in (1, 1.001):
        for rows, by in ((series[:2], token), (series[2:], other)):
            with CaptureQueriesContext(connection) as queries:
                run, _ = run_services.record_run(
                    content=table(rows, 100, base), filename="t.csv", upload_token=by
                )
            assert run.status == Run.Status.DONE, run.error
            counts.append(len(queries))
    assert HeldResult.objects.count() == 2 * (1 + 9) + 10
    assert counts[0] == counts[1] and counts[2] == counts[3], counts


def test_a_tokens_first_run_of_a_type_reads_no_results_to_judge_its_share(
    uploader, django_capture_on_commit_callbacks, django_user_model
):
    # A series is one type's: a token that never ran the type has no runs in its series
    # (reading every result of the series to count them was a seventh of an upload's
    # database time at 10M results, issue 56). Its second run reads them and is held.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    statistics = kept()
    on_commit = django_capture_on_commit_callbacks
    table = Result._meta.db_table

    def counts_of_token_runs(queries) -> list[str]:
        # The count as it was (by series, joined with the runs' tokens) or as it is now.
        return [
            query["sql"] for query in queries.captured_queries
            if f'FROM "{table}"' in query["sql"]
            and ("upload_token_id" in query["sql"]
                 or f'DISTINCT "{table}"."series_id"' in query["sql"])
        ]  # fmt: skip

    with CaptureQueriesContext(connection) as queries:
        assert upload(uploader, statistics, statistics.median, on_commit)["held"] == 0
    assert not counts_of_token_runs(queries)
    with CaptureQueriesContext(connection) as queries:
        assert upload(uploader, statistics, statistics.median * 1.001, on_commit)["held"] == 1
    counted = counts_of_token_runs(queries)
    assert len(counted) == 1 and '"run_id"' in counted[0], counted


def test_an_upload_reads_its_series_statistics_once(uploader, django_user_model):
    # The screen judges against the rows the merge then adds to: one read, under the series'
    # locks (read twice, they cost an upload a tenth of its worker's time: issue 56).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token, _key = create_upload_token(user=django_user_model.objects.get(username="uploader"))
    rows = list(
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS, median__gt=0, runs=1, series__params={}
        )
        .select_related("series__benchmark", "series__instance_type")
        .order_by("series_id")[:5]
    )
    lines = ["benchmark,instance_type,region,variant,value,unit"]
    for index, row in enumerate(rows):
        lines.append(",".join([
            row.series.benchmark.key, row.series.instance_type.name,
            next(region for region in row.regions if region) if any(row.regions) else "us-east-1",
            row.series.variant, repr(row.median * (100 if index == 0 else 1.01)),
            row.series.benchmark.unit,
        ]))  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        run, _ = run_services.record_run(
            content=("\n".join(lines) + "\n").encode(), filename="t.csv", upload_token=token
        )
    assert run.status == Run.Status.DONE, run.error
    table = SeriesStatistics._meta.db_table
    reads = [
        query["sql"] for query in queries.captured_queries
        if query["sql"].startswith("SELECT") and f'FROM "{table}"' in query["sql"]
    ]  # fmt: skip
    assert len(reads) == 1, reads
    assert HeldResult.objects.count() == 1
    assert check_statistics().clean, check_statistics().differences[:3]
