"""How far a second run moves, and what it makes of ranks, leads and intervals
(benchmarks/noise.py, benchmarks/repeats.py)."""

from dataclasses import replace

import pytest

from benchmarks import noise, repeats
from benchmarks.noise import Noise, RunFigure, SeriesFigure
from benchmarks.repeats import Pair

# Spare Cores' openssl:aes-256-cbc at 8192-byte blocks, one process per vCPU (B/s).
GRAVITON3_FOUR_VCPUS = {"c7g.xlarge": 5824703146.66, "m7g.xlarge": 5824653994.66,
                        "r7g.xlarge": 5832892416.0}  # fmt: skip
GRAVITON3_EIGHT_VCPUS = {"c7g.2xlarge": 11678460586.68, "m7g.2xlarge": 11677952682.66,
                         "r7g.2xlarge": 11663927978.67}  # fmt: skip


def figures(values: dict[str, float], vcpus: float, cpu: str = "Neoverse-V1", **params):
    return [
        SeriesFigure(params=params, cpu_model=cpu, vcpus=vcpus, median=v, series_id=index)
        for index, v in enumerate(values.values())
    ]


def repeated(pairs, vendor="aws", allocation="dedicated", version="0.17.08"):
    """Series of two runs each, the first in June and the second in September."""
    return [
        SeriesFigure(
            params={"workers": 1},
            cpu_model="",
            vcpus=2,
            median=(first + second) / 2,
            runs=(RunFigure(first, "2024-06-01", version),
                  RunFigure(second, f"2024-09-{day:02}", version)),
            vendor=vendor,
            allocation=allocation,
            series_id=day,
        )
        for day, (first, second) in enumerate(pairs, start=1)
    ]  # fmt: skip


def test_the_quantile_is_the_split_conformal_one():
    ordered = [float(n) for n in range(1, 20)]  # 19 values
    # ceil(20 x 0.9) = 18th smallest; ceil(20 x 0.95) = 19th.
    assert repeats.quantile(ordered, 0.9) == 18.0
    assert repeats.quantile(ordered, 0.95) == 19.0
    assert repeats.quantile(ordered[:5], 0.95) == 5.0


def test_repeats_measure_the_noise_as_quantiles_of_max_over_min():
    # Thirty series whose second run is 1% .. 30% above the first.
    measured = noise.measure(repeated([(100.0, 100.0 + n) for n in range(1, 31)] * 2))
    assert measured.basis == "repeats"
    assert measured.pairs == measured.series == 60
    # Of 60: the 31st, 55th and 58th smallest (ceil(61 x level)).
    assert measured.quantiles["p50"] == pytest.approx(0.16, abs=2e-4)
    assert measured.quantiles["p90"] == pytest.approx(0.28, abs=2e-4)
    assert measured.tie_margin == measured.quantiles["p95"] == pytest.approx(0.29, abs=2e-4)
    assert "pairs of runs repeated on one type" in measured.method
    assert "every repeat's tool version named" in measured.method


def test_heavy_tails_are_kept_not_scaled_away():
    # Most pairs agree to 0.1%, one in ten is 20% apart: the 95% margin sees the tail.
    pairs = [(100.0, 100.1)] * 90 + [(100.0, 120.0)] * 10
    measured = noise.measure(repeated(pairs))
    assert measured.quantiles["p50"] == pytest.approx(0.001, abs=2e-6)
    assert measured.tie_margin == pytest.approx(0.2, abs=2e-4)


def test_runs_of_another_tool_version_are_not_repeats():
    figures_ = repeated([(100.0, 110.0)] * 60)
    newer = RunFigure(500.0, "2024-10-01", "0.20.01")
    other = [replace(figure, runs=(figure.runs[0], newer)) for figure in figures_[:5]]
    measured = noise.measure(figures_[5:] + other)
    assert measured.tie_margin == pytest.approx(0.1, abs=2e-4)
    assert "5 pairs of runs of other tool versions left out" in measured.method


def test_a_version_the_data_does_not_name_is_said():
    measured = noise.measure(repeated([(100.0, 101.0)] * 60, version=""))
    assert "the data names no tool version for 60 pairs" in measured.method


