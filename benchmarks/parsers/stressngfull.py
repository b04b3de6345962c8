"""Spare Cores' stress-ng at every load -> ParsedOutput (format `stressngfull`).

Their `stressngfull` task runs `stress-ng --metrics --cpu <n> --cpu-method div16` for n from 1
to the vCPUs (every n on small types; 1, 2, then steps of 2 to 14 on large ones) and keeps one
line per run, `workers,bogo_ops_per_second`, with no header: `1,1532.58`. Spare Cores' SCore
is the figure at n = vCPUs.

Key `stress-ng:cpu`, bogo operations per second of real time (`bogo-op/s`), higher is better,
params `method` and `workers`: the key and params of the `stressng` folders' logs
(parsers/stressng.py), so that the figure at n workers is the same series whichever folder
measured it. The output does not record `--cpu-method`: the caller passes `cpu_method`
(Spare Cores' runs use div16); without it `method` is left out and a warning says so.
"""

from __future__ import annotations

import re

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.units import NUMBER

FORMAT = "stressngfull"
CALLER_SUPPLIED = ("cpu_method",)

_LINE = re.compile(rf"^(\d+),({NUMBER})$")


def looks_like(text: str) -> bool:
    """True when every non-blank line is `workers,bogo_ops_per_second`, the first for 1."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and lines[0].startswith("1,") and all(map(_LINE.match, lines))


def parse(text: str, *, cpu_method: str | None = None) -> ParsedOutput:
    """One result per line."""
    output = ParsedOutput(format=FORMAT)
    seen: dict[int, int] = {}
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise ParseError(
                f"not a `workers,bogo_ops_per_second` line: {line[:80]!r}", line=number
            )
        workers = int(match[1])
        if workers < 1:
            raise ParseError(f"{workers} workers: a run has at least one", line=number)
        if workers in seen:
            raise ParseError(
                f"{workers} workers measured twice (lines {seen[workers]} and {number})",
                line=number,
            )
        seen[workers] = number
        params: dict[str, str | int] = {"workers": workers}
        if cpu_method is not None:
            params = {"method": cpu_method, **params}
        output.results.append(ParsedResult("stress-ng:cpu", params, float(match[2]), "bogo-op/s"))
    if not output.results:
        raise ParseError("no `workers,bogo_ops_per_second` line", line=len(lines))
    if cpu_method is None:
        output.warnings.append(
            "the output does not name the --cpu-method; method is left out: pass it "
            "(Spare Cores' runs use div16)"
        )
    return output
