"""How much one run varies, and what it makes of ranks and leads (benchmarks/noise.py)."""

import math

import pytest

from benchmarks import noise
from benchmarks.noise import Noise, SeriesFigure

# Spare Cores' openssl:aes-256-cbc at 8192-byte blocks, one process per vCPU (B/s).
GRAVITON3_FOUR_VCPUS = {"c7g.xlarge": 5824703146.66, "m7g.xlarge": 5824653994.66,
                        "r7g.xlarge": 5832892416.0}  # fmt: skip
GRAVITON3_EIGHT_VCPUS = {"c7g.2xlarge": 11678460586.68, "m7g.2xlarge": 11677952682.66,
                         "r7g.2xlarge": 11663927978.67}  # fmt: skip


def figures(values: dict[str, float], vcpus: float, cpu: str = "Neoverse-V1", **params):
    return [
        SeriesFigure(params=params, cpu_model=cpu, vcpus=vcpus, median=v) for v in values.values()
    ]


def test_types_with_one_processor_and_as_many_vcpus_measure_the_noise():
    measured = noise.measure(
        figures(GRAVITON3_FOUR_VCPUS, 4, block_size=8192, processes=4)
        + figures(GRAVITON3_EIGHT_VCPUS, 8, block_size=8192, processes=8)
        + figures({"a": 100.0, "b": 104.0}, 2, cpu="AMD EPYC 9R14", block_size=8192)
    )
    deviations = [
        *(abs(v / 5824703146.66 - 1) for v in GRAVITON3_FOUR_VCPUS.values()),
        *(abs(v / 11677952682.66 - 1) for v in GRAVITON3_EIGHT_VCPUS.values()),
        0.02, 0.02,
    ]  # fmt: skip
    deviations.sort()
    expected = 1.4826 * (deviations[3] + deviations[4]) / 2
    assert measured.relative == pytest.approx(expected, rel=1e-3)
    assert measured.series == 8
    assert "3 groups of types with the same processor and vCPUs" in measured.method


def test_a_type_alone_with_its_processor_and_vcpus_measures_nothing():
    alone = [
        SeriesFigure(params={}, cpu_model=f"cpu {n}", vcpus=2, median=100.0 + n) for n in range(20)
    ]
    assert noise.measure(alone) is None


def test_repeated_runs_of_a_series_count_each_run_against_its_median():
    series = [
        SeriesFigure(
            params={"n": n}, cpu_model="", vcpus=2, median=100.0, runs=(99.0, 100.0, 103.0)
        )
        for n in range(3)
    ]
    measured = noise.measure(series)
    # Deviations 0.01, 0, 0.03 three times: median 0.01.
    assert measured.relative == 0.01483
    assert measured.method.startswith("Median absolute deviation x 1.4826 of 3 series with several")


def test_figures_of_other_parameter_sets_are_not_grouped_together():
    mixed = figures({"a": 100.0, "b": 100.0}, 2, block_size=16) + figures(
        {"c": 300.0, "d": 300.0}, 2, block_size=8192
    )
    assert noise.measure(mixed * 2).relative == 0.0


def test_the_margin_is_two_standard_deviations_of_a_difference_of_two_runs():
    assert noise.margin(0.01) == pytest.approx(2 * math.sqrt(2) * 0.01)


def test_a_lead_counts_only_beyond_the_noise():
    measured = Noise(relative=0.01, series=10, method="m")
    assert not noise.beyond(102.0, 100.0, measured)
    assert noise.beyond(103.0, 100.0, measured)
    assert noise.beyond(100.1, 100.0, None)


def test_rank_ranges_hold_the_ranks_a_figure_could_take_within_the_noise():
    measured = Noise(relative=0.01, series=10, method="m")
    # 2.83% margin: 100 and 98 are indistinguishable, 90 is clearly below both, 89.5 is not
    # clearly below 90.
    ranges = noise.rank_ranges([100.0, 98.0, 90.0, 89.5], measured)
    assert ranges == [(1, 2), (1, 2), (3, 4), (3, 4)]
    assert noise.rank_ranges([100.0, 98.0, 90.0], None) == [(1, 1), (2, 2), (3, 3)]


def test_the_spread_of_a_rows_runs_needs_two_runs():
    assert noise.relative_spread(90.0, 110.0, 100.0, runs=3) == 0.2
    assert noise.relative_spread(100.0, 100.0, 100.0, runs=1) is None


def test_noise_is_kept_as_a_plain_dict_and_read_back():
    measured = Noise(relative=0.004352, series=13926, method="m")
    assert Noise.from_dict(measured.as_dict()) == measured
    assert Noise.from_dict(None) is None