def test_peers_stand_in_only_where_repeats_are_too_few_and_basis_says_so():
    peers = (
        figures(GRAVITON3_FOUR_VCPUS, 4, block_size=8192)
        + figures(GRAVITON3_EIGHT_VCPUS, 8, block_size=8192)
        + figures(
            {"a": 100.0, "b": 104.0, "c": 100.0, "d": 108.0, "e": 100.0}, 2, cpu="AMD EPYC 9R14"
        )
    )
    measured = noise.measure(peers)
    assert measured.basis == "peers"
    # Consecutive types of each group: 2 + 2 + 4 pairs.
    assert measured.pairs == 8
    assert measured.tie_margin == pytest.approx(0.08, abs=2e-4)
    assert "too few repeats" in measured.method
    few = noise.measure(peers + repeated([(100.0, 100.5)] * 3))
    assert few.basis == "repeats and peers" and few.pairs == 11
    enough = noise.measure(peers + repeated([(100.0, 100.5)] * 60))
    assert enough.basis == "repeats" and enough.tie_margin == pytest.approx(0.005, abs=2e-6)


def test_too_few_pairs_measure_nothing():
    alone = [
        SeriesFigure(params={}, cpu_model=f"cpu {n}", vcpus=2, median=100.0 + n) for n in range(20)
    ]
    assert noise.measure(alone) is None
    assert noise.measure(repeated([(100.0, 101.0)] * 7)) is None


def test_vendors_and_allocations_with_enough_pairs_keep_their_own_distribution():
    quiet = repeated([(100.0, 100.5)] * 60, vendor="aws")
    loud = repeated([(100.0, 130.0)] * 60, vendor="azure")
    few = repeated([(100.0, 200.0)] * 10, vendor="hcloud", allocation="shared")
    measured = noise.measure(quiet + loud + few)
    assert set(measured.groups) == {
        "aws dedicated", "azure dedicated", "dedicated", "hcloud shared", "shared"
    }  # fmt: skip
    assert measured.reach("aws", "dedicated") == pytest.approx((0.005, 0.005), abs=2e-6)
    assert measured.reach("azure", "dedicated")[0] == pytest.approx(0.3, abs=2e-4)
    # hcloud's ten shared pairs are too few to stand alone: the wider of theirs (100%) and
    # the benchmark's, quantile by quantile.
    assert measured.groups["shared"]["quantiles"]["p50"] == pytest.approx(1.0)
    assert measured.reach("hcloud", "shared") == pytest.approx((1.0, 1.0))
    # A group thinner still (GCP: none) is judged by its allocation's, else the benchmark's.
    assert measured.reach("gcp", "dedicated") == measured.reach("dedicated", "dedicated")
    assert measured.reach("gcp", "burstable") == (measured.tie_margin, measured.interval)
    assert Noise.from_dict(measured.as_dict()) == measured


def test_the_sentence_and_the_ranks_name_the_same_distribution():
    # One lookup (Noise.judged_by) for the margins (reach) and the line under the answer.
    from types import SimpleNamespace

    from benchmarks.selectors.answer.answer_sentence import second_run
    from benchmarks.selectors.answer.standing import Standing

    measured = noise.measure(
        repeated([(100.0, 100.5)] * 60, vendor="aws")
        + repeated([(100.0, 130.0)] * 60, vendor="azure")
    )
    assert measured.judged_by("aws", "dedicated") == (
        "aws dedicated",
        measured.groups["aws dedicated"],
    )
    assert measured.judged_by("gcp", "dedicated") == ("dedicated", measured.groups["dedicated"])
    assert measured.judged_by("gcp", "burstable") == (
        "", {"pairs": measured.pairs, "quantiles": measured.quantiles}
    )  # fmt: skip
    legacy = Noise.from_dict({"relative": 0.01, "series": 10, "method": "m"})
    assert legacy.judged_by("aws", "dedicated") == ("", None)

    def said(vendor, allocation):
        winner = SimpleNamespace(
            instance_type="x.large", per_dollar=1.0, vendor=vendor, cpu_allocation=allocation,
            params_key="",
        )  # fmt: skip
        table = SimpleNamespace(
            standing=Standing(noise=measured, best_family=None, tied=False), results=[winner]
        )
        return second_run(table)

    assert said("aws", "dedicated").startswith("On Amazon Web Services' dedicated vCPUs, ")
    assert said("gcp", "dedicated").startswith("On dedicated vCPUs, ")
    assert said("gcp", "burstable").startswith("A second run of the same type differs by up to")


