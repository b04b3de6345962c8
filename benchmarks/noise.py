"""How much a second run of a benchmark moves, and what that makes of ranks, leads and intervals.

Pure: figures in, noise and decisions out; no ORM. The measurement (docs/noise.md):

- Runs repeated on one machine (a series with several runs: the same type, parameters and
  tool version, run again another day) give pairs of figures that should agree: their
  difference, `max / min - 1`, is the noise. Runs of another tool version are not repeats.
- Where a benchmark has too few repeats, types with the same processor and the same number of
  vCPUs (c7g.xlarge, m7g.xlarge and r7g.xlarge) stand in: consecutive types of such a group
  give pairs too, and `basis` says so. They overstate the noise where the types truly differ
  (per-process AES on one Xeon's i2 and m3 sizes differ twofold): a wider margin, not a
  narrower one.

The differences are kept as quantiles (benchmarks.repeats), per vendor and CPU allocation where
enough pairs allow. Two figures differ only beyond the 95% quantile (`tie_margin`), or beyond
the row's own spread where it has several runs and that is wider; a row's 90% interval reaches
the 90% quantile either side of its figure, and covers its own runs.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from benchmarks import repeats
from benchmarks.repeats import Pair, Spread

# Repeats alone measure a benchmark from this many pairs; fewer are pooled with peers.
ENOUGH_REPEATS = 50
# Noise kept before quantiles were ({"relative", "series", "method"}: a standard deviation of
# one run): its margin was two standard deviations of a difference of two runs, and its
# interval reaches 1.645 of them (both assume normal noise; a rebuild replaces them).
LEGACY_SIGMAS = {"margin": 2.0, "interval": 1.645}
# A row's own runs count from two: its margin is at least how far apart they are, its interval
# covers them, and it has a `spread` (Hetzner cx22's two stress-ng runs, 27% apart, widen its
# rank range and interval; no quantile is read from a row's own runs, so two are enough).
OWN_RUNS = 2


@dataclass(frozen=True)
class Noise:
    """A benchmark's noise: the distribution of a second run's difference from a first.

    `relative` is its median (the typical difference of two runs), `series` how many series
    the pairs come from, `method` in words how it was measured; `tie_margin` its 95% quantile
    and `quantiles` p50 to p99, over every pair; `groups` the same per vendor and CPU
    allocation with enough pairs; `calibration` how it did on pairs held out of it."""

    relative: float
    series: int
    method: str
    tie_margin: float | None = None
    quantiles: dict | None = None
    basis: str | None = None
    calibration: dict | None = None
    pairs: int | None = None
    groups: dict = field(default_factory=dict)
    # Per parameter set (its canonical text): {"pairs", "quantiles", "tie_margin", "groups"}.
    by_params: dict = field(default_factory=dict)

    @property
    def margin(self) -> float:
        """The lead two figures must exceed to differ beyond the noise."""
        if self.tie_margin is not None:
            return self.tie_margin
        return LEGACY_SIGMAS["margin"] * math.sqrt(2) * self.relative

    @property
    def interval(self) -> float:
        """How far (ratio - 1) a row's 90% interval reaches either side of its figure."""
        if self.quantiles:
            return self.quantiles[repeats.INTERVAL_QUANTILE]
        return LEGACY_SIGMAS["interval"] * math.sqrt(2) * self.relative

    def judged_by(self, vendor: str, allocation: str, params: str = "") -> tuple[str, dict | None]:
        """The distribution a machine of this vendor and CPU allocation, measured with these
        parameters (their canonical text), is judged by, and its group's name: its parameter
        set's group ("aws dedicated", else "dedicated"), else the set's (""); else its
        group, else the benchmark's (""). None for noise kept before quantiles were."""
        kept = self.by_params.get(params) if params else None
        groups = kept["groups"] if kept else self.groups
        for name in (repeats.group_name(vendor, allocation), allocation):
            if groups.get(name):
                return name, groups[name]
        if kept:
            return "", kept
        if self.quantiles:
            return "", {"pairs": self.pairs or 0, "quantiles": self.quantiles}
        return "", None

    def reach(self, vendor: str, allocation: str, params: str = "") -> tuple[float, float]:
        """(tie margin, interval reach) of the distribution such a machine is judged by
        (`judged_by`)."""
        kept = self.judged_by(vendor, allocation, params)[1]
        if kept is None:
            return self.margin, self.interval
        spread = Spread.from_dict(kept)
        return spread.tie_margin, spread.interval

    def as_dict(self) -> dict:
        kept = {"relative": self.relative, "series": self.series, "method": self.method}
        if self.tie_margin is not None:
            kept |= {
                "tie_margin": self.tie_margin,
                "quantiles": self.quantiles,
                "basis": self.basis,
                "calibration": self.calibration,
                "pairs": self.pairs,
                "groups": self.groups,
                "by_params": self.by_params,
            }
        return kept

    def in_answer(self) -> dict:
        """As an answer writes it: every figure but the parameter sets' (rows carry the
        margin theirs gave them, `tie_margin`)."""
        kept = self.as_dict()
        kept.pop("by_params", None)
        return kept

    @classmethod
    def from_dict(cls, kept: dict | None) -> Noise | None:
        if not kept or kept.get("relative") is None:
            return None
        return cls(
            float(kept["relative"]),
            int(kept["series"]),
            str(kept["method"]),
            tie_margin=kept.get("tie_margin"),
            quantiles=kept.get("quantiles"),
            basis=kept.get("basis"),
            calibration=kept.get("calibration"),
            pairs=kept.get("pairs"),
            groups=kept.get("groups") or {},
            by_params=kept.get("by_params") or {},
        )


