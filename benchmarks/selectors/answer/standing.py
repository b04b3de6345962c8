"""Where each row of an answer stands once the noise is counted: its rank, the ranks it could
take within the benchmark's noise, the spread of its own runs, its 90% intervals, the winner's
family and whether the winner's lead over every other family is inside the noise (a tie).

One place decides all of it (`benchmarks.noise.beyond` with each row's margin), for the API,
the sentence and the charts alike; it reads nothing: the noise comes kept on the benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil, floor, inf, log10

from benchmarks import noise as noise_figures
from benchmarks import per_dollar as arithmetic
from benchmarks import repeats
from benchmarks.noise import Noise


@dataclass
class BestFamily:
    """The winner's family, its types within noise of the winner (best first), and the
    winner's lead over the best type of any other family (None: no other family)."""

    family: str
    types: list[str] = field(default_factory=list)
    lead: float | None = None
    # The margin the lead is judged by: the wider of the winner's and the other family's.
    margin: float | None = None

    def as_dict(self) -> dict:
        return {"family": self.family, "types": self.types, "lead": self.lead}


@dataclass
class Standing:
    """What the noise makes of one answer's rows."""

    noise: Noise | None
    best_family: BestFamily | None
    tied: bool


def stand(rows: list, noise: Noise | None, *, higher_is_better: bool = True) -> Standing:
    """Rank `rows` (PricePerformanceRow or ProfileRow: `per_dollar`, `family`,
    `instance_type`; `runs`, `min`, `max`, `median`, `vendor` where a row has them) by what a
    dollar buys, setting each row's `rank`, `rank_range`, `spread`, `tie_margin` and, where it
    has a median, its 90% `interval` and `per_dollar_interval`; rows without a per-dollar
    figure get no rank.

    A row's margin is its vendor's and CPU allocation's tie margin (noise.reach), or how far
    apart its own runs are where that is wider; two rows differ beyond the wider of their
    margins (noise.pair_margin)."""
    margin_of = _judge(rows, noise, higher_is_better)
    order = sorted(
        (index for index, row in enumerate(rows) if row.per_dollar is not None),
        key=lambda index: (-rows[index].per_dollar, rows[index].instance_type),
    )
    if not order:
        return Standing(noise=noise, best_family=None, tied=False)
    ranked = [rows[index] for index in order]
    margins = [margin_of[index] for index in order]
    ranges = noise_figures.rank_ranges([row.per_dollar for row in ranked], margins)
    for position, (row, (best, worst)) in enumerate(zip(ranked, ranges, strict=True), start=1):
        row.rank = position
        row.rank_range = [best, worst]
    winner, winner_margin = ranked[0], margins[0]

    def apart(row, margin) -> bool:
        pair = noise_figures.pair_margin(winner_margin, margin)
        return noise_figures.beyond(winner.per_dollar, row.per_dollar, pair)

    family = BestFamily(
        family=winner.family,
        types=[
            row.instance_type
            for row, margin in zip(ranked, margins, strict=True)
            if row.family == winner.family and not apart(row, margin)
        ],
    )
    other = next(
        ((row, margin) for row, margin in zip(ranked, margins, strict=True)
         if row.family != winner.family),
        None,
    )  # fmt: skip
    tied = False
    if other is not None:
        if other[0].per_dollar > 0:
            family.lead = round(winner.per_dollar / other[0].per_dollar - 1, 4)
        family.margin = round(noise_figures.pair_margin(winner_margin, other[1]), 6)
        tied = not apart(*other)
    return Standing(noise=noise, best_family=family, tied=tied)


def _judge(rows: list, noise: Noise | None, higher_is_better: bool) -> list[float]:
    """Each row's tie margin, in the rows' order; and, where a row keeps them, its `spread`,
    `tie_margin` and 90% intervals. One pass: a thousand rows hold a few vendors, allocations
    and parameter sets, each one's distribution read once (Noise.reach)."""
    if not rows:
        return []
    first = rows[0]
    with_runs = hasattr(first, "runs")
    keeps_margin = hasattr(first, "tie_margin")
    with_intervals = noise is not None and hasattr(first, "interval")
    reaches: dict[tuple[str, str, str], tuple[float, float]] = {}
    margins = []
    # Named once: the loop runs a thousand times an answer (docs/performance.md).
    relative_spread, own_difference = noise_figures.relative_spread, noise_figures.own_difference
    own_runs = noise_figures.OWN_RUNS
    for row in rows:
        margin = reach = 0.0
        if noise is not None:
            group = (
                getattr(row, "vendor", ""),
                getattr(row, "cpu_allocation", "") or "",
                getattr(row, "params_key", ""),
            )
            found = reaches.get(group)
            if found is None:
                found = reaches[group] = noise.reach(*group)
            margin, reach = found
        if with_runs:
            runs, low, high = row.runs, row.min, row.max
            row.spread = relative_spread(low, high, row.median, runs)
            if runs >= own_runs:
                margin = max(margin, own_difference(low, high, runs))
        margins.append(margin)
        if keeps_margin:
            row.tie_margin = round(margin, 6)
        if with_intervals:
            _intervals(row, reach, higher_is_better)
    return margins


