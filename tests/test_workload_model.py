"""The workload model (benchmarks/workload/model.py): pure, on made-up benchmark vectors."""

import json
import math

import numpy as np

from benchmarks.workload import model
from tests.workload_matrices import vectors as _vectors


def _three_benchmarks(types=12, seed=1):
    rng = np.random.default_rng(seed)
    return rng.normal(0, 0.6, size=(types, 3))


def test_nnls_learns_a_mix_of_two_benchmarks_and_predicts_the_other_types():
    logs = _three_benchmarks()
    truth = 1.0 + 0.5 * logs[:, 0] + 0.5 * logs[:, 1]
    vectors = _vectors(logs)
    given = [0, 1, 2, 3, 4, 5]
    # `bayes` (the default) averages benchmarks each moving as the figures do, not halves.
    chosen = model.choose(vectors, given, truth[given], methods=("nnls",))
    weights = dict(zip(chosen.fit.columns, chosen.fit.weights, strict=True))
    assert weights.get(0, 0) + weights.get(1, 0) > 0.8 * sum(weights.values())
    predicted = model.predict_all(vectors, chosen, given, truth[given])
    errors = [abs(p.log - t) for p, t in zip(predicted, truth, strict=True)]
    assert max(errors) < 0.2
    assert chosen.check.median_error is not None and chosen.check.median_error < 0.2


def test_two_figures_are_fitted_by_the_most_proportional_benchmark():
    logs = _three_benchmarks()
    truth = 0.3 + logs[:, 2]
    chosen = model.choose(_vectors(logs), [0, 1], truth[[0, 1]])
    assert chosen.fit.method == "ratio"
    assert chosen.fit.columns == [2]
    assert math.isclose(chosen.fit.intercept, 0.3)


def test_excluded_columns_are_never_used():
    logs = _three_benchmarks()
    truth = logs[:, 0]
    excluded = np.array([True, False, False])
    chosen = model.choose(_vectors(logs), [0, 1, 2, 3, 4], truth[:5], excluded=excluded)
    assert 0 not in chosen.fit.columns
    assert 0 not in chosen.candidates


def test_a_type_without_the_chosen_benchmark_falls_back_with_a_wider_interval_or_none():
    logs = _three_benchmarks()
    truth = logs[:, 0]
    # Benchmark 1 moves nearly like 0: a fallback worth its interval.
    logs[:, 1] = logs[:, 0] + np.random.default_rng(2).normal(0, 0.05, len(logs))
    logs[10, 0] = np.nan  # has benchmarks 1 and 2 only
    logs[11, :] = np.nan  # has nothing
    vectors = _vectors(logs)
    given = [0, 1, 2, 3, 4, 5]
    chosen = model.choose(vectors, given, truth[given])
    assert chosen.fit.columns == [0]
    predicted = model.predict_all(vectors, chosen, given, truth[given])
    assert predicted[11] is None
    assert predicted[10] is not None and predicted[10].columns != [0]
    assert predicted[10].reach > predicted[9].reach


def test_the_interval_reaches_at_least_the_benchmarks_noise():
    logs = _three_benchmarks()
    truth = logs[:, 0]
    vectors = _vectors(logs, reaches=[0.3, 0.3, 0.3])
    chosen = model.choose(vectors, [0, 1, 2, 3, 4], truth[:5])
    assert chosen.reach >= math.log1p(0.3) - 1e-9


def test_no_benchmark_on_every_given_type_is_not_enough():
    logs = _three_benchmarks()
    logs[0, :] = np.nan
    try:
        model.choose(_vectors(logs), [0, 1, 2], [1.0, 2.0, 3.0])
    except model.NotEnough:
        return
    raise AssertionError("expected NotEnough")


def test_a_held_out_tool_is_predicted_from_the_others_only():
    from benchmarks.workload import validation

    rng = np.random.default_rng(3)
    base = rng.normal(0, 0.6, size=(60, 1))
    logs = np.hstack([base, base + rng.normal(0, 0.02, size=(60, 1)), rng.normal(0, 0.6, (60, 1))])
    vectors = _vectors(logs)
    case = validation.hold_out(vectors, ["held", "kin", "other"], "held", np.ones(60, bool))
    assert not case.leaked and 0 not in case.used
    assert case.used == [1]
    assert case.predictions == 55 and case.median_error < 0.05
    assert validation.summary([case])["cases"] == 1


def test_a_fallback_that_predicts_the_figures_poorly_predicts_nothing():
    logs = _three_benchmarks()
    truth = logs[:, 0]
    logs[10, 0] = logs[10, 1] = np.nan  # only benchmark 2, which moves unlike the figures
    vectors = _vectors(logs)
    given = [0, 1, 2, 3, 4, 5]
    chosen = model.choose(vectors, given, truth[given])
    assert model.predict_all(vectors, chosen, given, truth[given])[10] is None


def test_the_figures_every_answer_quotes_are_the_documented_tables():
    from pathlib import Path

    from benchmarks.workload import validation

    kept = json.loads(validation.HELD_OUT_FILE.read_text())
    docs = (Path(__file__).parents[1] / "docs" / "workload.md").read_text()
    assert f"\n{validation.overall_line(kept)} (" in docs
    assert validation.held_out() == {name: kept[name] for name in validation.QUOTED}
    assert kept["level"] == model.LEVEL