def test_a_thin_group_keeps_the_wider_of_its_own_and_its_fallbacks_quantiles():
    quiet = repeated([(100.0, 100.5)] * 60, vendor="aws")
    calm = repeated([(100.0, 100.1)] * 10, vendor="gcp")
    measured = noise.measure(quiet + calm)
    # GCP's ten pairs agree to 0.1%, but ten say little: AWS's 0.5% (the "dedicated" group's).
    assert measured.reach("gcp", "dedicated") == pytest.approx((0.005, 0.005), abs=2e-6)


def test_calibration_holds_the_newer_half_out_of_each_group():
    # Older pairs 1% apart, newer ones 3%: the margin the older ones give misses them all.
    drifting = [
        Pair(100.0, 101.0 if day <= 50 else 103.0, (f"2024-09-{day:03}",), "aws", "dedicated")
        for day in range(1, 101)
    ]
    calibration = repeats.calibrate(drifting)
    assert calibration.pairs == 50
    assert calibration.beyond_tie_margin == 1.0 and calibration.interval_coverage == 0.0
    assert calibration.meets_goal is False
    steady = [
        Pair(100.0, 100.0 + (day % 20) / 10, (f"{day:03}",), "aws", "dedicated")
        for day in range(200)
    ]
    held = repeats.calibrate(steady)
    assert held.pairs == 100 and held.beyond_tie_margin <= 0.05
    assert 0.85 <= held.interval_coverage <= 0.95 and held.meets_goal is True
    assert held.as_dict()["level"] == 0.9


def test_a_lead_counts_only_beyond_the_margin():
    assert not noise.beyond(102.0, 100.0, 0.0283)
    assert noise.beyond(103.0, 100.0, 0.0283)
    assert noise.beyond(100.1, 100.0, 0.0)


def test_noise_kept_before_quantiles_keeps_its_margin():
    legacy = Noise.from_dict({"relative": 0.01, "series": 10, "method": "m"})
    assert legacy.margin == pytest.approx(2 * 2**0.5 * 0.01)
    assert legacy.tie_margin is None and legacy.reach("aws", "dedicated")[0] == legacy.margin


def test_rank_ranges_hold_the_ranks_a_figure_could_take_within_the_margins():
    # 2.83% margins: 100 and 98 are indistinguishable, 90 is clearly below both, 89.5 is not
    # clearly below 90.
    ranges = noise.rank_ranges([100.0, 98.0, 90.0, 89.5], [0.0283] * 4)
    assert ranges == [(1, 2), (1, 2), (3, 4), (3, 4)]
    assert noise.rank_ranges([100.0, 98.0, 90.0], [0.0] * 3) == [(1, 1), (2, 2), (3, 3)]


def test_a_row_whose_own_runs_are_far_apart_spans_the_ranks_they_reach():
    # 98's own runs are 30% apart: it could be anywhere from first to last; the others,
    # one run each with no margin, still order among themselves.
    ranges = noise.rank_ranges([100.0, 98.0, 90.0, 80.0], [0.0, 0.3, 0.0, 0.0])
    assert ranges == [(1, 2), (1, 4), (2, 3), (3, 4)]


def test_rank_ranges_say_clearly_above_and_below_as_beyond_does():
    # One tie rule: the sweep counts exactly the rows `beyond` calls ahead or behind with the
    # wider of two margins, at a margin's edge too: a lead within TOLERANCE of the margin is
    # a tie (float error, not a difference any run makes).
    import random

    generator = random.Random(55)
    cases = [
        ([110.0, 100.0, 90.9090909090909], [0.1, 0.1, 0.1]),
        ([110.00000005, 100.0], [0.1, 0.1]),
        ([110.00000005, 100.0], [0.0, 0.1]),
    ]
    for _ in range(200):
        count = generator.randint(1, 30)
        figures = sorted(
            (generator.choice([100.0, 110.0, 121.0, generator.uniform(1, 200)])
             for _ in range(count)),
            reverse=True,
        )  # fmt: skip
        margins = [generator.choice([0.0, 0.1, 0.21, generator.uniform(0, 0.5)]) for _ in figures]
        cases.append((figures, margins))
    for figures, margins in cases:
        expected = []
        for i, (figure, margin) in enumerate(zip(figures, margins, strict=True)):
            pairs = [
                (other, noise.pair_margin(margin, margins[j]))
                for j, other in enumerate(figures)
                if j != i
            ]
            above = sum(noise.beyond(other, figure, pair) for other, pair in pairs)
            below = sum(noise.beyond(figure, other, pair) for other, pair in pairs)
            expected.append((above + 1, len(figures) - below))
        assert noise.rank_ranges(figures, margins) == expected, (figures, margins)


