"""Where each row of an answer stands once the noise is counted: its rank, the ranks it could
take within the benchmark's noise, the spread of its own runs, its 90% intervals, the winner's
family and whether the winner's lead over every other family is inside the noise (a tie).

One place decides all of it (`benchmarks.noise.beyond` with each row's margin), for the API,
the sentence and the charts alike; it reads nothing: the noise comes kept on the benchmark.
What a row's own figures and the noise alone decide (its spread, margin and interval) is kept
between answers while the benchmark's statistics and noise stay the same (`kept_standing`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil, floor, inf, log10

from benchmarks import freshness, repeats
from benchmarks import noise as noise_figures
from benchmarks import per_dollar as arithmetic
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


def stand(
    rows: list,
    noise: Noise | None,
    *,
    higher_is_better: bool = True,
    kept: dict | None = None,
) -> Standing:
    """Rank `rows` (PricePerformanceRow or ProfileRow: `per_dollar`, `family`,
    `instance_type`; `runs`, `min`, `max`, `median`, `vendor` where a row has them) by what a
    dollar buys, setting each row's `rank`, `rank_range`, `spread`, `tie_margin` and, where it
    has a median, its 90% `interval` and `per_dollar_interval`; rows without a per-dollar
    figure get no rank.

    A row's margin is its vendor's and CPU allocation's tie margin (noise.reach), or how far
    apart its own runs are where that is wider; two rows differ beyond the wider of their
    margins (noise.pair_margin).

    `kept` (`kept_standing`, for rows of one benchmark judged by `noise`): what each row's
    figures gave an earlier answer, taken from it and added to it."""
    margin_of = _judge(rows, noise, higher_is_better, kept)
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


def kept_standing(benchmark) -> dict | None:
    """What `stand` keeps of `benchmark`'s rows between answers (its `kept`), while the
    benchmark's statistics and noise stay as the question read them: `stats_updated_at` moves
    with every write of its statistics, `noise_measured_at` with every write of its noise,
    which comes after (services/statistics/noise.py). None where either was not read with it
    or never written: nothing kept then.

    A thousand rows' spreads, margins and intervals were a quarter of a cold answer's time
    (docs/performance.md); kept, a row asked again costs a look-up."""
    deferred = benchmark.get_deferred_fields()
    if "stats_updated_at" in deferred or "noise_measured_at" in deferred:
        return None
    stamp = (benchmark.stats_updated_at, benchmark.noise_measured_at)
    if None in stamp:
        return None
    return freshness.kept_read(f"standing:{benchmark.pk}", dict, stamp=stamp, large=True)


# How many rows' figures `kept_standing` holds per benchmark at most (a few parameter sets'
# thousand rows); past it, it starts again.
KEPT_ROWS = 5000


def _judge(
    rows: list, noise: Noise | None, higher_is_better: bool, kept: dict | None = None
) -> list[float]:
    """Each row's tie margin, in the rows' order; and, where a row keeps them, its `spread`,
    `tie_margin` and 90% intervals. One pass: a thousand rows hold a few vendors, allocations
    and parameter sets, each one's distribution read once (Noise.reach)."""
    if not rows:
        return []
    if kept is not None and noise is not None and hasattr(rows[0], "estimate"):
        return _judge_kept(rows, noise, higher_is_better, kept)
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


def _judge_kept(rows: list, noise: Noise, higher_is_better: bool, kept: dict) -> list[float]:
    """`_judge` of PricePerformanceRows, each measured row's figures taken from `kept` where
    an earlier answer left them, the others worked out by `_judge` in one pass and added: a
    row's spread, margin and interval depend on its kept statistics and the noise alone, keyed
    by all that decides them; what a dollar buys of the interval depends on its price too,
    kept with the per-dollar figure it was worked out for (a question asked again on another
    day is most often priced the same)."""
    if len(kept) > KEPT_ROWS:
        kept.clear()
    margins = [0.0] * len(rows)
    unknown = []
    for index, row in enumerate(rows):
        # An estimate's figures are the question's (its sources, its day): never kept.
        found = None if row.estimate is not None else kept.get(_figures(row))
        if found is None:
            unknown.append(index)
            continue
        spread, margin, tie_margin, low, high, bought, bought_low, bought_high = found
        row.spread, row.tie_margin = spread, tie_margin
        margins[index] = margin
        if low is None:
            continue  # no interval: a median that is not positive
        row.interval = {"low": low, "high": high, "level": _LEVEL}
        if bought == row.per_dollar:
            if bought_low is not None:
                row.per_dollar_interval = {"low": bought_low, "high": bought_high, "level": _LEVEL}
            continue
        _per_dollar_interval(row, low, high, higher_is_better)
        _keep(kept, row, margin)  # replaced whole, never changed: a reader holds one or the other
    worked_out = [rows[index] for index in unknown]
    for index, row, margin in zip(
        unknown, worked_out, _judge(worked_out, noise, higher_is_better), strict=True
    ):
        margins[index] = margin
        if row.estimate is None:
            _keep(kept, row, margin)
    return margins


def _figures(row) -> tuple:
    """All that decides a measured row's spread, margin and interval: `kept_standing`'s key."""
    return (
        row.vendor, row.cpu_allocation, row.params_key, row.runs, row.min, row.max, row.median
    )  # fmt: skip


def _keep(kept: dict, row, margin: float) -> None:
    """What `_judge` gave `row` (with `margin`, its margin unrounded), kept under its figures:
    (spread, margin, tie margin as written, interval low and high, per-dollar figure,
    per-dollar interval low and high; None for what it has not)."""
    interval, bought_interval = row.interval, row.per_dollar_interval
    kept[_figures(row)] = (
        row.spread,
        margin,
        row.tie_margin,
        *((interval["low"], interval["high"]) if interval else (None, None)),
        row.per_dollar,
        *((bought_interval["low"], bought_interval["high"]) if bought_interval else (None, None)),
    )


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
    _per_dollar_interval(row, low, high, higher_is_better)


def _per_dollar_interval(row, low: float, high: float, higher_is_better: bool) -> None:
    """What the row's interval (`low` to `high` around its median) makes of its per-dollar
    figure, as written."""
    median = row.median
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
