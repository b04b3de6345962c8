"""How much one run of a benchmark varies, and what that makes of ranks and leads.

Pure: figures in, noise and decisions out; no ORM. The measurement (docs/noise.md):

- Runs repeated on one type (a series with several runs) should give one figure: each run's
  deviation from its series' median is noise.
- Types with the same processor and the same number of vCPUs (c7g.xlarge, m7g.xlarge and
  r7g.xlarge, all four Neoverse-V1 vCPUs) should give one figure for the same parameters:
  each type's deviation from its group's median is noise. Metal and virtualised sizes of one
  processor, other memory sizes and other clouds' machines with the processor all count: the
  buyer meets those differences too.

The deviations of every group are pooled, and the noise is their median absolute deviation
scaled to a standard deviation (x 1.4826, exact for normal noise, robust to the outliers that
metal and virtualised sizes of one processor make). Two figures differ beyond the noise when
their ratio is more than `NOISE_SIGMAS` standard deviations of a difference of two runs away
from 1: a lead inside that is a tie.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Median absolute deviation to standard deviation, for normally distributed noise.
MAD_TO_SIGMA = 1.4826
# A difference is beyond the noise past two standard deviations of the difference of two
# independent runs (sqrt(2) x one run's): about a 5% chance that noise alone makes it.
NOISE_SIGMAS = 2.0
# Fewer deviations than this measure nothing.
MINIMUM_FIGURES = 8


@dataclass(frozen=True)
class Noise:
    """One run's typical relative deviation (`relative`), measured on `series` series."""

    relative: float
    series: int
    method: str

    @property
    def margin(self) -> float:
        """The relative difference of two figures that noise alone stays within."""
        return margin(self.relative)

    def as_dict(self) -> dict:
        return {"relative": self.relative, "series": self.series, "method": self.method}

    @classmethod
    def from_dict(cls, kept: dict | None) -> Noise | None:
        if not kept or kept.get("relative") is None:
            return None
        return cls(float(kept["relative"]), int(kept["series"]), str(kept["method"]))


@dataclass(frozen=True)
class SeriesFigure:
    """One kept series as the measurement reads it."""

    params: dict
    cpu_model: str
    vcpus: float | None
    median: float
    # Every run's figure where the series has several (empty otherwise).
    runs: Sequence[float] = ()


def margin(relative: float) -> float:
    """`NOISE_SIGMAS` standard deviations of the difference of two runs of noise `relative`."""
    return NOISE_SIGMAS * math.sqrt(2) * relative


def measure(figures: Iterable[SeriesFigure]) -> Noise | None:
    """The noise of one benchmark from its series (None when too few figures agree on a
    machine to measure it)."""
    figures = [figure for figure in figures if figure.median and figure.median > 0]
    repeated = [_deviations(figure.runs) for figure in figures if len(figure.runs) >= 2]
    peers = _peer_deviations(figures)
    pooled = [value for group in repeated + peers for value in group]
    if len(pooled) < MINIMUM_FIGURES:
        return None
    relative = MAD_TO_SIGMA * statistics.median(pooled)
    used = len(repeated) + sum(len(group) for group in peers)
    parts = []
    if repeated:
        parts.append(f"{len(repeated):,} series with several runs (each run against its median)")
    if peers:
        parts.append(
            f"{sum(len(group) for group in peers):,} series in {len(peers):,} groups of types "
            f"with the same processor and vCPUs (each against its group's median)"
        )
    method = (
        "Median absolute deviation x 1.4826 of "
        + "; and ".join(parts)
        + f": {len(pooled):,} deviations."
    )
    return Noise(relative=float(f"{relative:.4g}"), series=used, method=method)


def _deviations(values: Sequence[float]) -> list[float]:
    middle = statistics.median(values)
    return [abs(value / middle - 1) for value in values] if middle > 0 else []


def _peer_deviations(figures: list[SeriesFigure]) -> list[list[float]]:
    """Each figure against the median of the types with its processor and vCPUs, for each
    parameter set (groups of one type measure nothing)."""
    groups: dict[tuple, list[float]] = defaultdict(list)
    # Figures of one parameter set often share its dict (statistics/noise.py): keyed once.
    keys: dict[int, tuple] = {}
    for figure in figures:
        if figure.cpu_model and figure.vcpus:
            params_key = keys.get(id(figure.params))
            if params_key is None:
                params_key = keys[id(figure.params)] = _params_key(figure.params)
            key = (params_key, figure.cpu_model, figure.vcpus)
            groups[key].append(figure.median)
    deviations = [_deviations(values) for values in groups.values() if len(values) >= 2]
    return [group for group in deviations if group]


def _params_key(params: dict) -> tuple:
    return tuple(sorted((name, str(value)) for name, value in params.items()))


def beyond(better: float, worse: float, noise: Noise | None) -> bool:
    """Whether `better` leads `worse` by more than noise makes (with no noise measured, any
    lead counts)."""
    if worse <= 0:
        return better > 0
    lead = better / worse - 1
    return lead > (noise.margin if noise else 0.0)


def rank_ranges(figures: Sequence[float], noise: Noise | None) -> list[tuple[int, int]]:
    """For figures in rank order (best first, higher is better), the ranks each could take:
    from one after the figures clearly above it to the count of those not clearly below it."""
    if not figures:
        return []
    factor = 1 + (noise.margin if noise else 0.0)
    ascending = sorted(figures)
    count = len(figures)
    ranges = []
    for figure in figures:
        # Clearly above: other > figure x factor; not clearly below: other x factor >= figure.
        above = count - bisect.bisect_right(ascending, figure * factor)
        below = bisect.bisect_left(ascending, figure / factor)
        ranges.append((above + 1, count - below))
    return ranges


def relative_spread(minimum: float, maximum: float, median: float, runs: int) -> float | None:
    """The spread of a row's own runs, (max - min) / median; None with one run."""
    if runs < 2 or not median:
        return None
    return round((maximum - minimum) / abs(median), 6)