def test_the_interval_reaches_the_quantile_and_covers_the_rows_own_runs():
    assert noise.interval(100.0, 0.1, 100.0, 100.0, runs=1) == (
        pytest.approx(100 / 1.1),
        pytest.approx(110.0),
    )
    assert noise.interval(100.0, 0.01, 80.0, 120.0, runs=2) == (80.0, 120.0)
    assert noise.own_difference(80.0, 120.0, runs=2) == pytest.approx(0.5)
    assert noise.own_difference(80.0, 80.0, runs=1) == 0.0  # fmt: skip


def test_the_spread_of_a_rows_runs_needs_two_runs():
    assert noise.relative_spread(90.0, 110.0, 100.0, runs=3) == 0.2
    assert noise.relative_spread(100.0, 100.0, 100.0, runs=1) is None


def test_a_row_is_judged_by_its_groups_margin_or_its_own_runs_where_wider():
    from types import SimpleNamespace

    from benchmarks.selectors.answer.standing import stand

    measured = noise.measure(
        repeated([(100.0, 100.5)] * 60, vendor="aws")
        + repeated([(100.0, 130.0)] * 60, vendor="azure")
    )

    def row(name, per_dollar, vendor, runs=1, low=None, high=None):
        return SimpleNamespace(
            instance_type=name, family=name.split(".")[0], per_dollar=per_dollar,
            median=per_dollar, runs=runs, min=low or per_dollar, max=high or per_dollar,
            vendor=vendor, cpu_allocation="dedicated", spread=None, tie_margin=None,
            interval=None, per_dollar_interval=None, rank=None, rank_range=None,
        )  # fmt: skip

    rows = [
        row("c7g.large", 110.0, "aws"),
        row("c7a.large", 100.0, "aws"),
        row("D2s.v5", 95.0, "azure"),
        row("cx22.x", 90.0, "aws", runs=2, low=78.0, high=102.0),
    ]
    standing = stand(rows, measured)
    # AWS's 0.5% margin: c7g's 10% lead over c7a is beyond it; Azure's 30% and cx22's own
    # 31% hold D2s and cx22 level with both.
    assert [r.rank_range for r in rows] == [[1, 3], [2, 4], [1, 4], [1, 4]]
    assert rows[0].tie_margin == pytest.approx(0.005, abs=2e-6)
    assert rows[3].tie_margin == pytest.approx(102 / 78 - 1, abs=1e-6)
    assert standing.tied is False and standing.best_family.margin == pytest.approx(0.005, abs=2e-6)
    # Intervals: AWS's 90% quantile either side, and cx22's own runs covered.
    assert rows[1].interval["low"] == pytest.approx(100 / 1.005, rel=1e-5)
    assert rows[1].interval["high"] == pytest.approx(100.5, rel=1e-5)
    assert rows[3].interval == {"low": 78.0, "high": 102.0, "level": 0.9}
    assert rows[3].per_dollar_interval == {"low": 78.0, "high": 102.0, "level": 0.9}


def test_a_lower_is_better_figure_swaps_its_per_dollar_bounds():
    from types import SimpleNamespace

    from benchmarks.selectors.answer.standing import stand

    measured = noise.measure(repeated([(100.0, 110.0)] * 60))
    # 2 seconds a job at $1 an hour: 1,800 jobs per dollar.
    timed = SimpleNamespace(
        instance_type="c7g.large", family="c7g", per_dollar=1800.0, median=2.0, runs=1,
        min=2.0, max=2.0, vendor="aws", cpu_allocation="dedicated", spread=None,
        tie_margin=None, interval=None, per_dollar_interval=None, rank=None, rank_range=None,
    )  # fmt: skip
    stand([timed], measured, higher_is_better=False)
    assert timed.interval["high"] == pytest.approx(2.2, rel=1e-4)
    # Slower (2.2 s) buys fewer jobs: the per-dollar low comes from the figure's high.
    assert timed.per_dollar_interval["low"] == pytest.approx(1800 / 1.1, rel=1e-4)
    assert timed.per_dollar_interval["high"] == pytest.approx(1800 * 1.1, rel=1e-4)


