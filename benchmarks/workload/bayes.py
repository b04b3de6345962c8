"""The workload model's `bayes` method: every stored benchmark proportional to the buyer's
figures, averaged with the weights Bayes' rule gives them.

Pure (numpy). Five figures cannot pick one benchmark among thousands: a few correlate with
any five figures by chance (picking the best-correlated one missed geekbench by 42% and
passmark by 49% on the full demo, docs/workload.md). Here each benchmark is a hypothesis,
"the workload moves as this benchmark does, times a constant" (log y = c + log x, the `ratio`
method's model, one free constant), and the prediction is the average of every hypothesis'
prediction weighted by how likely each makes the figures:

- prior: each benchmark the same share, split evenly among its parameter sets (a benchmark
  stored with 300 parameter sets is not 300 times as likely as one stored with one), and one
  more hypothesis with a benchmark's share: the figure is the same on every type (a
  compression ratio, a latency no processor moves), predicted by the figures' mean;
- likelihood: the figures' spread around the hypothesis (log y - log x minus its mean) as
  Gaussian with one variance shared by every hypothesis, the constant integrated out
  (n - 1 degrees of freedom for n figures);
- that variance: the one under which the figures are most likely over all hypotheses
  together (empirical Bayes, on a grid from 1% to 100% in log).

A type lacking some averaged benchmarks is predicted from those it has, their weights taken
anew, when they hold at least HALF of the weight; otherwise the model predicts nothing there
(the fallback does, model.predict_all).
"""

from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

# The shared variance's grid (log-space variance): a standard deviation of 1% to 100%.
VARIANCES = 10.0 ** np.arange(-4.0, 0.001, 0.05)
# Hypotheses holding less than this share of the weight are dropped (and the rest rescaled):
# they move no prediction by a noticeable amount, and the answer lists what it learned from.
SMALLEST_SHARE = 0.005
# A type is predicted only from benchmarks holding at least this share of the weight.
HALF = 0.5
# Each benchmark's hypotheses: the workload's log moves this many times the benchmark's.
SLOPES = (1.0,)


def prior(groups: np.ndarray) -> np.ndarray:
    """Each group (a benchmark) the same share, split evenly among its columns."""
    _, inverse, counts = np.unique(groups, return_inverse=True, return_counts=True)
    shares = 1.0 / counts[inverse]
    return shares / shares.sum()


def weigh(sub: np.ndarray, y: np.ndarray, groups: np.ndarray):
    """Each column's (of `sub`: given types x columns, logs) offset and posterior weight for
    figures `y` (logs), and the weight of the same figure on every type; `groups` names each
    column's benchmark for the prior."""
    # The constant hypothesis is a column of zeros in a group of its own.
    codes = np.tile(np.unique(groups, return_inverse=True)[1], len(SLOPES))
    sub = np.hstack([slope * sub for slope in SLOPES] + [np.zeros((len(y), 1))])
    codes = np.append(codes, codes.max(initial=-1) + 1)
    residual = y[:, None] - sub
    offsets = residual.mean(axis=0)
    spread = ((residual - offsets) ** 2).sum(axis=0)
    log_prior = np.log(prior(codes))
    freedom = len(y) - 1
    # Log likelihood of every column under every variance (rows: variances).
    likelihood = -0.5 * (
        spread[None, :] / VARIANCES[:, None] + freedom * np.log(VARIANCES)[:, None]
    )
    evidence = logsumexp(likelihood + log_prior, axis=1)
    chosen = likelihood[int(np.argmax(evidence))] + log_prior
    weights = np.exp(chosen - chosen.max())
    weights /= weights.sum()
    keep = weights >= SMALLEST_SHARE
    weights = np.where(keep, weights, 0.0)
    weights /= weights.sum()
    return offsets[:-1], weights[:-1], float(weights[-1])


def average(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's weighted mean of its finite `values` (rows x columns), its weights taken
    anew over the columns it has; NaN where those hold less than HALF of the weight."""
    have = np.isfinite(values)
    held = np.where(have, weights, 0.0)
    mass = held.sum(axis=1)
    total = (np.where(have, values, 0.0) * held).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(mass >= HALF, total / mass, np.nan)


def spread(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each row's weighted standard deviation of its finite `values` about their `average`
    (0 where there is none to take)."""
    mean = average(values, weights)
    have = np.isfinite(values)
    held = np.where(have, weights, 0.0)
    mass = held.sum(axis=1)
    squares = np.where(have, (values - mean[:, None]) ** 2, 0.0) * held
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = squares.sum(axis=1) / mass
    return np.sqrt(np.where(np.isfinite(variance), variance, 0.0))
