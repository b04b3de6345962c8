"""Keeping the statistics at ingest, deletion and re-parsing: always equal to a full
recomputation, in a fixed number of queries, safe under concurrent ingests."""

import datetime
import statistics as stats
import threading
from collections import Counter

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import cpu_models, flags
from benchmarks.models import (
    Benchmark,
    BenchmarkCoverage,
    InstanceType,
    PeerGroup,
    Result,
    Run,
    Series,
    SeriesStatistics,
)
from benchmarks.pricing.snapshot import DEMO_DIR
from benchmarks.selectors.pages.benchmark_pages import benchmark_page
from benchmarks.services import runs as run_services
from benchmarks.services import statistics
from benchmarks.services.statistics import coverage
from tests.services.statistics.common import REGIONS, TYPES, kept, table, upload


def quantile(values: list[float], share: float) -> float:
    """Linear interpolation between the order statistics around (n - 1) * share."""
    ordered = sorted(values)
    position = (len(ordered) - 1) * share
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


row_strategy = st.fixed_dictionaries(
    {
        "benchmark": st.sampled_from(["openssl:sha256", "openssl:aes-256-cbc"]),
        "instance_type": st.sampled_from(TYPES),
        "region": st.sampled_from(REGIONS),
        "value": st.integers(min_value=1, max_value=10**6).map(float),
        "unit": st.just("B/s"),
        "variant": st.sampled_from(["", "accp"]),
        # Two spellings of one model, counted as one.
        "cpu_model": st.sampled_from(
            ["", "Neoverse-V1", "AMD EPYC 9R14", "AMD EPYC 9R14 96-Core Processor"]
        ),
        "param.block_size": st.sampled_from(["16", "8192"]),
        # A result whose note says part of the work failed is flagged (benchmarks.flags).
        "notes": st.sampled_from(["", "", "", "3 responses were not 2xx or 3xx"]),
    }
)
# A scenario: uploads of 1 to 6 rows each, and which of them are deleted afterwards.
scenario = st.lists(
    st.tuples(st.lists(row_strategy, min_size=1, max_size=6), st.booleans()),
    min_size=1,
    max_size=6,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uploads=scenario)
def test_kept_statistics_always_equal_a_full_recomputation(uploads):
    with transaction.atomic():
        for name in TYPES:
            InstanceType.objects.get_or_create(name=name)
        made = [(upload(rows, variant=f"u{index}"), delete) for index, (rows, delete) in
                enumerate(uploads)]  # fmt: skip
        for run, delete in made:
            if delete:
                run_services.delete_run(run=run)
        after_ingest = kept()
        statistics.rebuild_statistics()
        assert kept() == after_ingest
        # And the recomputation is itself right: each all-regions median is the median of
        # the series' stored values.
        for series in Series.objects.prefetch_related("results__run", "statistics"):
            results = list(series.results.all())
            clean = [result for result in results if not flags.result_flag(result.notes)]
            counted = clean or results
            values = [result.value for result in counted]
            whole = next(s for s in series.statistics.all() if s.measured_in == "")
            flagged_runs = {result.run_id for result in results if result not in clean}
            assert (whole.flagged_runs, whole.only_flagged) == (len(flagged_runs), not clean)
            runs = {result.run_id: result.run.cpu_model for result in counted}
            assert whole.cpu_models == Counter(cpu_models.normalise(m) for m in runs.values())
            assert whole.median == stats.median(values)
            assert (whole.minimum, whole.maximum, whole.results) == (
                min(values),
                max(values),
                len(values),
            )
            assert whole.first_quartile == pytest.approx(quantile(values, 0.25))
            assert whole.third_quartile == pytest.approx(quantile(values, 0.75))
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_an_ingest_takes_the_same_number_of_queries_for_10_and_1000_results():
    InstanceType.objects.get_or_create(name="c7g.large")

    def rows(count: int, variant: str) -> list[dict]:
        return [
            {"benchmark": f"tool:test-{index}", "instance_type": "c7g.large",
             "region": "us-east-1", "value": index + 1, "unit": "op/s", "variant": variant}
            for index in range(count)
        ]  # fmt: skip

    counts = []
    for count, variant in ((10, "a"), (1000, "b")):
        run, _ = run_services.submit_run(content=table(rows(count, variant)), format="csv")
        with CaptureQueriesContext(connection) as queries:
            run_services.ingest_run(run_id=run.pk)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db
