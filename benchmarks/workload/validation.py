"""How the workload model does on benchmarks held out of it: each tool in turn plays a buyer.

Pure: vectors in, a table out. For a tool, its workload is its parameter set measured on the
most types of the cloud asked (AWS); five of those types' figures go in, every other type's
figure is the truth, and the model may use no benchmark of that tool. The five are types a
buyer would have at hand: among the WELL_COVERED types with the most benchmarks, five spread
evenly over the workload's range (the slowest, the fastest and three between).

The table's overall figures are kept in HELD_OUT_FILE (`validate_workload_model --write`):
every answer quotes them, and docs/workload.md shows the line `overall_line` writes of them.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.workload import model

GIVEN = 5
WELL_COVERED = 40
HELD_OUT_FILE = Path(__file__).with_name("held_out.json")
# What every answer quotes of the file (`validation.held_out_benchmarks`).
QUOTED = ("cases", "median_error", "interval_coverage", "level")


@dataclass
class Case:
    """One held-out tool's result."""

    tool: str
    column: int
    given: list[int]
    method: str
    used: list[int]
    predictions: int
    median_error: float | None
    coverage: float | None
    # The model named a benchmark of the held-out tool (must never happen).
    leaked: bool
    # Single best benchmark (log-log, fitted to the same five) for comparison.
    single_error: float | None
    # Every prediction's |predicted / truth - 1|, for the median over all predictions.
    errors: list[float]


def pick_given(
    vectors: model.Vectors,
    column: int,
    rows: np.ndarray,
    excluded: np.ndarray,
    rng: np.random.Generator | None = None,
):
    """The five rows (of `rows`, those with the workload's figure) given as the buyer's: spread
    over the workload's range, or (`rng`) drawn at random among the well-covered."""
    coverage = np.isfinite(vectors.logs[np.ix_(rows, np.flatnonzero(~excluded))]).sum(axis=1)
    order = np.lexsort((rows, -coverage))
    covered = rows[order[:WELL_COVERED]]
    if rng is not None:
        return [int(row) for row in rng.choice(covered, GIVEN, replace=False)]
    by_value = covered[np.argsort(vectors.logs[covered, column], kind="stable")]
    spots = np.linspace(0, len(by_value) - 1, GIVEN).round().astype(int)
    return [int(by_value[i]) for i in spots]


def best_covered(vectors: model.Vectors, columns: np.ndarray, cloud: np.ndarray) -> int:
    """Of `columns`, the one measured on the most types of the cloud."""
    measured = np.isfinite(vectors.logs[:, columns]) & cloud[:, None]
    return int(columns[np.argmax(measured.sum(axis=0))])


def other_workloads(vectors: model.Vectors, tools: Sequence[str], cloud: np.ndarray) -> list:
    """A check on workloads the table does not hold: for each benchmark other than those of
    the tools' table workloads, its best-covered parameter set, as (tool, column)."""
    tools = np.asarray(tools)
    groups = vectors.groups_of()
    table = {best_covered(vectors, np.flatnonzero(tools == tool), cloud) for tool in set(tools)}
    found = []
    for group in sorted(set(groups.tolist())):
        ours = np.flatnonzero(groups == group)
        if not table.intersection(ours.tolist()):
            found.append((str(tools[ours[0]]), best_covered(vectors, ours, cloud)))
    return found


def hold_out(
    vectors: model.Vectors,
    tools: Sequence[str],
    tool: str,
    cloud: np.ndarray,
    *,
    column: int | None = None,
    rng: np.random.Generator | None = None,
) -> Case | None:
    """The model's error and coverage with `tool` held out (None: too few types measure it):
    its workload `column` (by default its parameter set on the most types), five types given
    as `pick_given` picks them."""
    tools = np.asarray(tools)
    excluded = tools == tool
    best = best_covered(vectors, np.flatnonzero(excluded), cloud) if column is None else column
    rows = np.flatnonzero(cloud & np.isfinite(vectors.logs[:, best]))
    if len(rows) < GIVEN + 1:
        return None
    given = pick_given(vectors, best, rows, excluded, rng)
    truth = vectors.logs[:, best]
    try:
        chosen = model.choose(vectors, given, truth[given], excluded=excluded)
        single = model.choose(vectors, given, truth[given], excluded=excluded, methods=("single",))
    except model.NotEnough:
        return None
    others = [row for row in rows if row not in given]
    figures = truth[given]
    errors, covered = _score(model.predict_all(vectors, chosen, given, figures), others, truth)
    single_errors, _ = _score(model.predict_all(vectors, single, given, figures), others, truth)
    used = list(chosen.fit.columns)
    return Case(
        tool=tool,
        column=best,
        given=given,
        method=chosen.fit.method,
        used=used,
        predictions=len(errors),
        median_error=float(np.median(errors)) if errors else None,
        coverage=float(np.mean(covered)) if covered else None,
        leaked=bool(excluded[used].any()),
        single_error=float(np.median(single_errors)) if single_errors else None,
        errors=errors,
    )


def _score(predicted, rows, truth):
    errors, covered = [], []
    for row in rows:
        found = predicted[row]
        if found is None:
            continue
        miss = found.log - truth[row]
        errors.append(abs(math.exp(miss) - 1))
        covered.append(abs(miss) <= found.reach + 1e-12)
    return errors, covered


def summary(cases: Sequence[Case]) -> dict:
    """Over every prediction of every case: the median error and the interval coverage
    (each case weighted by its predictions), as `validation` quotes the method's; the median
    over tools of each tool's median error (a tool with many types counts once); how many
    truths, and how many cases named a held-out tool's benchmark. Shares at four decimals."""
    errors = [error for case in cases for error in case.errors]
    per_tool = [case.median_error for case in cases if case.median_error is not None]
    weights = [case.predictions for case in cases if case.coverage is not None]
    covered = [case.coverage for case in cases if case.coverage is not None]
    return {
        "cases": len(cases),
        "median_error": _rounded(np.median(errors)) if errors else None,
        "interval_coverage": _rounded(np.average(covered, weights=weights)) if covered else None,
        "level": model.LEVEL,
        "median_of_tools": _rounded(np.median(per_tool)) if per_tool else None,
        "predictions": sum(case.predictions for case in cases),
        "leaked": sum(case.leaked for case in cases),
    }


def _rounded(share) -> float:
    return round(float(share), 4)


def share(value: float | None) -> str:
    """A share as the table prints it (12.3%; - for none)."""
    return "-" if value is None else f"{value:.1%}"


def overall_line(total: dict) -> str:
    """The table's last line: `summary`'s figures in words."""
    return (
        f"{total['cases']} tools held out: median error over all predictions "
        f"{share(total['median_error'])} (median of the tools' "
        f"{share(total['median_of_tools'])}), 90% intervals covered "
        f"{share(total['interval_coverage'])} of {total['predictions']:,} truths; model named "
        f"a held-out tool's benchmark in {total['leaked']}"
    )


def write_held_out(total: dict) -> None:
    """Keep `summary`'s figures for the answers to quote."""
    HELD_OUT_FILE.write_text(json.dumps(total, indent=2) + "\n")
    held_out.cache_clear()


@functools.cache
def held_out() -> dict:
    """The figures every answer quotes of the last table written (HELD_OUT_FILE)."""
    kept = json.loads(HELD_OUT_FILE.read_text())
    return {name: kept[name] for name in QUOTED}
