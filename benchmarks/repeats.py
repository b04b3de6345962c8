"""How far a second run of one machine lands from the first: pairs of runs, the distribution of
their difference, and a check of that distribution on pairs held out of it.

Pure: pairs in, quantiles and calibration out; no ORM. A pair's difference is
`max / min - 1` of its two figures: the lead the tie rule tests two figures by, and the
distance a row's interval must reach for the second run to land inside it. The distribution is
kept as quantiles of the pairs as measured (split conformal: the ceil((n + 1) x level)-th
smallest of n), no normal errors assumed: cloud benchmarks' repeats are heavy-tailed (Spare
Cores' stress-ng:cpu: half the pairs within 0.1%, a tenth beyond 5%, a twentieth beyond 15%).

Groups: shared vCPUs are not dedicated ones, nor one vendor's hosts another's. Each vendor and
CPU allocation with at least GROUP_PAIRS pairs keeps its own distribution, then each
allocation; one with fewer (but MINIMUM_PAIRS) keeps the wider of its own and its
allocation's or the benchmark's; a machine of a group thinner still uses its allocation's or
the benchmark's, over every pair.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

# The quantiles kept, by name.
QUANTILES = {"p50": 0.5, "p90": 0.9, "p95": 0.95, "p99": 0.99}
# Two figures differ when their lead is beyond this quantile: noise alone makes a larger one
# in one pair of twenty.
TIE_QUANTILE = "p95"
# A row's interval reaches this quantile: a second run lands inside it nine times in ten.
INTERVAL_QUANTILE = "p90"
INTERVAL_LEVEL = QUANTILES[INTERVAL_QUANTILE]
# Fewer pairs than this measure nothing.
MINIMUM_PAIRS = 8
# A vendor's or an allocation's pairs count on their own from this many.
GROUP_PAIRS = 50
# Differences this close to a margin are at it: float arithmetic's error (1100 / 1000 - 1 is
# 0.10000000000000009), not a difference any run makes.
TOLERANCE = 1e-9
# Calibration goals, met by every benchmark with at least GOAL_PAIRS held-out pairs.
GOAL_PAIRS = 50
GOAL_BEYOND = 0.05
GOAL_COVERAGE = (0.85, 0.95)


@dataclass(frozen=True)
class Pair:
    """Two figures of one machine (a repeat) or of two machines sold as the same (peers)."""

    older: float
    newer: float
    # Orders pairs in time: the newer run's day, then the older's (ISO dates; "" unknown),
    # then anything that makes the order total.
    when: tuple
    vendor: str = ""
    allocation: str = ""
    # The series the figures come from (one for a repeat, two for peers).
    series: tuple = ()
    # The parameter set both figures were measured with (its canonical text; "" unknown).
    params: str = ""

    @cached_property
    def difference(self) -> float:
        # Read several times a pair (overall, its group, its parameter set): worked out once.
        low, high = sorted((self.older, self.newer))
        return high / low - 1 if low > 0 else math.inf


@dataclass(frozen=True)
class Spread:
    """The distribution of the difference of a second run from a first, as quantiles."""

    pairs: int
    quantiles: dict[str, float]

    @property
    def tie_margin(self) -> float:
        return self.quantiles[TIE_QUANTILE]

    @property
    def interval(self) -> float:
        """How far (as a ratio - 1) a row's interval reaches either side of its figure."""
        return self.quantiles[INTERVAL_QUANTILE]

    def as_dict(self) -> dict:
        return {"pairs": self.pairs, "quantiles": self.quantiles, "tie_margin": self.tie_margin}

    @classmethod
    def from_dict(cls, kept: dict) -> Spread:
        return cls(int(kept["pairs"]), {name: float(v) for name, v in kept["quantiles"].items()})


def quantile(ordered: Sequence[float], level: float) -> float:
    """The ceil((n + 1) x level)-th smallest of n ordered values (the largest when that is
    beyond n): a new value from the same distribution is at most it with probability at least
    `level`."""
    index = min(len(ordered), math.ceil((len(ordered) + 1) * level)) - 1
    return ordered[max(index, 0)]


def spread_of(differences: Iterable[float]) -> Spread | None:
    """The quantiles of these differences; None for fewer than MINIMUM_PAIRS."""
    ordered = sorted(differences)
    if len(ordered) < MINIMUM_PAIRS:
        return None
    return Spread(
        len(ordered), {name: _up(quantile(ordered, level)) for name, level in QUANTILES.items()}
    )


def _up(value: float) -> float:
    """Four significant digits, rounded up: a margin kept shorter than measured would let
    through a pair it was measured to hold."""
    if not 0 < value < math.inf:
        return value
    step = 10 ** (math.floor(math.log10(value)) - 3)
    return float(f"{math.ceil(value / step - TOLERANCE) * step:.4g}")


def group_name(vendor: str, allocation: str) -> str:
    return f"{vendor} {allocation}"