def test_deleting_a_run_takes_its_results_out_of_the_statistics():
    InstanceType.objects.get_or_create(name="c7g.large")
    base = {"benchmark": "openssl:sha256", "instance_type": "c7g.large", "unit": "B/s",
            "region": "us-east-1", "param.block_size": "16"}  # fmt: skip
    first = upload([{**base, "value": 10}])
    upload([{**base, "value": 30}], variant="")
    upload([{**base, "value": 20, "region": "ap-northeast-1"}])
    whole = SeriesStatistics.objects.get(measured_in="")
    assert (whole.runs, whole.median, whole.regions) == (3, 20.0, ["ap-northeast-1", "us-east-1"])
    assert set(SeriesStatistics.objects.values_list("measured_in", flat=True)) == {
        "",
        "us-east-1",
        "ap-northeast-1",
    }
    run_services.delete_run(run=first)
    whole = SeriesStatistics.objects.get(measured_in="")
    assert (whole.runs, whole.median, whole.minimum) == (2, 25.0, 20.0)


@pytest.mark.django_db
def test_a_series_left_without_results_and_its_benchmarks_summary_go():
    InstanceType.objects.get_or_create(name="c7g.large")
    run = upload(
        [{"benchmark": "tool:only", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 1, "unit": "op/s", "param.block_size": "64"}]
    )  # fmt: skip
    assert Benchmark.objects.get(key="tool:only").params == {"block_size": [64]}
    run_services.delete_run(run=run)
    assert not Series.objects.exists() and not SeriesStatistics.objects.exists()
    only = Benchmark.objects.get(key="tool:only")
    assert (only.params, only.families, covered().get("tool:only", 0)) == ({}, [], 0)
    assert not BenchmarkCoverage.objects.exists()


def covered() -> dict[str, int]:
    """Benchmark key -> the instance types its kept coverage holds."""
    return dict(Counter(BenchmarkCoverage.objects.values_list("benchmark__key", flat=True)))


@pytest.mark.django_db
def test_each_benchmark_counts_the_instance_types_measured_with_it():
    for name in ("c7g.large", "c7a.large"):
        InstanceType.objects.get_or_create(name=name)

    def row(benchmark, machine, block_size):
        return {"benchmark": benchmark, "instance_type": machine, "region": "us-east-1",
                "value": 1, "unit": "op/s", "param.block_size": block_size}  # fmt: skip

    upload([row("tool:a", "c7g.large", "16"), row("tool:a", "c7g.large", "64")])
    # A type measured again, with another parameter set, is not counted twice.
    upload([row("tool:a", "c7g.large", "256"), row("tool:b", "c7g.large", "16")])
    second = upload([row("tool:a", "c7a.large", "16")])
    assert covered() == {"tool:a": 2, "tool:b": 1}
    run_services.delete_run(run=second)
    assert covered()["tool:a"] == 1
    assert statistics.check_statistics().clean


@pytest.mark.django_db
def test_a_run_counts_once_for_its_type_with_its_day_and_region_flagged_runs_apart():
    InstanceType.objects.get_or_create(name="c7g.large")

    def row(block_size, region="us-east-1", day="2026-01-05", notes=""):
        return {"benchmark": "tool:a", "instance_type": "c7g.large", "region": region,
                "value": 1, "unit": "op/s", "param.block_size": block_size,
                "measured_at": day, "notes": notes}  # fmt: skip

    # One run of three parameter sets, one in another region, one whose result is flagged.
    first = upload([row("16"), row("64"), row("256")])
    upload([row("16", region="eu-west-1", day="2026-02-01")])
    upload([row("64", day="2026-03-01", notes=f"4 {flags.FAILED_RESPONSES_NOTE}")])

    def figures():
        return BenchmarkCoverage.objects.values_list(*coverage.FIGURES).get()

    assert figures() == (
        2, 1, datetime.date(2026, 1, 5), datetime.date(2026, 3, 1), ["eu-west-1", "us-east-1"]
    )  # fmt: skip
    page = benchmark_page("tool:a")
    assert (page.runs, page.flagged_runs, page.instance_types) == (2, 1, 1)
    assert page.regions == ["eu-west-1", "us-east-1"]
    assert (page.first_measured_at, page.last_measured_at) == (
        datetime.date(2026, 1, 5),
        datetime.date(2026, 3, 1),
    )
    run_services.delete_run(run=first)
    assert figures() == (
        1, 1, datetime.date(2026, 2, 1), datetime.date(2026, 3, 1), ["eu-west-1", "us-east-1"]
    )  # fmt: skip
    assert statistics.check_statistics().clean
    before = kept()
    statistics.rebuild_statistics()
    assert kept() == before


