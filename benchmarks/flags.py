"""Flags: figures a run measured that should not count like the others.

A run is flagged when its parser warned of something that makes its figures doubtful (an
iperf3 test capped at a target rate by its sender, a tool that reported an error, results
the tool itself calls incomplete); a single result is flagged when its note says part of
the work failed (a web server's non-2xx/3xx responses). Other warnings (skipped zero
figures, unknown columns) leave the figures standing. Flagged results are left out of the
kept statistics' figures and counted (services/statistics/); runs with a parse error
store no results at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

CAPPED = "capped by its sender or receiver"
TOOL_ERROR = "the tool reported an error"
INCOMPLETE = "the tool says its results are incomplete"
FAILED_RESPONSES = "failed responses"

# (pattern of a parser's warning, the flag it raises). The warnings are the parsers' own
# texts (benchmarks/parsers/); tests/test_flags.py reads them from real outputs.
_RUN_WARNINGS = (
    (re.compile(r"sent at a target rate"), CAPPED),
    # iperf3 whose sender or receiver used a whole core: the figure measures the CPU.
    (re.compile(r"capped by its (?:sender|receiver)"), CAPPED),
    (re.compile(r"reported (?:an )?error"), TOOL_ERROR),
    (re.compile(r"results are not complete"), INCOMPLETE),
)
# The note static_web gives a result whose run had failed responses.
FAILED_RESPONSES_NOTE = "responses were not 2xx or 3xx"


def run_flags(warnings: Iterable[str] | None) -> list[str]:
    """The flags a run's parser warnings raise, in a fixed order, each once."""
    texts = [str(warning) for warning in warnings or ()]
    raised = [flag for pattern, flag in _RUN_WARNINGS if any(map(pattern.search, texts))]
    return list(dict.fromkeys(raised))


def result_flag(notes: str | None) -> str | None:
    """The flag a single result's note raises, if any."""
    return FAILED_RESPONSES if notes and FAILED_RESPONSES_NOTE in notes else None


def flag_of(warnings: Iterable[str] | None, notes: str | None) -> str | None:
    """Why a result is left out of the figures: its run's first flag, else its own; None."""
    flags = run_flags(warnings)
    return flags[0] if flags else result_flag(notes)