def _intervals(row, reach: float, higher_is_better: bool) -> None:
    """A row's 90% interval around its median, and what it makes of its per-dollar figure
    (a lower-is-better figure's per dollar is 3600 / (median x price): the bounds swap)."""
    median = row.median
    if median <= 0:
        return
    low, high = noise_figures.interval(median, reach, row.min, row.max, row.runs)
    estimate = getattr(row, "estimate", None)
    if estimate is not None:
        # An estimate's interval also covers how far its source types disagree.
        sources = estimate.get("sources_range")
        if sources:
            low, high = min(low, sources["low"]), max(high, sources["high"])
    low, high = _outward(low, high, median)
    row.interval = {"low": low, "high": high, "level": _LEVEL}
    bought = row.per_dollar
    if bought is None:
        row.per_dollar_interval = None
        return
    bought_low, bought_high = arithmetic.per_dollar_interval(
        bought, low, high, median, higher_is_better=higher_is_better
    )
    bought_low, bought_high = _outward(bought_low, bought_high, bought)
    row.per_dollar_interval = {"low": bought_low, "high": bought_high, "level": _LEVEL}


_LEVEL = repeats.INTERVAL_LEVEL


def _outward(low: float, high: float, around: float) -> tuple[float, float]:
    """`low` and `high` at six significant digits of `around`, rounded outward (an interval
    as written still holds the figure it was drawn around). A power of ten divides last, so
    that the float written is the shortest decimal (0.0123456, not 0.012345600000000001)."""
    if not (0 < around < inf and 0 <= low <= high < inf):
        return low, high
    shift = 5 - floor(log10(around))
    if shift >= 0:
        scale = _POWERS.get(shift) or 10.0**shift
        return floor(low * scale) / scale, ceil(high * scale) / scale
    scale = _POWERS.get(-shift) or 10.0**-shift
    return floor(low / scale) * scale, ceil(high / scale) * scale


# 10.0**n for the shifts figures take (a power computed once, not twice a row).
_POWERS = {power: 10.0**power for power in range(25)}


def profile_noise(members: list, noises: dict[str, Noise | None]) -> Noise | None:
    """A workload profile's noise from its members' (`noises` by benchmark key); None when a
    member's noise is unknown. Its score is a weighted geometric mean, so a member moved by
    (1 + q) moves it by (1 + q)^(w/W): each quantile is the product of its members' so
    weighted, the most the score moves when every member moves as far at once (no member's
    noise assumed to cancel another's). `relative` stays the members' typical differences
    added as independent: sqrt(sum((w/W)^2 s^2))."""
    total = sum(member.weight for member in members)
    parts = [noises.get(member.benchmark) for member in members]
    if not members or any(part is None for part in parts):
        return None
    shares = [member.weight / total for member in members]
    relative = sum(share**2 * part.relative**2 for share, part in zip(shares, parts, strict=True))
    quantiles = {
        name: float(f"{_weighted(shares, [_quantile(part, name) for part in parts]):.4g}")
        for name in repeats.QUANTILES
    }
    return Noise(
        relative=float(f"{relative**0.5:.4g}"),
        series=sum(part.series for part in parts),
        method="From its members' noise, weighted as the score weighs them: each quantile the "
        "product of (1 + the member's)^(weight / total weight), less 1.",
        tie_margin=quantiles[repeats.TIE_QUANTILE],
        quantiles=quantiles,
        basis="members",
    )


def _quantile(noise: Noise, name: str) -> float:
    """A member's quantile; for noise kept before quantiles, its margin or interval."""
    if noise.quantiles:
        return noise.quantiles[name]
    return noise.margin if name == repeats.TIE_QUANTILE else noise.interval


def _weighted(shares: list[float], quantiles: list[float]) -> float:
    product = 1.0
    for share, value in zip(shares, quantiles, strict=True):
        product *= (1 + value) ** share
    return product - 1