def grouped(pairs: Sequence[Pair]) -> tuple[Spread | None, dict[str, Spread]]:
    """The distribution over every pair, and each CPU allocation's and vendor's
    ("dedicated", "aws dedicated"): its own from GROUP_PAIRS pairs; from MINIMUM_PAIRS, too
    few to stand alone, the wider of its own and what it would fall back on, quantile by
    quantile (Hetzner's few shared pairs, far noisier than the dedicated ones most pairs
    are, are not judged by those alone)."""
    by_allocation: dict[str, list[float]] = defaultdict(list)
    by_vendor: dict[str, list[float]] = defaultdict(list)
    for pair in pairs:
        if pair.allocation:
            by_allocation[pair.allocation].append(pair.difference)
            if pair.vendor:
                by_vendor[pair.vendor, pair.allocation].append(pair.difference)
    overall = spread_of(pair.difference for pair in pairs)
    kept: dict[str, Spread] = {}
    for allocation, values in sorted(by_allocation.items()):
        if (spread := _group_spread(values, overall)) is not None:
            kept[allocation] = spread
    for (vendor, allocation), values in sorted(by_vendor.items()):
        fallback = kept.get(allocation) or overall
        if (spread := _group_spread(values, fallback)) is not None:
            kept[group_name(vendor, allocation)] = spread
    return overall, dict(sorted(kept.items()))


def _group_spread(values: list[float], fallback: Spread | None) -> Spread | None:
    own = spread_of(values)
    if own is None or len(values) >= GROUP_PAIRS or fallback is None:
        return own
    return Spread(
        own.pairs,
        {name: max(value, fallback.quantiles[name]) for name, value in own.quantiles.items()},
    )


def spread_for(
    overall: Spread | None, groups: dict[str, Spread], vendor: str, allocation: str
) -> Spread | None:
    """The distribution a machine's figures are judged by: its vendor's and allocation's,
    else its allocation's, else the benchmark's."""
    return groups.get(group_name(vendor, allocation)) or groups.get(allocation) or overall


@dataclass(frozen=True)
class Distributions:
    """Every distribution a benchmark keeps: over every pair, per vendor and allocation
    (`grouped`), and the same within each parameter set with MINIMUM_PAIRS pairs (stress-ng
    at one worker is not stress-ng at 64; a set with fewer than GROUP_PAIRS keeps the wider
    of its own and the benchmark's, quantile by quantile)."""

    overall: Spread | None
    groups: dict[str, Spread]
    by_params: dict[str, tuple[Spread, dict[str, Spread]]]

    def spread_for(self, params: str, vendor: str, allocation: str) -> Spread | None:
        """What a machine's figures with these parameters are judged by: its parameter
        set's (its group's, else the set's), else the benchmark's (`spread_for`)."""
        found = self.by_params.get(params)
        if found is not None:
            return spread_for(found[0], found[1], vendor, allocation)
        return spread_for(self.overall, self.groups, vendor, allocation)


def distributions(pairs: Sequence[Pair]) -> Distributions:
    overall, groups = grouped(pairs)
    by_params: dict[str, tuple[Spread, dict[str, Spread]]] = {}
    sets: dict[str, list[Pair]] = defaultdict(list)
    for pair in pairs:
        if pair.params:
            sets[pair.params].append(pair)
    if len(sets) > 1:
        for params, members in sorted(sets.items()):
            own = _group_spread([pair.difference for pair in members], overall)
            if own is None:
                continue
            # A thin set's groups are thinner still: the set's widened distribution judges all.
            own_groups = grouped(members)[1] if len(members) >= GROUP_PAIRS else {}
            by_params[params] = (own, own_groups)
    return Distributions(overall, groups, by_params)


@dataclass(frozen=True)
class Calibration:
    """How the distribution did on pairs held out of it: the share of held-out pairs whose
    difference is beyond the tie margin, and of second runs inside the interval."""

    pairs: int
    beyond_tie_margin: float | None
    interval_coverage: float | None

    def as_dict(self) -> dict:
        return {
            "pairs": self.pairs,
            "beyond_tie_margin": self.beyond_tie_margin,
            "interval_coverage": self.interval_coverage,
            "level": INTERVAL_LEVEL,
        }

    @property
    def meets_goal(self) -> bool | None:
        """Whether it meets the goal (None: too few held-out pairs to say)."""
        if self.pairs < GOAL_PAIRS or self.beyond_tie_margin is None:
            return None
        low, high = GOAL_COVERAGE
        return self.beyond_tie_margin <= GOAL_BEYOND and low <= self.interval_coverage <= high


def calibrate(pairs: Sequence[Pair]) -> Calibration:
    """Older pairs estimate, newer pairs test: within each parameter set, vendor and CPU
    allocation, the pairs in time order (`when`), the older half measures the distributions
    as `distributions` does, and each pair of the newer half is judged by its distribution as
    an answer would judge it, its older run the figure and its newer run the second run.
    (Split in time over every pair at once, one vendor's runs, measured later, would be
    judged by the others'.)"""
    by_group: dict[tuple[str, str, str], list[Pair]] = defaultdict(list)
    for pair in pairs:
        by_group[(pair.params, pair.vendor, pair.allocation)].append(pair)
    estimate: list[Pair] = []
    held_out: list[Pair] = []
    for _group, members in sorted(by_group.items()):
        members.sort(key=lambda pair: pair.when)
        cut = len(members) // 2
        estimate += members[:cut]
        held_out += members[cut:]
    measured = distributions(estimate)
    if measured.overall is None or not held_out:
        return Calibration(len(held_out), None, None)
    beyond = inside = 0
    for pair in held_out:
        spread = measured.spread_for(pair.params, pair.vendor, pair.allocation)
        difference = pair.difference
        beyond += difference > spread.tie_margin + TOLERANCE
        inside += difference <= spread.interval + TOLERANCE
    return Calibration(
        len(held_out), round(beyond / len(held_out), 4), round(inside / len(held_out), 4)
    )
