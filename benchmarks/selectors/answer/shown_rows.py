"""Which of an answer's rows the comparison page writes out: the first ROWS_SHOWN as ranked,
and the baseline, unless every row is asked for (`rows=all`).

All families across four clouds is some 930 priced rows and 300 unpriced: written out whole
(the table, each row's chart data, the unpriced list) the page was 1.5 MB of HTML and over
100,000 px tall. What is left out is counted and a link to the same question with
`rows=all` shows it, without a script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlencode

from benchmarks.errors import DomainError
from benchmarks.selectors.answer.baseline import baseline_row
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow
from benchmarks.selectors.pages.comparison import Comparison

# Rows of the results table (and their chart data) and of the unpriced list written out.
ROWS_SHOWN = 100
UNPRICED_SHOWN = 50
# The page parameter that asks for every row (dashboard.forms.ShownRowsForm).
PARAMETER = "rows"


@dataclass(frozen=True)
class ShownRows:
    """The rows the page writes, those its charts read, and what was left out."""

    results: list[PricePerformanceRow] = field(default_factory=list)
    unpriced: list = field(default_factory=list)
    # The rows whose data the charts need: those shown, the bars, the frontier, the baseline.
    charted: list[PricePerformanceRow] = field(default_factory=list)
    results_left_out: int = 0
    unpriced_left_out: int = 0
    everything: bool = False
    limit: int = 0
    # The same question with every row, or with the first ones only (None: nothing to toggle).
    show_all_href: str | None = None
    show_best_href: str | None = None

    @property
    def cut(self) -> bool:
        return bool(self.results_left_out or self.unpriced_left_out)


def shown_rows(comparison: Comparison, *, everything: bool = False) -> ShownRows:
    """The rows of `comparison` the page writes out (all of them with `everything`)."""
    table = comparison.table
    if table is None:
        return ShownRows(everything=everything, limit=ROWS_SHOWN)
    results, unpriced = table.results, table.unpriced
    longer = len(results) > ROWS_SHOWN or len(unpriced) > UNPRICED_SHOWN
    question = dict(comparison.resolved)
    if everything or not longer:
        return ShownRows(
            results=results,
            unpriced=unpriced,
            charted=results,
            everything=everything,
            limit=ROWS_SHOWN,
            show_best_href="?" + urlencode(question) if longer else None,
        )
    shown = results[:ROWS_SHOWN]
    base = _baseline(table)
    if base is not None and base not in shown:
        shown = [*shown, base]
    wanted = {row.key for row in (*shown, *comparison.bars, *comparison.frontier)}
    return ShownRows(
        results=shown,
        unpriced=unpriced[:UNPRICED_SHOWN],
        charted=[row for row in results if row.key in wanted],
        results_left_out=len(results) - len(shown),
        unpriced_left_out=max(len(unpriced) - UNPRICED_SHOWN, 0),
        limit=ROWS_SHOWN,
        show_all_href="?" + urlencode({**question, PARAMETER: "all"}),
    )


def _baseline(table) -> PricePerformanceRow | None:
    if not table.baseline:
        return None
    try:
        return baseline_row(table.results, table.baseline, table.benchmark.key)
    except DomainError:
        return None
