"""Where each row of an answer stands once the noise is counted: its rank, the ranks it could
take within the benchmark's noise, the spread of its own runs, the winner's family and
whether the winner's lead over every other family is inside the noise (a tie).

One place decides all of it (`benchmarks.noise.beyond`), for the API, the sentence and the
charts alike; it reads nothing: the noise comes kept on the benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks import noise as noise_figures
from benchmarks.noise import Noise


@dataclass
class BestFamily:
    """The winner's family, its types within noise of the winner (best first), and the
    winner's lead over the best type of any other family (None: no other family)."""

    family: str
    types: list[str] = field(default_factory=list)
    lead: float | None = None

    def as_dict(self) -> dict:
        return {"family": self.family, "types": self.types, "lead": self.lead}


@dataclass
class Standing:
    """What the noise makes of one answer's rows."""

    noise: Noise | None
    best_family: BestFamily | None
    tied: bool


def stand(rows: list, noise: Noise | None) -> Standing:
    """Rank `rows` (PricePerformanceRow or ProfileRow: `per_dollar`, `family`,
    `instance_type`; `runs`, `min`, `max`, `median` where a row has runs) by what a dollar
    buys, setting each row's `rank`, `rank_range` and `spread`; rows without a per-dollar
    figure get none."""
    ranked = sorted(
        (row for row in rows if row.per_dollar is not None),
        key=lambda row: (-row.per_dollar, row.instance_type),
    )
    ranges = noise_figures.rank_ranges([row.per_dollar for row in ranked], noise)
    for position, (row, (best, worst)) in enumerate(zip(ranked, ranges, strict=True), start=1):
        row.rank = position
        row.rank_range = [best, worst]
    for row in rows:
        if hasattr(row, "runs"):
            row.spread = noise_figures.relative_spread(row.min, row.max, row.median, row.runs)
    if not ranked:
        return Standing(noise=noise, best_family=None, tied=False)
    winner = ranked[0]
    family = BestFamily(
        family=winner.family,
        types=[
            row.instance_type
            for row in ranked
            if row.family == winner.family
            and not noise_figures.beyond(winner.per_dollar, row.per_dollar, noise)
        ],
    )
    other = next((row for row in ranked if row.family != winner.family), None)
    tied = False
    if other is not None:
        if other.per_dollar > 0:
            family.lead = round(winner.per_dollar / other.per_dollar - 1, 4)
        tied = not noise_figures.beyond(winner.per_dollar, other.per_dollar, noise)
    return Standing(noise=noise, best_family=family, tied=tied)


def profile_noise(members: list, noises: dict[str, Noise | None]) -> Noise | None:
    """A workload profile's noise from its members' (`noises` by benchmark key): its score is
    a weighted geometric mean, so independent relative noises add as sqrt(sum((w/W)^2 s^2));
    None when a member's noise is unknown."""
    total = sum(member.weight for member in members)
    parts = [noises.get(member.benchmark) for member in members]
    if not members or any(part is None for part in parts):
        return None
    relative = (
        sum(
            (member.weight / total) ** 2 * part.relative**2
            for member, part in zip(members, parts, strict=True)
        )
        ** 0.5
    )
    return Noise(
        relative=float(f"{relative:.4g}"),
        series=sum(part.series for part in parts),
        method="From its members' noise, weighted as the score weighs them: "
        "sqrt(sum((weight / total weight)^2 x noise^2)).",
    )
