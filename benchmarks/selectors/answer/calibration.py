"""The calibration table: each benchmark's kept noise as quantiles, and how its margin and
intervals did on repeat pairs held out of them (`python manage.py calibrate`, docs/noise.md).

Reads the noise kept on the benchmarks (services/statistics/noise.py), one query; writes the
table as Markdown, so that docs/noise.md carries the command's own output (`MARKERS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks import repeats
from benchmarks.models import Benchmark
from benchmarks.noise import Noise

# docs/noise.md holds the table between these lines, written by `calibrate --write-docs`.
MARKERS = ("<!-- calibrate: begin -->", "<!-- calibrate: end -->")
HEADER = (
    "| benchmark | basis | pairs | p50 | p90 | tie margin (p95) | p99 "
    "| held out | beyond margin | in 90% interval | goal |\n"
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|"
)


@dataclass(frozen=True)
class CalibrationLine:
    key: str
    noise: Noise | None
    measured: bool

    def as_markdown(self) -> str:
        noise = self.noise
        if noise is None or not noise.quantiles:
            said = "not measured yet" if not self.measured else "too few pairs to measure"
            return f"| `{self.key}` | {said} | | | | | | | | | |"
        quantiles = noise.quantiles
        held = noise.calibration or {}
        return (
            f"| `{self.key}` | {noise.basis} | {noise.pairs:,} | {_percent(quantiles['p50'])} "
            f"| {_percent(quantiles['p90'])} | {_percent(noise.tie_margin)} "
            f"| {_percent(quantiles['p99'])} | {held.get('pairs', 0):,} "
            f"| {_percent(held.get('beyond_tie_margin'))} "
            f"| {_percent(held.get('interval_coverage'))} | {_goal(noise)} |"
        )


def _percent(share: float | None) -> str:
    return "" if share is None else f"{share * 100:.2f}%"


def _goal(noise: Noise) -> str:
    """Met or missed (beyond the margin at most 5%, coverage 85% to 95%), too few held-out
    pairs to say, or exact: a figure no run changes (a compression ratio) has a zero margin
    and every second run on it, which no 90% interval can be calibrated to."""
    held = noise.calibration or {}
    if noise.quantiles and not any(noise.quantiles.values()) and not held.get("beyond_tie_margin"):
        return "exact figures"
    calibration = repeats.Calibration(
        held.get("pairs", 0), held.get("beyond_tie_margin"), held.get("interval_coverage")
    )
    verdict = calibration.meets_goal
    if verdict is None:
        return f"fewer than {repeats.GOAL_PAIRS} held out"
    return "met" if verdict else "missed"


def calibration_lines(benchmark: str | None = None) -> list[CalibrationLine]:
    """Every benchmark's line (or the one named), by key."""
    benchmarks = Benchmark.objects.order_by("key")
    if benchmark is not None:
        benchmarks = benchmarks.filter(key=benchmark)
    return [
        CalibrationLine(key, Noise.from_dict(kept), measured_at is not None)
        for key, kept, measured_at in benchmarks.values_list("key", "noise", "noise_measured_at")
    ]


def calibration_table(lines: list[CalibrationLine]) -> str:
    """The table in Markdown, with a last line counting the benchmarks that meet the goal."""
    verdicts = [
        _goal(line.noise) for line in lines if line.noise is not None and line.noise.quantiles
    ]
    judged = [verdict for verdict in verdicts if verdict in ("met", "missed")]
    total = (
        f"\n\n{judged.count('met')} of {len(judged)} benchmarks with at least "
        f"{repeats.GOAL_PAIRS} held-out pairs meet the goal (beyond the margin at most "
        f"{repeats.GOAL_BEYOND:.0%}, coverage {repeats.GOAL_COVERAGE[0]:.0%} to "
        f"{repeats.GOAL_COVERAGE[1]:.0%})."
    )
    return HEADER + "\n" + "\n".join(line.as_markdown() for line in lines) + total


def with_table(document: str, table: str) -> str:
    """`document` with the text between MARKERS replaced by `table`; ValueError without them."""
    begin, end = (re.escape(marker) for marker in MARKERS)
    pattern = re.compile(f"{begin}\n.*?{end}", re.DOTALL)
    if not pattern.search(document):
        raise ValueError(f"no {MARKERS[0]} ... {MARKERS[1]} block")
    return pattern.sub(lambda _match: f"{MARKERS[0]}\n{table}\n{MARKERS[1]}", document)


def table_in(document: str) -> str | None:
    """The table between MARKERS in `document`, or None."""
    begin, end = (re.escape(marker) for marker in MARKERS)
    found = re.search(f"{begin}\n(.*?)\n{end}", document, re.DOTALL)
    return found[1] if found else None
