"""`rebuild_stats --check`: every kept statistic against a recomputation from the stored
results, naming what differs, changing nothing, in a number of queries that grows with batches
of series, not with rows."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.models import Benchmark, InstanceType, Result, Run, Series, SeriesStatistics
from benchmarks.services import runs as run_services
from benchmarks.services import statistics
from tests.services.statistics.common import TYPES, kept, upload
from tests.services.statistics.test_compute import E5_2676_V3, S1_DIR, TASK, record_s1, s1_row
from tests.services.statistics.test_keep import scenario


def two_region_upload() -> Run:
    for name in ("c7g.large", "c7a.large"):
        InstanceType.objects.get_or_create(name=name)
    return upload(
        [{"benchmark": "openssl:sha256", "instance_type": name, "region": region,
          "value": value, "unit": "B/s", "cpu_model": "AMD EPYC 9R14", "param.block_size": "16"}
         for name, region, value in (("c7g.large", "us-east-1", 5), ("c7g.large", "eu-west-1", 7),
                                     ("c7g.large", "eu-west-1", 9), ("c7a.large", "us-east-1", 4))]
    )  # fmt: skip


def check_command() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("rebuild_stats", "--check", stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def stamps() -> list:
    return sorted(SeriesStatistics.objects.values_list("pk", "updated_at"))


@pytest.mark.django_db
def test_the_statistics_kept_at_ingest_check_clean():
    two_region_upload()
    report = statistics.check_statistics()
    assert report.clean, report.differences
    # c7g.large: all regions, us-east-1 and eu-west-1; c7a.large: all regions only.
    assert (report.series, report.rows) == (2, 4)
    assert check_command()[0] == 0


@pytest.mark.django_db
def test_a_statistics_row_left_without_its_series_is_named():
    two_region_upload()
    rows = SeriesStatistics.objects.filter(series__instance_type__name="c7a.large")
    series_id = rows.get().series_id
    # No foreign key holds the row to its series: deleting the series through Django deletes
    # its rows, but a series removed behind Django's back leaves them.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM benchmarks_result WHERE series_id = %s", [series_id])
        cursor.execute("DELETE FROM benchmarks_series WHERE id = %s", [series_id])
    assert SeriesStatistics.objects.filter(series_id=series_id).count() == 1
    report = statistics.check_statistics()
    named = [(d.benchmark, d.instance_type, d.params, d.field) for d in report.differences]
    orphan = ("openssl:sha256", "c7a.large", '{"block_size":16}', "statistics row without a series")
    assert orphan in named
    code, output = check_command()
    assert code == 1
    assert "statistics row without a series" in output


@pytest.mark.django_db
def test_deleting_a_series_deletes_its_statistics_rows():
    two_region_upload()
    Result.objects.filter(run__instance_type__name="c7g.large").delete()
    Series.objects.filter(instance_type__name="c7g.large").delete()
    assert not SeriesStatistics.objects.filter(instance_type__name="c7g.large").exists()
    assert SeriesStatistics.objects.filter(instance_type__name="c7a.large").count() == 1


@pytest.mark.django_db
def test_runs_standing_for_several_tasks_keep_what_a_recomputation_and_a_rebuild_give():
    InstanceType.objects.get_or_create(name=TASK)
    record_s1(S1_DIR / f"{TASK}__e5-2676-v3-2-40ghz.txt", 4)
    record_s1(S1_DIR / f"{TASK}__e5-2686-v4-2-30ghz.txt", 1)
    # A third run, of one machine, into the kept row: merged from its samples alone (which
    # hold no weights) it would take the middle of three figures, the E5-2686 v4's.
    record_s1(S1_DIR / "m4.large__e5-2686-v4-2-30ghz.txt", 1)
    row = s1_row()
    assert row.cpu_models == {"Intel Xeon E5-2676 v3": 4, "Intel Xeon E5-2686 v4": 2}
    assert row.median == E5_2676_V3
    report = statistics.check_statistics()
    assert report.clean, report.differences
    assert check_command()[0] == 0
    before = kept()
    statistics.rebuild_statistics()
    assert kept() == before


@pytest.mark.django_db
def test_a_median_altered_by_hand_is_named_with_where_and_both_values_and_left_as_it_is():
    two_region_upload()
    series = SeriesStatistics.objects.get(
        series__instance_type__name="c7g.large", measured_in="eu-west-1"
    )
    SeriesStatistics.objects.filter(pk=series.pk).update(median=123.0)
    before, before_stamps = kept(), stamps()
    code, output = check_command()
    assert code == 1
    assert (
        'openssl:sha256 {"block_size":16} on c7g.large, measured in eu-west-1: '
        "median kept 123.0, recomputed 8.0" in output
    )
    assert "1 kept figures differ" in output
    assert kept() == before and stamps() == before_stamps


@pytest.mark.django_db
def test_missing_and_extra_rows_and_unattached_results_are_named():
    run = two_region_upload()
    SeriesStatistics.objects.filter(
        series__instance_type__name="c7a.large", measured_in=""
    ).delete()
    # A region row for a series measured in one region only: no answer should read it.
    whole = SeriesStatistics.objects.get(series__instance_type__name="c7g.large", measured_in="")
    whole.pk, whole.measured_in = None, "ap-northeast-1"
    whole.save()
    Result.objects.filter(run__parent=run, run__instance_type__name="c7g.large").update(series=None)
    report = statistics.check_statistics()
    named = [(d.instance_type, d.measured_in, d.field, d.kept, d.recomputed)
             for d in report.differences]  # fmt: skip
    assert ("c7a.large", "", "statistics row", "(no row)", "present") in named
    assert ("c7g.large", "ap-northeast-1", "statistics row", "present", "(no row)") in named
    assert ("c7g.large", "", "results without a series", 0, 3) in named


@pytest.mark.django_db
def test_results_counted_in_a_series_not_theirs_are_named():
    run = two_region_upload()
    c7a = Result.objects.get(run__parent=run, run__instance_type__name="c7a.large")
    c7g_series = Result.objects.filter(run__parent=run).exclude(pk=c7a.pk)[0].series_id
    Result.objects.filter(pk=c7a.pk).update(series_id=c7g_series)
    statistics.rebuild_statistics()  # the figures now agree with the misplaced result
    differences = statistics.check_statistics().differences
    assert [(d.instance_type, d.field, d.kept) for d in differences] == [
        ("c7g.large", "results of another series", 1)
    ]


@pytest.mark.django_db
def test_a_benchmark_summary_that_lost_a_family_is_named():
    two_region_upload()
    Benchmark.objects.filter(key="openssl:sha256").update(families=["c7g"])
    differences = statistics.check_statistics().differences
    assert [(d.benchmark, d.field, d.kept, d.recomputed) for d in differences] == [
        ("openssl:sha256", "families", ["c7g"], ["c7a", "c7g"])
    ]


@pytest.mark.django_db
def test_deleting_and_reparsing_runs_leaves_the_check_clean():
    first = two_region_upload()
    InstanceType.objects.get_or_create(name="t2.nano")
    second = upload(
        [{"benchmark": "openssl:sha256", "instance_type": "t2.nano", "region": "us-east-1",
          "value": 2, "unit": "B/s", "param.block_size": "16"}]
    )  # fmt: skip
    run_services.delete_run(run=first)
    assert statistics.check_statistics().clean
    run_services.reparse_run(run_id=second.pk)
    assert statistics.check_statistics().clean


@pytest.mark.django_db(transaction=True)
def test_the_command_outside_a_transaction_reads_one_snapshot_and_writes_nothing(reference_data):
    two_region_upload()
    SeriesStatistics.objects.filter(measured_in="us-east-1").update(runs=99)
    before, before_stamps = kept(), stamps()
    code, output = check_command()
    assert code == 1 and "runs kept 99, recomputed 1" in output
    assert kept() == before and stamps() == before_stamps
    call_command("rebuild_stats", stdout=io.StringIO())
    assert check_command()[0] == 0


def queries_to_check(series: int) -> int:
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "openssl:sha256", "instance_type": "c7g.large", "region": "us-east-1",
          "value": index + 1, "unit": "B/s", "param.block_size": str(index)}
         for index in range(series)]
    )  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        assert statistics.check_statistics().clean
    return len(queries)


@pytest.mark.django_db
def test_checking_10_series_takes_as_many_queries_as_1000():
    assert statistics.REBUILD_BATCH >= 1000
    # The series, their statistics, the summaries, coverage, peer groups, and the rows
    # left without a series.
    assert queries_to_check(10) == 12


@pytest.mark.django_db
def test_checking_1000_series_takes_as_many_queries_as_10():
    assert queries_to_check(1000) == 12


@pytest.mark.django_db
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uploads=scenario, reparsed=st.lists(st.integers(min_value=0, max_value=5), max_size=3))
def test_random_uploads_deletions_and_reparses_always_check_clean(uploads, reparsed):
    with transaction.atomic():
        for name in TYPES:
            InstanceType.objects.get_or_create(name=name)
        made = [(upload(rows, variant=f"u{index}"), delete) for index, (rows, delete) in
                enumerate(uploads)]  # fmt: skip
        for run, delete in made:
            if delete:
                run_services.delete_run(run=run)
        kept_runs = [run for run, delete in made if not delete]
        for index in reparsed:
            if index < len(kept_runs):
                run_services.reparse_run(run_id=kept_runs[index].pk)
        report = statistics.check_statistics()
        assert report.clean, report.differences
        transaction.set_rollback(True)
