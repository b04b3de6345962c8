"""A series' statistics rows: one region's row, flagged runs left out, and the same figures
from the results in hand as from the database."""

import json

import pytest

from benchmarks import flags
from benchmarks.models import InstanceType, Result, Run, Series, SeriesStatistics
from benchmarks.pricing.snapshot import DEMO_DIR
from benchmarks.services import runs as run_services
from benchmarks.services.statistics import compute
from tests.services.statistics.common import upload


@pytest.mark.django_db
def test_a_series_measured_in_one_region_answers_for_it_without_a_row_of_its_own():
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "tool:x", "instance_type": "c7g.large", "region": "eu-west-1",
          "value": 5, "unit": "op/s"}]
    )  # fmt: skip
    [row] = SeriesStatistics.objects.all()
    assert (row.measured_in, row.sole_region) == ("", "eu-west-1")


@pytest.mark.django_db
def test_a_capped_iperf3_run_is_left_out_of_the_figures_and_counted(shared_data):
    InstanceType.objects.get_or_create(name="c7g.large")
    path = shared_data / "parsers" / "iperf3" / "iperf3lib_3.21_tcp_P2_loopback_client.json"
    capped = path.read_text(encoding="utf-8-sig")
    full = json.loads(capped)
    full["start"]["test_start"]["target_bitrate"] = 0
    machine = {"instance_type_name": "c7g.large", "region_code": "us-east-1"}
    flagged, _ = run_services.record_run(content=capped.encode(), **machine)
    clean, _ = run_services.record_run(
        content=json.dumps(full).encode(), variant="", measured_at=None, **machine
    )
    assert flagged.status == clean.status == Run.Status.DONE
    row = SeriesStatistics.objects.get(
        series__benchmark__key="iperf3:tcp", series__params__direction="send", measured_in=""
    )
    assert (row.runs, row.flagged_runs, row.only_flagged) == (1, 1, False)
    assert row.flags == [[flags.CAPPED, 1, [flagged.pk]]]
    # Without the clean run, the figures come from the capped one, and say so.
    run_services.delete_run(run=clean)
    row = SeriesStatistics.objects.get(
        series__benchmark__key="iperf3:tcp", series__params__direction="send", measured_in=""
    )
    assert (row.runs, row.flagged_runs, row.only_flagged) == (1, 1, True)


@pytest.mark.django_db
def test_the_results_in_hand_give_the_rows_the_database_gives():
    for name in ("c7g.large", "t2.nano"):
        InstanceType.objects.get_or_create(name=name)
    base = {"benchmark": "tool:x", "unit": "op/s", "param.block_size": "16"}
    upload(
        [{**base, "instance_type": "c7g.large", "region": "us-east-1", "value": 3,
          "cpu_model": "AMD EPYC 9R14 96-Core Processor"},
         {**base, "instance_type": "c7g.large", "region": "eu-west-1", "value": 5,
          "notes": "3 responses were not 2xx or 3xx"},
         {**base, "instance_type": "t2.nano", "region": "us-east-1", "value": 7}]
    )  # fmt: skip
    upload([{**base, "instance_type": "c7g.large", "region": "us-east-1", "value": 4}])
    in_hand, from_database = rows_in_hand_and_from_database()
    # Every column but the time the rows were computed.
    assert [_but_time(row) for row in in_hand] == [_but_time(row) for row in from_database]
    assert len(from_database) == 4  # c7g.large: all regions and two; t2.nano: one


def rows_in_hand_and_from_database() -> tuple[list[tuple], list[tuple]]:
    """Every series' statistics rows from its results in memory, and from the database."""
    series_ids = set(Result.objects.values_list("series_id", flat=True))
    by_series = {}
    for series_id, sample in compute.samples_in_hand(
        Result.objects.select_related("run__region").order_by("pk")
    ):
        by_series.setdefault(series_id, []).append(sample)
    groups = {
        series.pk: (series.benchmark_id, series.params_key, series.instance_type_id, series.variant)
        for series in Series.objects.filter(pk__in=series_ids)
    }
    return compute.statistics_rows(by_series, groups), compute.compute_statistics(series_ids)


