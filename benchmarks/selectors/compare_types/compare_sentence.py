"""Compare's sentence: which type buys the most per dollar on the benchmarks the types share,
and each other type against the baseline, counted over the types that do share them."""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import TYPE_CHECKING

from benchmarks import units
from benchmarks.fargate_estimate import estimated_label
from benchmarks.models import PurchaseOption

if TYPE_CHECKING:
    from benchmarks.selectors.compare_types.compare_lines import Line, TypeComparison


def shared_lines(comparison: TypeComparison) -> tuple[tuple[int, ...], list[Line]]:
    """The positions of the types the sentence speaks of, and the benchmarks (each one's main
    line) they all have a figure on: every type where they share one; else the most types
    that share one, on the most benchmarks (a type measured on none of the others' benchmarks
    is left out, not the comparison). Empty where no two types share a benchmark."""
    lines = [group.main for group in comparison.benchmarks]
    present = [
        frozenset(i for i, cell in enumerate(line.cells) if cell is not None) for line in lines
    ]
    best: tuple[int, ...] = ()
    best_lines: list[Line] = []
    for candidate in set(present):
        if len(candidate) < 2:
            continue
        covered = [line for line, has in zip(lines, present, strict=True) if candidate <= has]
        if (len(candidate), len(covered)) > (len(best), len(best_lines)):
            best, best_lines = tuple(sorted(candidate)), covered
    return best, best_lines


def summary(comparison: TypeComparison) -> str:
    """One sentence: which type buys the most per dollar on the benchmarks the types share,
    and each other type's median per dollar against the baseline's."""
    names = comparison.names
    positions, shared = shared_lines(comparison)
    if not shared:
        return (
            f"{', '.join(names)} share no benchmark yet: each is measured on its own; "
            "upload results for the others to compare them."
        )
    left_out = [name for index, name in enumerate(names) if index not in positions]
    among = [names[index] for index in positions]
    wins: dict[str, int] = defaultdict(int)
    for line in shared:
        if line.best_per_dollar:
            wins[line.best_per_dollar] += 1
    count = len(shared)
    benchmarks = f"{count} benchmark{'s' if count != 1 else ''}"
    if left_out:
        opening = (
            f"{and_list(left_out)} {'has' if len(left_out) == 1 else 'have'} no result on a "
            f"benchmark the others share; on the {benchmarks} {and_list(among)} share"
        )
    else:
        every = "both" if len(names) == 2 else f"all {len(names)}"
        opening = f"On the {benchmarks} {every} types share"
    option = _option(comparison.query.purchase_option)
    unpriced = [names[i] for i in positions if comparison.columns[i].usd_per_hour is None]
    if len(unpriced) == len(positions):
        article = "an" if option[0] in "aeiouAEIOU" else "a"
        return f"{opening}; none of them has {article} {option} price {_where(comparison)}."
    # A type with no price is in no ranking per dollar: said, never silently dropped; looked
    # for in every region (no region asked for its vendor) or in the one asked.
    after = ""
    for cheapest, where in ((True, "in any region"), (False, 'in the region asked ("Priced in")')):
        these = [n for n in unpriced if comparison.columns[names.index(n)].cheapest is cheapest]
        if these:
            verb = "has" if len(these) == 1 else "have"
            after += f" {and_list(these)} {verb} no {option} price {where}: not ranked per dollar."
    if not wins:
        return f"{opening}, none buys more per dollar than the others beyond the noise.{after}"
    # A Fargate size no task measured stands on its estimates, and the sentence says so.
    estimated = {names[i] for i in positions if any(line.cells[i].estimated for line in shared)}

    def named(name: str) -> str:
        return estimated_label(name, name in estimated)

    leader = max(among, key=lambda name: (wins[name], -names.index(name)))
    sentence = f"{opening}, {named(leader)} buys the most per dollar on {wins[leader]}"
    base = comparison.baseline
    base_index = names.index(base.name)
    against = []
    for index in positions:
        if index == base_index:
            continue
        ratios = [
            line.cells[index].relative_per_dollar
            for line in shared
            if line.cells[index].relative_per_dollar is not None
        ]
        if ratios:
            against.append(f"{named(names[index])} {units.percent(statistics.median(ratios))}")
    if against:
        sentence += (
            f"; per dollar against {base.name} (the median over those benchmarks): "
            f"{', '.join(against)}"
        )
    if estimated:
        after += (
            f" {and_list(sorted(estimated, key=names.index))}: estimated from EC2 types with the "
            "processor the task runs on, where no task was measured."
        )
    return sentence + "." + after


def _where(comparison: TypeComparison) -> str:
    """Where the prices were looked for: every region, the regions asked, or both."""
    cheapest = {column.cheapest for column in comparison.columns}
    if cheapest == {True}:
        return "in any region"
    if cheapest == {False}:
        return 'in the regions asked (see "Priced in")'
    return 'in the regions asked or, for a vendor not asked, in any (see "Priced in")'


def _option(purchase_option: str) -> str:
    """`on_demand` -> "on-demand", `reserved` -> "Reserved Instance"."""
    label = PurchaseOption(purchase_option).label
    return label.lower() if " " not in label else label


def and_list(names: list[str]) -> str:
    """`a, b and c`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
