"""benchmarks/per_dollar.py: the arithmetic every per-dollar answer uses, alone."""

import ast
import math
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks import per_dollar as arithmetic

figures = st.floats(min_value=1e-6, max_value=1e15, allow_nan=False, allow_infinity=False)
prices = st.floats(min_value=1e-4, max_value=1e3, allow_nan=False, allow_infinity=False)
shares = st.floats(min_value=0.01, max_value=1.0)
vcpus = st.integers(min_value=1, max_value=192)
processes = st.integers(min_value=1, max_value=256)


def test_the_module_imports_nothing_of_django_or_the_project():
    tree = ast.parse(Path(arithmetic.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= {"__future__", "math", "statistics", "collections", "decimal"}, imported


def test_work_per_dollar_keeps_seven_significant_digits():
    assert 6923.5 * 3600 / 1.7 == 14661529.411764706
    assert arithmetic.per_dollar(6923.5, 1.7, higher_is_better=True) == 14661530.0
    assert arithmetic.per_dollar(7.0, 0.3, higher_is_better=False) == 1714.286
    assert arithmetic.per_dollar(5.0, 0, higher_is_better=True) is None
    assert arithmetic.per_dollar(5.0, None, higher_is_better=True) is None
    assert arithmetic.per_dollar(0.0, 0.1, higher_is_better=False) is None


@given(figures, prices)
def test_work_per_dollar_is_the_figure_times_an_hour_over_the_price(median, usd):
    value = arithmetic.per_dollar(median, usd, higher_is_better=True)
    assert value == pytest.approx(median * 3600 / usd, rel=1e-6)


@given(figures, prices, prices)
def test_a_dearer_price_never_buys_more(median, usd, more):
    cheap, dear = sorted((usd, more))
    for higher_is_better in (True, False):
        assert arithmetic.per_dollar(
            median, dear, higher_is_better=higher_is_better
        ) <= arithmetic.per_dollar(median, cheap, higher_is_better=higher_is_better)


@given(figures, prices)
def test_jobs_per_dollar_falls_as_a_job_takes_longer(seconds, usd):
    once = arithmetic.per_dollar(seconds, usd, higher_is_better=False)
    twice = arithmetic.per_dollar(seconds * 2, usd, higher_is_better=False)
    assert twice == pytest.approx(once / 2, rel=1e-6)


@given(shares, vcpus, processes)
def test_a_sustained_share_is_between_the_baseline_and_the_whole(share, count, busy):
    sustained = arithmetic.sustained_share(share, count, busy)
    assert min(share, 1.0) - 1e-12 <= sustained <= 1.0


def test_credits_are_pooled_over_the_whole_instance():
    # t4g.nano: 2 vCPUs at 5%; two processes get 5%, one process 10%.
    assert arithmetic.sustained_share(0.05, 2, 2) == pytest.approx(0.05)
    assert arithmetic.sustained_share(0.05, 2, 1) == pytest.approx(0.10)
    # No process count: every vCPU is busy.
    assert arithmetic.sustained_share(0.05, 2, None) == pytest.approx(0.05)
    assert arithmetic.sustained_share(0.40, 4, 1) == 1.0


@given(figures, prices, shares, vcpus, processes)
def test_sustained_work_per_dollar_never_beats_the_burst(median, usd, share, count, busy):
    burst = arithmetic.per_dollar(median, usd, higher_is_better=True)
    sustained = arithmetic.sustained_per_dollar(
        median, usd, higher_is_better=True, baseline_share=share, vcpus=count, processes=busy
    )
    assert sustained <= burst * (1 + 1e-6)


def test_a_duration_grows_when_the_cpu_is_throttled():
    assert arithmetic.sustained_figure(10.0, 0.25, higher_is_better=False) == 40.0
    assert arithmetic.sustained_figure(10.0, 0.25, higher_is_better=True) == 2.5


def test_a_commitments_effective_hourly_spreads_its_upfront_fee():
    # Three years all upfront: the fee over 26,280 hours.
    assert arithmetic.effective_hourly(upfront_usd=1051.2, hourly_usd=0, hours=26_280) == (
        pytest.approx(0.04)
    )
    assert arithmetic.effective_hourly(upfront_usd=0, hourly_usd=0.062, hours=8760) == 0.062
    with pytest.raises(ValueError):
        arithmetic.effective_hourly(upfront_usd=1, hourly_usd=0, hours=0)


@given(st.floats(min_value=1e-9, max_value=1e9))
def test_a_ratio_keeps_three_decimals_or_three_digits(value):
    rounded = arithmetic.ratio(value)
    assert rounded == pytest.approx(value, rel=5e-3, abs=5e-4)


def test_ratios_to_the_baseline():
    assert arithmetic.relative_throughput(97.0, 100.0, higher_is_better=True) == 0.97
    # Seconds per job: half the time is twice the throughput.
    assert arithmetic.relative_throughput(50.0, 100.0, higher_is_better=False) == 2.0
    assert arithmetic.relative(0.7, 1.0) == 0.7
    assert arithmetic.relative(None, 1.0) is None
    assert arithmetic.relative(1.0, 0) is None


def test_figures_per_vcpu_and_per_price():
    assert arithmetic.per_vcpu(8.0, 4) == 2.0
    assert arithmetic.per_vcpu(8.0, None) is None
    assert arithmetic.per_price(10.0, 4.0) == 2.5
    assert arithmetic.per_price(None, 4.0) is None
    assert arithmetic.gbit_per_second_per_usd_hour(25e9, 0.5) == 50.0


def test_the_frontier_holds_the_points_no_other_beats():
    points = [
        ("cheap-slow", 0.01, 10.0),
        ("mid-fast", 0.05, 100.0),
        ("dear-slower", 0.10, 90.0),
        ("dear-fastest", 0.20, 150.0),
        ("twin-of-mid", 0.05, 100.0),
    ]
    assert arithmetic.pareto_frontier(points) == {
        "cheap-slow",
        "mid-fast",
        "twin-of-mid",
        "dear-fastest",
    }


@given(
    st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=30, unique=False
    )
)
def test_no_point_off_the_frontier_is_unbeaten(pairs):
    points = [(index, float(cost), float(good)) for index, (cost, good) in enumerate(pairs)]
    frontier = arithmetic.pareto_frontier(points)

    def beaten(point):
        _, cost, good = point
        return any(
            other[1] <= cost and other[2] >= good and (other[1] < cost or other[2] > good)
            for other in points
        )

    for point in points:
        assert (point[0] in frontier) == (not beaten(point)), point


@given(st.lists(st.floats(-1e9, 1e9), min_size=1, max_size=200))
def test_quartiles_are_ordered_and_within_the_values(values):
    first, median, third = arithmetic.quartiles(values)
    assert min(values) <= first <= median <= third <= max(values)
    assert not any(math.isnan(value) for value in (first, median, third))


def test_a_weighted_median_is_the_figure_most_tasks_landed_on():
    # Study S1's 0.25 vCPU task: 4 of 5 tasks on E5-2676 v3, 1 on E5-2686 v4 (aes-128-gcm).
    figures = [2_779_490_250.0, 3_520_877_910.0]
    assert arithmetic.quartiles(figures, [4, 1]) == (2_779_490_250.0,) * 3
    assert arithmetic.quartiles(figures, [1, 4]) == (3_520_877_910.0,) * 3
    # Equal weights are the plain quartiles: the mean of the two as the median.
    assert arithmetic.quartiles(figures, [2, 2])[1] == 3_150_184_080.0
    with pytest.raises(ValueError, match="one weight"):
        arithmetic.quartiles(figures, [0, 5])


@given(
    st.lists(st.tuples(st.floats(-1e9, 1e9), st.integers(1, 6)), min_size=1, max_size=30).map(
        sorted
    )
)
def test_weighted_quartiles_are_those_of_the_values_repeated(pairs):
    values = [value for value, _ in pairs]
    weights = [weight for _, weight in pairs]
    repeated = [value for value, weight in pairs for _ in range(weight)]
    assert arithmetic.quartiles(values, weights) == arithmetic.quartiles(repeated)


def test_unit_prices_put_the_whole_hourly_price_on_each_vcpu_and_on_each_gib():
    # c7g.large in us-east-1: $0.0725 an hour, 2 vCPUs, 4 GiB.
    assert arithmetic.unit_prices(0.0725, vcpus=2, memory_gib=4) == (0.03625, 0.018125)
    assert arithmetic.unit_prices(0.0725, vcpus=2, memory_gib=None) == (0.03625, None)
    assert arithmetic.unit_prices(0.1, vcpus=3, memory_gib=0) == (0.03333333, None)


def test_a_fargate_task_costs_its_vcpus_and_its_memory_at_their_rates():
    # Study S1's launch rates: 0.25 vCPU at $0.0506 and 0.5 GB at $0.0127.
    hourly = arithmetic.fargate_hourly(
        vcpus=Decimal("0.25"),
        memory_gib=Decimal("0.5"),
        usd_per_vcpu_hour=Decimal("0.0506"),
        usd_per_gb_hour=Decimal("0.0127"),
    )
    assert hourly == Decimal("0.019")


def test_a_fargate_tasks_price_is_exact_and_so_are_its_unit_prices():
    # Fargate Spot in eu-west-1 (2019): 0.01379631 a vCPU-hour, 0.00151494 a GB-hour.
    rates = {"usd_per_vcpu_hour": Decimal("0.01379631"), "usd_per_gb_hour": Decimal("0.00151494")}
    small = arithmetic.fargate_hourly(vcpus=Decimal("0.25"), memory_gib=Decimal("0.5"), **rates)
    large = arithmetic.fargate_hourly(vcpus=Decimal("1"), memory_gib=Decimal("2"), **rates)
    assert (small, large) == (Decimal("0.0042065475"), Decimal("0.01682619"))
    # The same GiB-hour price, to the last digit (not 0.008413096 and 0.008413095).
    assert arithmetic.unit_prices(small, vcpus=Decimal("0.25"), memory_gib=Decimal("0.5")) == (
        0.01682619,
        0.008413095,
    )
    assert arithmetic.unit_prices(large, vcpus=Decimal("1"), memory_gib=Decimal("2"))[1] == (
        0.008413095
    )


def test_a_sustained_vcpu_hour_is_the_vcpu_hour_over_the_baseline_share_exactly():
    # t2.nano: $0.0058 an hour, 1 vCPU sustained at 5% (floats: 0.11599999999999999).
    nano = arithmetic.sustained_vcpu_hour(
        Decimal("0.0058"), vcpus=Decimal(1), baseline_share=Decimal("0.05")
    )
    assert nano == 0.116
    assert arithmetic.sustained_vcpu_hour(0.0058, vcpus=1, baseline_share=0.05) == 0.116
    # t2.large: $0.0928 over 2 vCPUs at 30%, to seven significant digits.
    assert (
        arithmetic.sustained_vcpu_hour(
            Decimal("0.0928"), vcpus=Decimal(2), baseline_share=Decimal("0.3")
        )
        == 0.1546667
    )
    # Not burstable (no baseline share), or no vCPU count: none.
    assert arithmetic.sustained_vcpu_hour(Decimal("0.0725"), vcpus=2, baseline_share=None) is None
    assert (
        arithmetic.sustained_vcpu_hour(Decimal("0.0058"), vcpus=None, baseline_share=0.05) is None
    )


def test_an_unlimited_price_is_summed_without_float_noise():
    # t2.micro flat out: 0.0116 + 90% of a vCPU-hour at $0.05 (floats: 0.056600000000000004).
    price = arithmetic.unlimited_usd_per_hour(
        0.0116, baseline_share=0.1, vcpus=1.0, processes=1, surplus_usd_per_vcpu_hour=0.05
    )
    assert price == 0.0566
    # Below the baseline, nothing is added.
    assert (
        arithmetic.unlimited_usd_per_hour(
            0.0116, baseline_share=0.5, vcpus=2.0, processes=1, surplus_usd_per_vcpu_hour=0.05
        )
        == 0.0116
    )


def test_the_median_price_of_an_even_count_is_the_mean_of_the_middle_two():
    assert arithmetic.median_price([0.0398, 0.0356, 0.0361, 0.0303, 0.0331]) == 0.0356
    assert arithmetic.median_price([0.0029, 0.0031, 0.0032, 0.0029, 0.003, 0.0031]) == 0.00305
    with pytest.raises(ValueError):
        arithmetic.median_price([])


def test_a_figures_interval_scales_what_a_dollar_buys_and_a_durations_swaps():
    # A throughput of 100 (90 to 120) buying 1,000 a dollar buys 900 to 1,200.
    assert arithmetic.per_dollar_interval(1000.0, 90.0, 120.0, 100.0, higher_is_better=True) == (
        pytest.approx(900.0),
        pytest.approx(1200.0),
    )
    # A job of 100 s (80 to 125 s): the slowest bound buys the fewest jobs.
    assert arithmetic.per_dollar_interval(1000.0, 80.0, 125.0, 100.0, higher_is_better=False) == (
        pytest.approx(800.0),
        pytest.approx(1250.0),
    )


def test_equal_work_costs_what_the_work_an_hour_over_what_a_dollar_buys_gives():
    # 48 hours of a type doing 100 an hour at $0.192, on one doing 150 an hour at $0.145.
    own = arithmetic.work_per_hour(100 / 0.192, 0.192)
    other = 150 / 0.145

    assert own == pytest.approx(100)
    assert arithmetic.cost_of_work(48 * own, other) == pytest.approx(32 * 0.145)


@given(figures, figures)
def test_the_ratio_range_holds_the_ratio_and_widens_with_either_figures_interval(a, b):
    ratio = a / b
    low, high = arithmetic.ratio_range(ratio, (0.9, 1.2), (0.95, 1.05))

    assert low <= ratio <= high
    assert low == pytest.approx(ratio * 0.9 / 1.05)
    assert high == pytest.approx(ratio * 1.2 / 0.95)


def test_a_million_tokens_cost_the_hours_price_over_the_tokens_it_generates():
    # 1,000 tokens/s for $3.60 an hour: 3.6 M tokens an hour, $1 a million.
    assert arithmetic.usd_per_million_tokens(3.6, 1000) == 1.0
    assert arithmetic.usd_per_million_tokens(3.6, 0) is None
