"""dashboard/charts.py: answers turned into what the pages' charts draw."""

import datetime

import pytest

from benchmarks import palette
from benchmarks.models import Region
from benchmarks.selectors.pages.five_families import side_by_side
from benchmarks.selectors.pages.instance_types import instance_type_page
from dashboard import charts
from tests.api.test_unit_prices import fleet
from tests.selectors.test_comparison import ask, some_results
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db

JAN, JUN = datetime.date(2024, 1, 1), datetime.date(2024, 6, 1)


def test_the_comparison_chart_gives_each_family_its_colour_and_marks_the_best():
    some_results()
    chart = charts.comparison_chart(ask(params={"block_size": "8192"}))
    assert {row["family"]: row["colour"] for row in chart["rows"]} == {
        family: palette.family_colour(family) for family in ("c7g", "c7a", "t2")
    }
    best = [row["instance_type"] for row in chart["rows"] if row["best"]]
    assert best == ["t2.nano"]  # 50 for $0.0058 an hour beats 200 for $0.0725
    assert chart["bars"][0] == "t2.nano"


def test_the_comparison_chart_outlines_the_bars_the_noise_cannot_tell_from_the_best():
    from benchmarks.models import Benchmark

    some_results()
    result = ask(params={"block_size": "8192"})
    # Unmeasured noise: only the best could rank first.
    rows = charts.comparison_chart(result)["rows"]
    assert [row["instance_type"] for row in rows if row["within_noise_of_best"]] == ["t2.nano"]
    assert all(row["rank_range"][0] <= row["rank"] <= row["rank_range"][1] for row in rows)
    # So noisy a benchmark that every figure could rank first.
    Benchmark.objects.update(noise={"relative": 5.0, "series": 100, "method": "set by the test"})
    rows = charts.comparison_chart(ask(params={"block_size": "8192"}))["rows"]
    assert all(row["within_noise_of_best"] for row in rows if row["per_dollar"] is not None)


def test_the_comparison_chart_marks_the_frontier_the_page_lists():
    some_results()
    result = ask(params={"block_size": "8192"})
    chart = charts.comparison_chart(result)
    assert {row["key"] for row in chart["rows"] if row["pareto"]} == {
        row.key for row in result.frontier
    }


def test_a_refused_question_has_no_chart():
    assert charts.comparison_chart(ask(benchmark="no:such")) is None


def test_price_history_lines_break_between_periods():
    price("c7g.large", "0.08", JAN, datetime.date(2024, 2, 29))
    price("c7g.large", "0.0725", JUN)
    chart = charts.price_history_chart(instance_type_page("c7g.large"))
    points = chart["lines"][0]["points"]
    # The first period ends, nothing is in force until June (a break), then the second.
    assert points[:3] == [["2024-01-01", 0.08], ["2024-02-29", 0.08], ["2024-03-01", None]]
    assert points[3] == ["2024-06-01", 0.0725]


def test_the_unit_price_chart_draws_its_series_over_the_lines_of_the_five():
    fleet(2, zones=3)  # zz1 types: $0.1 on demand, spot 0.01/0.02/0.03; Fargate x86_64 rates
    section = side_by_side(
        region=Region.objects.get(code="us-east-1"),
        at=JUN,
        benchmark_key="openssl:aes-256-cbc",
        families_with_results=["zz1"],
        families=("fargate", "zz1", "c7g"),
    )
    chart = charts.unit_price_chart(section)
    assert (chart["region"], chart["at"]) == ("us-east-1", "2024-06-01")
    # No arm64 Fargate rates and no c7g prices: a line each, without figures.
    assert chart["labels"] == ["fargate (x86_64)", "zz1 (x86_64)", "c7g"]
    values = {series["key"]: series["values"] for series in chart["series"]}
    assert values == {
        "vcpu_on_demand": [0.04937, 0.05, None],
        "vcpu_spot": [None, 0.01, None],  # no Fargate Spot rate
        # None of them bursts: no vCPU-hour at what it sustains.
        "sustained_on_demand": [None, None, None],
        "sustained_spot": [None, None, None],
        "gib_on_demand": [0.009505, 0.025, None],
        "gib_spot": [None, 0.005, None],
    }