@dataclass(frozen=True)
class RunFigure:
    """One run's figure in a series, as the measurement reads it."""

    value: float
    # ISO date ("" when not recorded), and the tool's version ("" when not named).
    day: str
    version: str


@dataclass(frozen=True)
class SeriesFigure:
    """One kept series as the measurement reads it."""

    params: dict
    cpu_model: str
    vcpus: float | None
    median: float
    # Every run's figure where the series has several (empty otherwise).
    runs: Sequence[RunFigure] = ()
    vendor: str = ""
    allocation: str = ""
    series_id: int = 0
    # The newest run's day (ISO; "" unknown): orders peer pairs in time.
    day: str = ""
    # `params` as the series keeps it (canonical text): the parameter set's distribution.
    params_key: str = ""


@dataclass
class _Tally:
    """What the measurement left out or could not tell, for `method`."""

    other_version: int = 0
    unnamed_version: int = 0


def repeat_pairs(figures: Iterable[SeriesFigure], tally: _Tally | None = None) -> list[Pair]:
    """Each series' runs in time order, each with the next of the same tool version: a pair.
    Runs whose versions differ are not repeats (counted in `tally`); a pair where the data
    does not name the version is kept and counted."""
    tally = tally if tally is not None else _Tally()
    pairs = []
    for figure in figures:
        runs = sorted((run for run in figure.runs if run.value > 0), key=lambda run: run.day)
        for older, newer in zip(runs, runs[1:], strict=False):
            if older.version and newer.version and older.version != newer.version:
                tally.other_version += 1
                continue
            if not (older.version and newer.version):
                tally.unnamed_version += 1
            pairs.append(
                Pair(
                    older.value,
                    newer.value,
                    (newer.day, older.day, figure.series_id),
                    figure.vendor,
                    figure.allocation,
                    (figure.series_id,),
                    figure.params_key,
                )
            )
    return pairs


def peer_pairs(figures: Iterable[SeriesFigure]) -> list[Pair]:
    """Types with the same processor and vCPUs, for each parameter set, in name order (their
    series id): each with the next, a pair (groups of one type give none)."""
    groups: dict[tuple, list[SeriesFigure]] = defaultdict(list)
    for figure in figures:
        if figure.cpu_model and figure.vcpus and figure.median > 0:
            groups[(_params_key(figure.params), figure.cpu_model, figure.vcpus)].append(figure)
    pairs = []
    for members in groups.values():
        members.sort(key=lambda figure: figure.series_id)
        for one, other in zip(members, members[1:], strict=False):
            older, newer = sorted((one, other), key=lambda figure: figure.day)
            pairs.append(
                Pair(
                    older.median,
                    newer.median,
                    (newer.day, older.day, older.series_id, newer.series_id),
                    # A pair across vendors or allocations belongs to no group.
                    one.vendor if one.vendor == other.vendor else "",
                    one.allocation if one.allocation == other.allocation else "",
                    (one.series_id, other.series_id),
                    one.params_key,
                )
            )
    return pairs


def _params_key(params: dict) -> tuple:
    return tuple(sorted((name, str(value)) for name, value in params.items()))


def measure(figures: Iterable[SeriesFigure]) -> Noise | None:
    """The noise of one benchmark from its series (None when fewer than
    repeats.MINIMUM_PAIRS pairs measure it)."""
    figures = [figure for figure in figures if figure.median and figure.median > 0]
    tally = _Tally()
    repeated = repeat_pairs(figures, tally)
    if len(repeated) >= ENOUGH_REPEATS:
        basis, pairs = "repeats", repeated
    else:
        peers = peer_pairs(figures)
        pairs = repeated + peers
        basis = "repeats and peers" if repeated and peers else "repeats" if repeated else "peers"
    measured = repeats.distributions(pairs)
    overall, groups = measured.overall, measured.groups
    if overall is None:
        return None
    calibration = repeats.calibrate(pairs)
    series = len({series for pair in pairs for series in pair.series})
    return Noise(
        relative=overall.quantiles["p50"],
        series=series,
        method=_method(basis, pairs, repeated, tally, groups, len(measured.by_params)),
        tie_margin=overall.tie_margin,
        quantiles=overall.quantiles,
        basis=basis,
        calibration=calibration.as_dict(),
        pairs=overall.pairs,
        groups={name: spread.as_dict() for name, spread in groups.items()},
        by_params={
            params: {
                **spread.as_dict(),
                "groups": {name: group.as_dict() for name, group in params_groups.items()},
            }
            for params, (spread, params_groups) in measured.by_params.items()
        },
    )


