"""The workload model: which stored benchmarks move like a buyer's figures, and what they predict.

Pure: benchmark vectors and the buyer's figures in, a fitted model, its leave-one-out check and
predictions with 90% intervals out; no ORM. Everything is in log space, each figure turned so
that higher is better (a time's log is negated): a workload that runs twice as fast on one type
moves its log by the same amount whatever its unit.

Four methods, each judged by leave-one-out on the given figures (every step, the choice of
benchmarks included, repeated without the figure left out), the one with the smallest median
error kept, the simplest on a tie:

- `ratio`: the one benchmark whose figures are closest to proportional to the buyer's
  (log y = c + log x): one parameter, the most a pair of figures can fit.
- `single`: the benchmark that correlates best, with a free non-negative slope (log-log).
- `nnls`: a non-negative mix of the CANDIDATES best-correlated benchmarks (scipy's nnls on
  centred logs, a small ridge so that five figures do not pick noise): a workload that is
  part memory bandwidth, part integer throughput is a sum of both, never a difference.
- `bayes`: every benchmark proportional to the figures (as `ratio`), averaged with the
  weights Bayes' rule gives them (benchmarks/workload/bayes.py): no one benchmark picked by
  chance among thousands.

A type lacking one of the chosen benchmarks is predicted by the best-correlated single
benchmark it has (its own leave-one-out error widening its interval), or not at all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import nnls
from scipy.stats import norm
from scipy.stats import t as student_t

from benchmarks.workload import bayes

METHODS = ("ratio", "single", "nnls", "bayes")
# The method every answer uses: choosing among the four by leave-one-out on five figures
# picked by chance as well (docs/workload.md, "Tried and not kept").
CHOSEN = ("bayes",)
# Benchmarks offered to the mix: the best-correlated few (more would fit five figures exactly).
CANDIDATES = 6
# The ridge added to the mix's least squares, per figure (on centred logs).
RIDGE = 0.002
# A benchmark in the mix below this share of the weights is dropped.
SMALLEST_WEIGHT = 0.02
# Fallbacks tried, best-correlated first, for a type that lacks a chosen benchmark (only
# those that predict a type the ones before could not are fitted).
FALLBACKS = 200
LEVEL = 0.9
# A 90% interval's reach (in log) is Student's t quantile (n - 1 degrees of freedom for n
# leave-one-out errors) x their root mean square, at least the benchmarks' own noise: a
# handful of errors understates a new one's spread, and t says by how much (2.13 for five
# figures; docs/workload.md compares it with fixed factors).
# A standard deviation's multiple a two-sided LEVEL interval reaches (1.645).
NORMAL = float(norm.ppf((1 + LEVEL) / 2))
# No interval narrower than this reach (ratio - 1): the buyer's own figure has noise too.
FLOOR = 0.05
# A fallback's interval is widened by this factor over its own leave-one-out reach.
FALLBACK_WIDEN = 1.5
# A fallback whose 90% interval would reach beyond this (log: half to twice the figure)
# predicts nothing: a type it alone could predict is listed as not predicted instead.
FALLBACK_MOST = math.log(2.0)


@dataclass(frozen=True)
class Vectors:
    """Benchmark figures over types: `logs[type, column]` (higher is better; NaN: none)."""

    types: Sequence  # any hashable per row (an instance type id)
    columns: Sequence  # any per column ((benchmark key, params key))
    logs: np.ndarray
    # Each column's noise: its 90% interval reach (ratio - 1), for the intervals' floor.
    reaches: np.ndarray
    # Each column's benchmark, for `bayes`' prior (None: each column its own).
    groups: np.ndarray | None = None

    def groups_of(self) -> np.ndarray:
        return np.arange(len(self.columns)) if self.groups is None else np.asarray(self.groups)

    def index_of(self) -> dict:
        return {value: position for position, value in enumerate(self.types)}


@dataclass
class Fit:
    """One fitted model: columns with weights (non-negative) and an intercept, in log space;
    `bayes`' an average instead: each column plus its offset, and the intercept alone (the
    same figure on every type) with the weight `constant` (weights summing to 1)."""

    method: str
    columns: list[int]
    weights: list[float]
    intercept: float
    offsets: list[float] | None = None
    constant: float = 0.0
    # `bayes`: each column's slope (bayes.SLOPES).
    slopes: list[float] | None = None

    def predict(self, rows: np.ndarray) -> np.ndarray:
        """Log predictions for rows of the columns (NaN where a row lacks one; `bayes`: where
        those it has hold less than half the weight)."""
        if self.offsets is not None:
            return bayes.average(self._hypotheses(rows), self._shares())
        return self.intercept + rows[:, self.columns] @ np.asarray(self.weights)

    def disagreement(self, rows: np.ndarray) -> np.ndarray:
        """How far `bayes`' hypotheses part on each row: their weighted standard deviation
        (log; 0 for one fitted model)."""
        if self.offsets is None:
            return np.zeros(len(rows))
        return bayes.spread(self._hypotheses(rows), self._shares())

    def _hypotheses(self, rows: np.ndarray) -> np.ndarray:
        values = rows[:, self.columns] * np.asarray(self.slopes) + np.asarray(self.offsets)
        return np.hstack([values, np.full((len(rows), 1), self.intercept)])

    def _shares(self) -> np.ndarray:
        return np.asarray([*self.weights, self.constant])


@dataclass
class Check:
    """Leave-one-out on the given figures: each figure's log error, and whether its interval
    (drawn without it) held it."""

    errors: list[float] = field(default_factory=list)
    covered: list[bool] = field(default_factory=list)

    @property
    def median_error(self) -> float | None:
        """The median of |predicted / measured - 1|."""
        if not self.errors:
            return None
        return float(np.median([abs(math.exp(error) - 1) for error in self.errors]))

    @property
    def rms(self) -> float:
        return float(np.sqrt(np.mean(np.square(self.errors)))) if self.errors else math.inf


@dataclass
class Prediction:
    """One type's predicted figure (log, higher is better) and its interval's reach (log)."""

    log: float
    reach: float
    # The columns it was predicted from (the model's, or a fallback's one).
    columns: list[int]


@dataclass
class Model:
    """The chosen fit, its leave-one-out check, and each method's for comparison."""

    fit: Fit
    check: Check
    reach: float
    compared: dict[str, Check]
    candidates: list[int]