@pytest.mark.django_db
def test_a_coverage_figure_altered_or_not_counted_yet_is_found():
    InstanceType.objects.get_or_create(name="c7g.large")
    upload(
        [{"benchmark": "tool:a", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 1, "unit": "op/s"}]
    )  # fmt: skip
    BenchmarkCoverage.objects.update(runs=5)
    differences = statistics.check_statistics().differences
    assert [(d.benchmark, d.instance_type, d.field, d.kept, d.recomputed) for d in differences] == [
        ("tool:a", "c7g.large", "runs", 5, 1)
    ]
    # Kept before runs were counted: the page says so, and the demo loader's check asks for a
    # rebuild, which counts them.
    BenchmarkCoverage.objects.update(runs=None)
    assert benchmark_page("tool:a").runs is None
    assert [family.runs for family in benchmark_page("tool:a").families] == [None]
    html = Client().get("/benchmarks/tool:a/").content.decode()
    assert "runs not counted yet (<code>python manage.py rebuild_stats</code>" in html
    assert statistics.needs_rebuild()
    statistics.rebuild_statistics()
    assert BenchmarkCoverage.objects.values_list("runs", flat=True).get() == 1
    assert not statistics.needs_rebuild()


def peers() -> dict[tuple[str, str], int]:
    """(benchmark key, parameter key) -> the series its kept peer group counts."""
    return {
        (key, params): series
        for key, params, series in PeerGroup.objects.values_list(
            "benchmark__key", "params_key", "series"
        )
    }


@pytest.mark.django_db
def test_each_parameter_set_counts_its_series_as_they_come_and_go():
    for name in ("c7g.large", "c7a.large"):
        InstanceType.objects.get_or_create(name=name)

    def row(machine, block_size, value=1):
        return {"benchmark": "tool:a", "instance_type": machine, "region": "us-east-1",
                "value": value, "unit": "op/s", "param.block_size": block_size}  # fmt: skip

    upload([row("c7g.large", "16"), row("c7g.large", "64")])
    # A series measured again is not counted again; a new type's series is.
    upload([row("c7g.large", "16", 2)])
    second = upload([row("c7a.large", "16"), row("c7a.large", "16", 3)])
    upload([row("c7g.large", "64", 5)], variant="turbo")
    assert peers() == {
        ("tool:a", '{"block_size":16}'): 2,
        ("tool:a", '{"block_size":64}'): 2,
    }
    assert statistics.check_statistics().clean
    run_services.delete_run(run=second)
    assert peers()[("tool:a", '{"block_size":16}')] == 1
    assert statistics.check_statistics().clean
    # A kept count that disagrees with the series is named, and rebuild_stats mends it.
    PeerGroup.objects.filter(params_key='{"block_size":64}').update(series=7)
    differences = statistics.check_statistics().differences
    assert [(d.benchmark, d.field) for d in differences] == [("tool:a", "series per parameter set")]
    statistics.rebuild_statistics()
    assert peers()[("tool:a", '{"block_size":64}')] == 2
    assert statistics.check_statistics().clean


OPENSSL = sorted((DEMO_DIR / "s1-fargate-openssl").glob("c*.txt"))


@pytest.mark.django_db
def test_each_benchmark_keeps_its_newest_run_with_raw_output_as_its_sample():
    for name in ("c7g.large", "c7a.large"):
        InstanceType.objects.get_or_create(name=name)

    def measure(name: str, path) -> Run:
        run, _ = run_services.record_run(
            content=path.read_bytes(), instance_type_name=name, region_code="us-east-1"
        )
        return run

    older = measure("c7g.large", OPENSSL[0])
    newer = measure("c7a.large", OPENSSL[1])
    # A table's rows are runs without raw output of their own: never a sample.
    upload([{"benchmark": "openssl:sha256", "instance_type": "c7g.large", "region": "us-east-1",
             "value": 1, "unit": "B/s", "param.block_size": "16"}])  # fmt: skip

    def samples() -> dict[str, int | None]:
        return dict(Benchmark.objects.values_list("key", "sample_run"))

    def measured_by(run: Run) -> set[str]:
        return set(run.results.values_list("benchmark__key", flat=True))

    assert measured_by(newer) and measured_by(older)
    assert {samples()[key] for key in measured_by(newer)} == {newer.pk}
    run_services.delete_run(run=newer)
    assert {samples()[key] for key in measured_by(older)} == {older.pk}
    assert statistics.check_statistics().clean