def _method(basis, pairs, repeated, tally: _Tally, groups: dict, by_params: int) -> str:
    parts = []
    if repeated:
        parts.append(
            f"{len(repeated):,} pairs of runs repeated on one type (same parameters and tool "
            "version, each run with the next)"
        )
    if basis != "repeats":
        peers = len(pairs) - len(repeated)
        parts.append(
            f"{peers:,} pairs of types with the same processor and vCPUs (too few repeats: "
            "peers can differ for reasons other than noise)"
        )
    notes = []
    if tally.other_version:
        notes.append(f"{tally.other_version:,} pairs of runs of other tool versions left out")
    if tally.unnamed_version:
        notes.append(f"the data names no tool version for {tally.unnamed_version:,} pairs")
    elif repeated:
        notes.append("every repeat's tool version named")
    if groups:
        notes.append(f"kept apart for {', '.join(groups)}")
    if by_params:
        notes.append(f"and for each of {by_params:,} parameter sets")
    return (
        "Quantiles of max/min - 1 of "
        + "; and ".join(parts)
        + ", no normal errors assumed: ties beyond the 95% quantile, 90% intervals at the 90%"
        + (f" ({'; '.join(notes)})." if notes else ".")
    )


def beyond(better: float, worse: float, margin: float) -> bool:
    """Whether `better` leads `worse` by more than `margin` (a ratio - 1)."""
    if worse <= 0:
        return better > 0
    return better / worse - 1 > margin + repeats.TOLERANCE


def pair_margin(one: float, other: float) -> float:
    """Two rows' figures differ beyond the wider of their margins."""
    return max(one, other)


def rank_ranges(figures: Sequence[float], margins: Sequence[float]) -> list[tuple[int, int]]:
    """For figures in rank order (best first, higher is better), each with its margin, the
    ranks each could take: from one after the figures clearly above it to the count of those
    not clearly below it, "clearly" as `beyond` says it with the wider of two margins.

    With k = 1 + margin + TOLERANCE, clearly above figure i: f_j > f_i k_i and
    f_j / k_j > f_i; clearly below: f_j k_i < f_i and f_j k_j < f_i. Each is counted by a
    sweep over one condition with the other's values kept in order: n log n, not n^2. The
    sweep walks the figures in the order given, so they must come best first."""
    count = len(figures)
    if not count:
        return []
    factors = [1 + margin + repeats.TOLERANCE for margin in margins]
    reduced = [f / k for f, k in zip(figures, factors, strict=True)]
    raised = [f * k for f, k in zip(figures, factors, strict=True)]
    above = _count_above(figures, reduced, raised)
    below = _count_below(figures, raised, reduced)
    return [(over + 1, count - under) for over, under in zip(above, below, strict=True)]


def _count_above(figures: Sequence[float], ys: list[float], queries: list[float]) -> list[int]:
    """For figures in rank order (descending), each with a y: for each i, how many j have
    figures[j] > queries[i] and ys[j] > figures[i]. The figures' own order is the sweep's:
    the queries are taken from the highest, each adding the figures above it."""
    seen: list[float] = []
    insort, bisect_right = bisect.insort, bisect.bisect_right
    count = len(figures)
    counts = [0] * count
    taken = 0
    for index in sorted(range(count), key=queries.__getitem__, reverse=True):
        query = queries[index]
        while taken < count and figures[taken] > query:
            insort(seen, ys[taken])
            taken += 1
        counts[index] = taken - bisect_right(seen, figures[index])
    return counts


def _count_below(figures: Sequence[float], ys: list[float], queries: list[float]) -> list[int]:
    """For figures in rank order (descending), each with a y: for each i, how many j have
    figures[j] < queries[i] and ys[j] < figures[i] (`_count_above` from the other end)."""
    seen: list[float] = []
    insort, bisect_left = bisect.insort, bisect.bisect_left
    count = len(figures)
    counts = [0] * count
    taken = count - 1
    for index in sorted(range(count), key=queries.__getitem__):
        query = queries[index]
        while taken >= 0 and figures[taken] < query:
            insort(seen, ys[taken])
            taken -= 1
        counts[index] = bisect_left(seen, figures[index])
    return counts


def own_difference(minimum: float, maximum: float, runs: int) -> float:
    """How far apart a row's own runs are (max / min - 1, the pairs' measure); 0 with fewer
    than OWN_RUNS."""
    if runs < OWN_RUNS or minimum <= 0:
        return 0.0
    return maximum / minimum - 1


def interval(
    median: float, reach: float, minimum: float, maximum: float, runs: int
) -> tuple[float, float]:
    """A row's 90% interval: `reach` (ratio - 1) either side of its median, widened to cover
    its own runs where it has OWN_RUNS or more."""
    low, high = median / (1 + reach), median * (1 + reach)
    if runs >= OWN_RUNS:
        low, high = min(low, minimum), max(high, maximum)
    return low, high


def relative_spread(minimum: float, maximum: float, median: float, runs: int) -> float | None:
    """The spread of a row's own runs, (max - min) / median; None with fewer than OWN_RUNS."""
    if runs < OWN_RUNS or not median:
        return None
    return round((maximum - minimum) / abs(median), 6)
