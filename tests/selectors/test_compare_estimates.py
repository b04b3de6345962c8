"""Compare with a Fargate size no task measured: its figure estimated from EC2 types with the
processor the task runs on, as the price-performance answer estimates it, labelled so in the
cells, the sentence and the chart; never on a GPU benchmark; none with estimates=exclude."""

import pytest

from benchmarks.questions.compare import CompareQuery
from benchmarks.selectors.compare_types.compare import compare_types
from benchmarks.services import statistics
from dashboard import charts
from tests.selectors.test_fargate_estimate_scope import _beyond_a_task
from tests.selectors.test_fargate_estimates import DAY, _graviton2_and_fargate_rates

pytestmark = pytest.mark.django_db

TYPES = ("c6g.large", "fargate-2vcpu-4gb-arm64")


@pytest.fixture
def graviton2():
    _graviton2_and_fargate_rates()
    statistics.keep_noise()


def test_a_fargate_size_no_task_measured_is_estimated_and_labelled(graviton2):
    comparison = compare_types(CompareQuery(types=TYPES, baseline="c6g.large", at=DAY))
    [group] = comparison.benchmarks
    line = group.main
    assert (group.benchmark, line.params) == (
        "openssl:aes-256-cbc",
        {"block_size": 8192, "processes": 2},
    )
    measured, estimated = line.cells
    assert not measured.estimated and estimated.estimated
    # The same-size source's figure: c6g.large's 2.8 GB/s on two processes.
    assert estimated.median == pytest.approx(2.8e9) and estimated.runs == 0
    assert estimated.estimate["from"] == ["c6g.large"]
    assert estimated.per_dollar is not None and estimated.relative_per_dollar is not None
    assert "estimated from AWS Graviton2 (Neoverse-N1) on c6g.large" in estimated.estimate_note
    assert line.measured == 1 and line.shared_by_all
    assert "fargate-2vcpu-4gb-arm64 (estimated)" in comparison.summary
    assert comparison.summary.endswith(
        "fargate-2vcpu-4gb-arm64: estimated from EC2 types with the processor the task runs "
        "on, where no task was measured."
    )
    chart = charts.compare_chart(comparison)
    assert chart["lines"][0]["estimated"] == [False, True]
    assert [t["estimated"] for t in chart["types"]] == [False, True]


def test_estimates_exclude_leaves_only_what_was_measured(graviton2):
    comparison = compare_types(
        CompareQuery(types=TYPES, baseline="c6g.large", at=DAY, estimates="exclude")
    )
    assert comparison.benchmarks == []
    assert "share no benchmark yet" in comparison.summary


def test_a_gpu_benchmark_is_never_estimated(graviton2):
    _beyond_a_task()
    comparison = compare_types(
        CompareQuery(
            types=("g5g.xlarge", "fargate-4vcpu-8gb-arm64"), baseline="g5g.xlarge", at=DAY
        )  # fmt: skip
    )
    benchmarks = {group.benchmark for group in comparison.benchmarks}
    assert "ffmpeg:gpu_h264_encode" not in benchmarks
    # openssl is estimated, from c6g alone (g5g.xlarge has a GPU: no task's picture).
    [aes] = [group.main for group in comparison.benchmarks]
    assert set(aes.cells[1].estimate["from"]) <= {"c6g.medium", "c6g.large"}


def test_a_measured_figure_is_never_replaced_by_an_estimate(graviton2):
    from tests.selectors.test_price_performance import run_with

    run_with(
        "fargate-2vcpu-4gb-arm64",
        [2.5e9],
        key="openssl:aes-256-cbc",
        params={"block_size": 8192, "processes": 2},
    )
    comparison = compare_types(CompareQuery(types=TYPES, baseline="c6g.large", at=DAY))
    [group] = comparison.benchmarks
    fargate = group.main.cells[1]
    assert not fargate.estimated and fargate.median == 2.5e9


def test_estimates_read_in_a_few_queries(graviton2, django_assert_max_num_queries):
    compare_types(CompareQuery(types=TYPES, baseline="c6g.large", at=DAY))  # the basis kept
    # The types, their statistics, the region, the prices, and one for the sources' figures.
    with django_assert_max_num_queries(8):
        compare_types(CompareQuery(types=TYPES, baseline="c6g.large", at=DAY))