@pytest.mark.django_db
def test_parsing_a_run_again_replaces_its_results_and_statistics():
    InstanceType.objects.get_or_create(name="c7g.large")
    run = upload(
        [{"benchmark": "tool:x", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 5, "unit": "op/s"}]
    )  # fmt: skip
    run_services.reparse_run(run_id=run.pk)
    assert Result.objects.count() == 1
    assert SeriesStatistics.objects.get().runs == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_ingests_of_one_series_both_count(reference_data):
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    InstanceType.objects.get_or_create(name="c7g.large")
    base = {"benchmark": "tool:x", "instance_type": "c7g.large", "region": "us-east-1",
            "unit": "op/s"}  # fmt: skip
    pending = [
        run_services.submit_run(
            content=table([{**base, "value": value}]), format="csv", variant=f"v{value}"
        )[0]
        for value in range(1, 9)
    ]
    # Every run's rows name the same machine and variant "" of the table, so they meet.
    for run in pending:
        Run.objects.filter(pk=run.pk).update(variant="")
    errors = []

    def ingest(run_id: int) -> None:
        try:
            run_services.ingest_run(run_id=run_id)
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=ingest, args=(run.pk,)) for run in pending]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    whole = SeriesStatistics.objects.get(series__benchmark__key="tool:x", measured_in="")
    assert (whole.runs, whole.results, whole.median) == (8, 8, 4.5)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("second", "reads_results"),
    [
        ([30.0, 10.0], False),  # measured again in its region: merged from the kept row
        ([20.0], True),  # a value equal to a kept one: ordered by run, so recomputed
        # In another region too: its rows per region merged from the kept row and the
        # values in hand (the kept region's) or from the values in hand alone (the other's).
        ([40.0, 50.0], False),
    ],
)
def test_a_series_measured_again_keeps_the_figures_of_a_recomputation(second, reads_results):
    InstanceType.objects.get_or_create(name="c7g.large")

    def rows(values: list[float], regions: list[str], cpu: str) -> list[dict]:
        return [
            {"benchmark": "tool:again", "instance_type": "c7g.large", "region": region,
             "value": value, "unit": "op/s", "cpu_model": cpu}
            for value, region in zip(values, regions, strict=True)
        ]  # fmt: skip

    run_services.record_run(
        content=table(rows([20.0, 5.0], ["us-east-1"] * 2, "Neoverse-V1")), format="csv"
    )
    regions = (
        ["us-east-1"] * len(second)
        if len(second) != 2 or second[0] != 40.0
        else (["us-east-1", "eu-west-1"])
    )
    run, _ = run_services.submit_run(
        content=table(rows(second, regions, "AMD EPYC 9R14")), format="csv"
    )
    with CaptureQueriesContext(connection) as queries:
        assert run_services.ingest_run(run_id=run.pk).status == Run.Status.DONE
    read_results = [query["sql"] for query in queries if 'FROM "benchmarks_result"' in query["sql"]]
    assert bool(read_results) == reads_results
    after_ingest = kept()
    statistics.rebuild_statistics()
    assert kept() == after_ingest
    whole = SeriesStatistics.objects.get(series__benchmark__key="tool:again", measured_in="")
    values = sorted([20.0, 5.0, *second])
    # A table's rows measured in one region are one run.
    runs = len(set(regions))
    assert (whole.results, whole.runs, whole.median) == (
        len(values),
        1 + runs,
        stats.median(values),
    )
    assert whole.cpu_models == {"AMD EPYC 9R14": runs, "Neoverse-V1": 1}
    assert [value for value, _ in whole.samples] == values


@pytest.mark.django_db
@pytest.mark.parametrize("values", [[30.0], [30.0, 7.5, 30.0]])
def test_a_series_kept_in_no_region_measured_in_one_keeps_a_recomputations_figures(values):
    # Spare Cores' data names no region: a table measured again names one. The series' rows
    # (every region's, and the new region's own) come from its kept row and the values in
    # hand, the same as a recomputation's, without reading its results back.
    from benchmarks.parsers import ParsedOutput, ParsedResult
    from benchmarks.services import ingest

    machine, _ = InstanceType.objects.get_or_create(name="c7g.large")
    first = Run(instance_type=machine, format="sysbench", cpu_model="Neoverse-V1")
    ingest.store_outputs(
        outputs=[
            ingest.OutputToStore(
                run=first,
                parsed=ParsedOutput(
                    format="sysbench",
                    results=[
                        ParsedResult("tool:nowhere", {"block_size": 1}, v, "op/s") for v in (20, 5)
                    ],
                ),
            )
        ]
    )
    rows = [
        {"benchmark": "tool:nowhere", "instance_type": "c7g.large", "region": "us-east-1",
         "value": value, "unit": "op/s", "cpu_model": "AMD EPYC 9R14", "param.block_size": 1}
        for value in values
    ]  # fmt: skip
    run, _ = run_services.submit_run(content=table(rows), format="csv")
    with CaptureQueriesContext(connection) as queries:
        assert run_services.ingest_run(run_id=run.pk).status == Run.Status.DONE
    assert not [query for query in queries if 'FROM "benchmarks_result"' in query["sql"]]
    after_ingest = kept()
    statistics.rebuild_statistics()
    assert kept() == after_ingest
    whole = SeriesStatistics.objects.get(series__benchmark__key="tool:nowhere", measured_in="")
    assert (whole.sole_region, whole.regions) == ("", ["us-east-1", None])
    assert whole.median == stats.median([20.0, 5.0, *values])
    region = SeriesStatistics.objects.get(
        series__benchmark__key="tool:nowhere", measured_in="us-east-1"
    )
    assert (region.results, region.median) == (len(values), stats.median(values))