_TIME = compute.STATISTICS_COLUMNS.index("updated_at")


def _but_time(row: tuple) -> tuple:
    return row[:_TIME] + row[_TIME + 1 :]


def test_a_single_results_row_is_the_row_of_a_series_of_one():
    sample = compute.Sample(
        value=2.5, run_id=1, region="us-east-1", cpu_model="Neoverse-V1", source="s",
        licence="l", measured_at=None,
    )  # fmt: skip
    [single] = compute.statistics_rows({7: [sample]}, {7: (3, '{"size":1}', 11, "")})
    now = single[_TIME]
    general = (
        *compute.statistics_row(7, compute.ALL_REGIONS, [sample, sample], now),
        3,
        '{"size":1}',
        11,
        "",
    )
    as_json = [json.loads(v) if isinstance(v, compute.JsonText) else v for v in single]
    # Two equal results of one run make the figures of one, but for the counts of results
    # and samples.
    assert as_json[:4] + as_json[5:13] + as_json[14:19] + as_json[20:] == list(
        general[:4] + general[5:13] + general[14:19] + general[20:]
    )
    assert (as_json[4], general[4], as_json[13]) == (1, 2, [[2.5, "Neoverse-V1"]])


S1_DIR = DEMO_DIR / "s1-fargate-openssl"
TASK = "fargate-0.25vcpu-0.5gb"
# Study S1's aes-128-gcm figures at 8192-byte blocks, one process, on the smallest task.
E5_2676_V3, E5_2686_V4 = 2_779_490_250.0, 3_520_877_910.0


def record_s1(path, observations: int, instance_type: str = TASK) -> Run:
    run, _ = run_services.record_run(
        content=path.read_bytes(),
        filename=path.name,
        instance_type_name=instance_type,
        region_code="us-east-1",
        observations=observations,
    )
    assert run.status == Run.Status.DONE, run.error
    return run


def s1_row() -> SeriesStatistics:
    return SeriesStatistics.objects.get(
        series__benchmark__key="openssl:aes-128-gcm",
        series__params_key='{"block_size":8192,"processes":1}',
        series__instance_type__name=TASK,
        measured_in="",
    )


@pytest.mark.django_db
def test_a_run_standing_for_several_tasks_counts_its_figure_and_processor_that_often():
    InstanceType.objects.get_or_create(name=TASK)
    # S1: 4 of 5 tasks landed on an E5-2676 v3, 1 on an E5-2686 v4; each ran the benchmark once.
    record_s1(S1_DIR / f"{TASK}__e5-2676-v3-2-40ghz.txt", 4)
    record_s1(S1_DIR / f"{TASK}__e5-2686-v4-2-30ghz.txt", 1)
    row = s1_row()
    assert (row.runs, row.results) == (2, 2)
    assert row.cpu_models == {"Intel Xeon E5-2676 v3": 4, "Intel Xeon E5-2686 v4": 1}
    # The median is the figure four tasks in five measure, not the mean of the two.
    assert (row.first_quartile, row.median, row.third_quartile) == (E5_2676_V3,) * 3
    assert (row.minimum, row.maximum) == (E5_2676_V3, E5_2686_V4)
    # The same figures from the results in hand as from the database.
    in_hand, from_database = rows_in_hand_and_from_database()
    assert [_but_time(row) for row in in_hand] == [_but_time(row) for row in from_database]


def test_a_single_result_of_several_tasks_counts_its_processor_that_often():
    sample = compute.Sample(
        value=2.5, run_id=1, region="us-east-1", cpu_model="Intel Xeon E5-2676 v3", source="s",
        licence="l", measured_at=None, weight=5,
    )  # fmt: skip
    [row] = compute.statistics_rows({7: [sample]}, {7: (3, "{}", 11, "")})
    models = row[compute.STATISTICS_COLUMNS.index("cpu_models")]
    assert json.loads(models) == {"Intel Xeon E5-2676 v3": 5}
    assert row[compute.STATISTICS_COLUMNS.index("runs")] == 1