class NotEnough(ValueError):
    """The figures cannot be fitted (too few types with benchmark figures)."""


def usable_columns(logs: np.ndarray, given: np.ndarray, excluded: np.ndarray) -> np.ndarray:
    """Columns with a figure on every given type that move across them and are not excluded."""
    rows = logs[given]
    finite = np.isfinite(rows).all(axis=0) & ~excluded
    moving = np.zeros_like(finite)
    moving[finite] = np.ptp(rows[:, finite], axis=0) > 1e-9
    return np.flatnonzero(finite & moving)


def _correlations(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    xc = x - x.mean(axis=0)
    yc = y - y.mean()
    denominator = np.sqrt((xc**2).sum(axis=0) * (yc**2).sum())
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (xc * yc[:, None]).sum(axis=0) / denominator, -1.0)


def fit(
    method: str,
    x: np.ndarray,
    y: np.ndarray,
    columns: np.ndarray,
    groups: np.ndarray | None = None,
) -> Fit:
    """Fit `method` to rows `x` (given types x all columns) and figures `y`, from `columns`
    (`groups`: every column's benchmark, for `bayes`' prior)."""
    sub = x[:, columns]
    if method == "bayes":
        groups = np.arange(x.shape[1]) if groups is None else groups
        offsets, weights, constant = bayes.weigh(sub, y, groups[columns])
        # Heaviest first: the answer names them in that order (a column once per slope).
        kept = [i for i in np.argsort(-weights, kind="stable") if weights[i] > 0]
        width = len(columns)
        return Fit(
            "bayes",
            [int(columns[i % width]) for i in kept],
            list(map(float, weights[kept])),
            float(y.mean()),
            list(map(float, offsets[kept])),
            constant,
            [bayes.SLOPES[i // width] for i in kept],
        )
    if method == "ratio":
        # The column closest to proportional: the smallest spread of log y - log x.
        spread = ((y[:, None] - sub) - (y[:, None] - sub).mean(axis=0)) ** 2
        best = int(np.argmin(spread.sum(axis=0)))
        return Fit("ratio", [int(columns[best])], [1.0], float((y - sub[:, best]).mean()))
    order = np.argsort(-_correlations(sub, y), kind="stable")
    if method == "single":
        best = int(order[0])
        return _least_squares("single", sub[:, [best]], y, [int(columns[best])])
    chosen = order[:CANDIDATES]
    return _least_squares("nnls", sub[:, chosen], y, [int(columns[i]) for i in chosen])


def _least_squares(method: str, sub: np.ndarray, y: np.ndarray, columns: list[int]) -> Fit:
    """Non-negative weights on centred logs, with a small ridge; the intercept from the means."""
    means, mean_y = sub.mean(axis=0), y.mean()
    centred, target = sub - means, y - mean_y
    width = centred.shape[1]
    ridge = math.sqrt(RIDGE * len(y))
    design = np.vstack([centred, ridge * np.eye(width)])
    weights, _ = nnls(design, np.concatenate([target, np.zeros(width)]))
    total = weights.sum()
    keep = weights > SMALLEST_WEIGHT * total if total > 0 else np.zeros(width, bool)
    if not keep.any():
        # Nothing moves with the figures: a constant (the mean) is the honest fit.
        keep[0] = True
        weights[0] = 0.0
    weights = weights[keep]
    intercept = float(mean_y - means[keep] @ weights)
    return Fit(
        method,
        [c for c, k in zip(columns, keep, strict=True) if k],
        list(map(float, weights)),
        intercept,
    )


def methods_for(figures: int) -> tuple[str, ...]:
    """Methods a leave-one-out can judge with this many figures (each fit needs its rows)."""
    if figures >= 5:
        return METHODS
    if figures >= 3:
        return ("ratio", "single", "bayes")
    # Two figures: one constant is all a pair can fit, and one figure left out judges nothing.
    return ("ratio",)


def leave_one_out(
    method: str,
    x: np.ndarray,
    y: np.ndarray,
    columns: np.ndarray,
    groups: np.ndarray | None = None,
) -> Check:
    """Each figure predicted by `method` fitted (benchmarks chosen again) without it."""
    check = Check()
    count = len(y)
    for left in range(count):
        kept = np.arange(count) != left
        one = fit(method, x[kept], y[kept], columns, groups)
        check.errors.append(float(one.predict(x[[left]])[0] - y[left]))
    return check


def reach_of(check: Check, noise: float) -> float:
    """A prediction's 90% reach in log: t x the leave-one-out RMS, at least the noise."""
    return max(inflation(len(check.errors)) * check.rms, noise, math.log1p(FLOOR))


def inflation(errors: int) -> float:
    """Student's t two-sided LEVEL quantile for `errors` leave-one-out errors (n - 1 freedom)."""
    return float(student_t.ppf((1 + LEVEL) / 2, max(errors - 1, 1)))


def noise_reach(vectors: Vectors, one: Fit) -> float:
    """How far the chosen benchmarks' own noise moves a prediction (log): each column's 90%
    reach weighted as the model weighs it."""
    return float(
        sum(
            w * math.log1p(vectors.reaches[c])
            for c, w in zip(one.columns, one.weights, strict=True)
        )
    )


def choose(
    vectors: Vectors,
    given: Sequence[int],
    y: Sequence[float],
    *,
    excluded: np.ndarray | None = None,
    methods: Sequence[str] | None = None,
) -> Model:
    """The model for figures `y` (log, higher is better) on rows `given` of `vectors`."""
    given = np.asarray(given)
    y = np.asarray(y, dtype=float)
    if excluded is None:
        excluded = np.zeros(len(vectors.columns), bool)
    columns = usable_columns(vectors.logs, given, excluded)
    if len(columns) == 0:
        raise NotEnough("no stored benchmark has figures on every given type")
    x = vectors.logs[given]
    groups = vectors.groups_of()
    compared = {
        method: leave_one_out(method, x, y, columns, groups)
        for method in [m for m in (methods or CHOSEN) if m in methods_for(len(y))] or ["ratio"]
    }
    best = min(compared, key=lambda m: (compared[m].median_error, METHODS.index(m)))
    chosen = fit(best, x, y, columns, groups)
    check = compared[best]
    reach = reach_of(check, noise_reach(vectors, chosen))
    for error in check.errors:
        check.covered.append(abs(error) <= reach)
    order = np.argsort(-_correlations(x[:, columns], y), kind="stable")
    return Model(chosen, check, reach, compared, [int(columns[i]) for i in order[:FALLBACKS]])


def predict_all(vectors: Vectors, model: Model, given: Sequence[int], y: Sequence[float]):
    """Every type's prediction: the model's where a type has its benchmarks, else the first
    fallback benchmark it has (a `single` fit on the given figures, a wider interval, at most
    FALLBACK_MOST); None where it has none."""
    logs = vectors.logs
    predicted: list[Prediction | None] = [None] * len(vectors.types)
    main = model.fit.predict(logs)
    # Where the averaged hypotheses part (a type far from the given ones), the interval
    # widens by their spread: the average's variance is the hypotheses' own (the
    # leave-one-out reach) plus their disagreement, added in quadrature.
    apart = NORMAL * model.fit.disagreement(logs)
    for row in np.flatnonzero(np.isfinite(main)):
        reach = float(np.hypot(model.reach, apart[row]))
        predicted[row] = Prediction(float(main[row]), reach, model.fit.columns)
    missing = np.array([p is None for p in predicted])
    x, y = logs[np.asarray(given)], np.asarray(y, dtype=float)
    for column in model.candidates:
        if not missing.any():
            break
        have = missing & np.isfinite(logs[:, column])
        if not have.any():
            continue
        columns = np.array([column])
        one = fit("single", x, y, columns) if len(y) >= 3 else fit("ratio", x, y, columns)
        check = leave_one_out(one.method, x, y, columns) if len(y) >= 3 else Check()
        reach = max(FALLBACK_WIDEN * reach_of(check, noise_reach(vectors, one)), model.reach)
        if reach > FALLBACK_MOST:
            continue
        values = one.predict(logs[have])
        for row, value in zip(np.flatnonzero(have), values, strict=True):
            predicted[row] = Prediction(float(value), reach, [column])
        missing &= ~have
    return predicted