def test_an_estimates_interval_covers_how_far_its_sources_disagree():
    from types import SimpleNamespace

    from benchmarks.selectors.answer.standing import stand

    measured = noise.measure(repeated([(100.0, 101.0)] * 60))
    estimated = SimpleNamespace(
        instance_type="fargate-2vcpu-4gb", family="fargate", per_dollar=200.0, median=100.0,
        runs=0, min=100.0, max=100.0, vendor="aws", cpu_allocation="dedicated", spread=None,
        tie_margin=None, interval=None, per_dollar_interval=None, rank=None, rank_range=None,
        estimate={"sources_range": {"low": 90.0, "high": 104.0}},
    )  # fmt: skip
    stand([estimated], measured)
    assert estimated.interval == {"low": 90.0, "high": 104.0, "level": 0.9}
    assert estimated.per_dollar_interval == {"low": 180.0, "high": 208.0, "level": 0.9}


def test_each_parameter_set_keeps_its_own_distribution():
    one = [replace(f, params_key='{"workers":1}') for f in repeated([(100.0, 100.2)] * 60)]
    many = [
        replace(f, params_key='{"workers":64}', series_id=f.series_id + 100)
        for f in repeated([(100.0, 120.0)] * 60)
    ]
    thin = [
        replace(f, params_key='{"workers":2}', series_id=f.series_id + 200)
        for f in repeated([(100.0, 100.1)] * 10)
    ]
    measured = noise.measure(one + many + thin)
    assert set(measured.by_params) == {'{"workers":1}', '{"workers":64}', '{"workers":2}'}
    assert measured.reach("aws", "dedicated", '{"workers":1}')[0] == pytest.approx(0.002, abs=1e-5)
    assert measured.reach("aws", "dedicated", '{"workers":64}')[0] == pytest.approx(0.2, abs=2e-4)
    # Ten pairs at 2 workers say little: the wider of theirs and the benchmark's.
    assert measured.reach("aws", "dedicated", '{"workers":2}') == (
        measured.tie_margin, measured.interval
    )  # fmt: skip
    # Parameters no set was measured with: the benchmark's groups.
    assert measured.reach("aws", "dedicated", '{"workers":8}') == measured.reach("aws", "dedicated")
    assert "and for each of 3 parameter sets" in measured.method
    assert "by_params" not in measured.in_answer()
    assert Noise.from_dict(measured.as_dict()) == measured


def test_a_row_is_judged_by_its_parameter_sets_distribution_first():
    from types import SimpleNamespace

    from benchmarks.selectors.answer.standing import stand

    one = [replace(f, params_key='{"workers":1}') for f in repeated([(100.0, 100.2)] * 60)]
    many = [
        replace(f, params_key='{"workers":64}', series_id=f.series_id + 100)
        for f in repeated([(100.0, 120.0)] * 60)
    ]
    measured = noise.measure(one + many)

    def row(name, per_dollar, params):
        return SimpleNamespace(
            instance_type=name, family=name.split(".")[0], per_dollar=per_dollar,
            median=per_dollar, runs=1, min=per_dollar, max=per_dollar, vendor="aws",
            cpu_allocation="dedicated", params_key=params, spread=None, tie_margin=None,
            interval=None, per_dollar_interval=None, rank=None, rank_range=None,
        )  # fmt: skip

    quiet = [row("c7g.large", 101.0, '{"workers":1}'), row("c7a.large", 100.0, '{"workers":1}')]
    loud = [row("c7g.large", 101.0, '{"workers":64}'), row("c7a.large", 100.0, '{"workers":64}')]
    assert stand(quiet, measured).tied is False and quiet[0].tie_margin == pytest.approx(0.002)
    assert stand(loud, measured).tied is True and loud[0].tie_margin == pytest.approx(0.2)
    assert loud[0].interval["high"] == pytest.approx(101.0 * 1.2, rel=1e-5)
