"""The workload model's `bayes` method (benchmarks/workload/bayes.py): every benchmark
proportional to the figures, averaged by the weights Bayes' rule gives them; on made-up
vectors."""

import math

import numpy as np

from benchmarks.workload import bayes, model
from tests.workload_matrices import vectors as _vectors


def _many(types=40, columns=200, seed=5):
    """Many benchmarks moving independently: five figures fit a few of them by chance."""
    return np.random.default_rng(seed).normal(0, 0.5, size=(types, columns))


def test_the_benchmark_the_figures_move_with_carries_the_weight_and_predicts_the_rest():
    logs = _many()
    truth = 2.0 + logs[:, 7] + np.random.default_rng(6).normal(0, 0.02, len(logs))
    vectors = _vectors(logs)
    given = [0, 1, 2, 3, 4]
    chosen = model.choose(vectors, given, truth[given])
    assert chosen.fit.method == "bayes"
    assert chosen.fit.columns[0] == 7 and chosen.fit.weights[0] > 0.9
    predicted = model.predict_all(vectors, chosen, given, truth[given])
    others = [row for row in range(len(logs)) if row not in given]
    errors = [abs(predicted[row].log - truth[row]) for row in others]
    assert max(errors) < 0.1
    # Each interval holds its truth (the spread is 2%, the floor 5%).
    assert all(abs(predicted[row].log - truth[row]) <= predicted[row].reach for row in others)


def test_averaging_beats_the_single_best_correlated_benchmark_on_noisy_figures():
    # The workload is the mean of two benchmarks plus noise; among 200, five figures make
    # some unrelated one look best. The average over what fits stays near the truth.
    rng = np.random.default_rng(11)
    errors = {"bayes": [], "single": []}
    for _ in range(20):
        logs = rng.normal(0, 0.5, size=(40, 200))
        truth = logs[:, 0] + rng.normal(0, 0.15, 40)
        vectors = _vectors(logs)
        given = [0, 1, 2, 3, 4]
        for method in errors:
            chosen = model.choose(vectors, given, truth[given], methods=(method,))
            predicted = model.predict_all(vectors, chosen, given, truth[given])
            errors[method] += [
                abs(p.log - t) for p, t in zip(predicted[5:], truth[5:], strict=True) if p
            ]
    assert np.median(errors["bayes"]) < np.median(errors["single"])


def test_an_excluded_tools_columns_carry_no_weight():
    logs = _many(columns=20)
    truth = logs[:, 3]
    logs[:, 4] = logs[:, 3] + 0.01  # a kin of the held-out one, in another tool
    excluded = np.zeros(20, bool)
    excluded[3] = True
    chosen = model.choose(_vectors(logs), [0, 1, 2, 3, 4], truth[:5], excluded=excluded)
    assert 3 not in chosen.fit.columns
    assert chosen.fit.columns[0] == 4


def test_a_benchmark_with_many_parameter_sets_counts_as_one_in_the_prior():
    shares = bayes.prior(np.array(["a", "a", "a", "a", "b"]))
    assert math.isclose(shares[:4].sum(), shares[4])
    assert math.isclose(shares.sum(), 1.0)


def test_a_figure_the_same_on_every_type_is_predicted_as_that():
    logs = _many(columns=30)
    flat = np.full(len(logs), 1.5)
    vectors = _vectors(logs)
    chosen = model.choose(vectors, [0, 1, 2, 3, 4], flat[:5])
    assert chosen.fit.constant > 0.9
    predicted = model.predict_all(vectors, chosen, [0, 1, 2, 3, 4], flat[:5])
    assert all(abs(p.log - 1.5) < 1e-6 for p in predicted)


def test_a_type_lacking_most_of_the_weight_is_left_to_the_fallback():
    logs = _many(columns=30)
    truth = logs[:, 2]
    logs[20, 2] = np.nan  # the one benchmark the figures move with
    chosen = model.choose(_vectors(logs), [0, 1, 2, 3, 4], truth[:5])
    assert math.isnan(chosen.fit.predict(logs[[20]])[0])
    assert not math.isnan(chosen.fit.predict(logs[[21]])[0])


def test_the_average_takes_the_weights_anew_over_the_columns_a_type_has():
    values = np.array([[1.0, 3.0], [1.0, np.nan], [np.nan, 3.0]])
    averaged = bayes.average(values, np.array([0.6, 0.4]))
    assert math.isclose(averaged[0], 1.8)
    assert math.isclose(averaged[1], 1.0)
    assert math.isnan(averaged[2])  # 0.4 of the weight: under half


def test_the_interval_is_students_t_times_the_leave_one_out_spread():
    assert math.isclose(model.inflation(5), 2.1318, rel_tol=1e-3)
    check = model.Check(errors=[0.1, -0.1, 0.1, -0.1, 0.1])
    assert math.isclose(model.reach_of(check, 0.0), 2.1318 * 0.1, rel_tol=1e-3)


def test_where_the_averaged_benchmarks_part_the_interval_widens():
    # Two benchmarks fit the five figures alike and part on the other types: their
    # disagreement there widens those types' intervals, not the given types'.
    rng = np.random.default_rng(8)
    base = rng.normal(0, 0.5, 40)
    logs = np.column_stack([base, base, rng.normal(0, 0.5, 40)])
    logs[20:, 1] += np.linspace(0, 1.0, 20)  # apart beyond the given types
    given = [0, 1, 2, 3, 4]
    vectors = _vectors(logs)
    chosen = model.choose(vectors, given, base[given])
    assert sorted(chosen.fit.columns) == [0, 1]
    predicted = model.predict_all(vectors, chosen, given, base[given])
    assert predicted[39].reach > predicted[5].reach + 0.3
    assert math.isclose(predicted[5].reach, chosen.reach)


def test_the_spread_is_the_weighted_standard_deviation_over_the_columns_a_type_has():
    values = np.array([[1.0, 3.0], [1.0, np.nan]])
    spread = bayes.spread(values, np.array([0.5, 0.5]))
    assert math.isclose(spread[0], 1.0)
    assert math.isclose(spread[1], 0.0, abs_tol=1e-12)


def test_the_check_on_other_workloads_plays_each_benchmark_outside_the_table():
    from benchmarks.workload import validation

    logs = _many(types=60, columns=5)
    logs[:30, 1] = np.nan  # tool a's second benchmark on fewer types: not the table's
    vectors = _vectors(logs, groups=["a:one", "a:two", "a:two", "b:one", "b:two"])
    tools = ["a", "a", "a", "b", "b"]
    cloud = np.ones(60, bool)
    # The table plays a:one (column 0) and b:one (3); the others a:two's best-covered (2)
    # and b:two (4), each with its tool held out.
    assert validation.other_workloads(vectors, tools, cloud) == [("a", 2), ("b", 4)]
    case = validation.hold_out(vectors, tools, "a", cloud, column=2)
    assert case.column == 2 and not case.leaked


def test_the_given_types_can_be_drawn_at_random_among_the_well_covered():
    from benchmarks.workload import validation

    logs = _many(types=60, columns=5)
    logs[:10, 1:] = np.nan  # the first ten are poorly covered
    vectors = _vectors(logs)
    rows = np.arange(60)
    excluded = np.zeros(5, bool)
    drawn = validation.pick_given(vectors, 0, rows, excluded, np.random.default_rng(1))
    again = validation.pick_given(vectors, 0, rows, excluded, np.random.default_rng(1))
    assert drawn == again and len(set(drawn)) == validation.GIVEN
    assert min(drawn) >= 10
    assert drawn != validation.pick_given(vectors, 0, rows, excluded)