def test_the_baseline_axis_ends_at_400_percent_and_names_the_bars_cut_there():
    some_results()
    chart = charts.comparison_chart(ask(params={"block_size": "8192"}, baseline="t2.nano"))
    axis = chart["baseline_axis"]
    assert axis["type"] == "linear" and axis["max"] == 4.0
    cut = {(bar["label"], bar["measure"]) for bar in axis["clipped"]}
    # c7a.large: 300 against 50 (600%), at $0.1027 against $0.0058 an hour (1,771%).
    assert ("c7a.large", "throughput") in cut and ("c7a.large", "cost") in cut
    assert ("c7g.large", "throughput") not in cut  # 200 against 50: 400%, on the axis's end
    assert all(bar["value"] > 4.0 for bar in axis["clipped"])


def test_a_baseline_chart_within_400_percent_keeps_its_own_axis():
    some_results()
    chart = charts.comparison_chart(ask(params={"block_size": "8192"}, baseline="c7a.large"))
    assert chart["baseline_axis"] == {"type": "linear", "max": None, "clipped": []}
    assert charts.comparison_chart(ask(params={"block_size": "8192"}))["baseline_axis"] is None


def test_the_medians_charts_rank_by_the_median_they_show():
    some_results()
    chart = charts.comparison_chart(ask(params={"block_size": "8192"}))
    assert chart["bars"] == ["t2.nano", "c7a.large", "c7g.large"]  # per dollar
    assert chart["value_bars"] == ["c7a.large", "c7g.large", "t2.nano"]  # 300, 200, 50


def test_families_shown_together_never_share_a_colour_while_colours_last():
    many = [f"x{generation}{letter}" for generation in range(1, 5) for letter in "abcd"]
    colours = palette.family_colours(["c7g", *many])
    assert len(set(colours.values())) == 17 == len(colours)
    assert colours["c7g"] == palette.family_colour("c7g")
    # The first family to want a colour keeps it; the same list gives the same colours.
    assert colours[many[0]] == palette.family_colour(many[0])
    assert palette.family_colours(["c7g", *many]) == colours


def test_a_baseline_far_below_many_types_gets_a_logarithmic_axis():
    some_results()
    for index, usd in enumerate(("0.2", "0.3", "0.4", "0.5")):
        price(f"c7a.{index + 2}xlarge", usd, JAN)
        run_with(f"c7a.{index + 2}xlarge", [1000.0 * (index + 1)], params={"block_size": 8192})
    chart = charts.comparison_chart(ask(params={"block_size": "8192"}, baseline="t2.nano"))
    assert chart["baseline_axis"] == {"type": "logarithmic", "max": None, "clipped": []}


def test_the_comparison_charts_error_bars_are_the_rows_intervals():
    from benchmarks.models import Benchmark

    some_results()
    Benchmark.objects.update(
        noise={"relative": 0.01, "series": 100, "method": "set by the test", "tie_margin": 0.05,
               "quantiles": {"p50": 0.01, "p90": 0.04, "p95": 0.05, "p99": 0.2},
               "basis": "repeats", "calibration": None, "pairs": 100, "groups": {}}
    )  # fmt: skip
    rows = charts.comparison_chart(ask(params={"block_size": "8192"}))["rows"]
    for row in rows:
        assert row["interval"]["low"] == pytest.approx(
            min(row["min"], row["median"] / 1.04), rel=1e-5
        )
        assert row["interval"]["high"] == pytest.approx(
            max(row["max"], row["median"] * 1.04), rel=1e-5
        )
        if row["per_dollar"] is not None:
            bought = row["per_dollar_interval"]
            assert bought["low"] < row["per_dollar"] < bought["high"]
