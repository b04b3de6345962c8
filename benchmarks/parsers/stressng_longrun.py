"""Spare Cores' 24-hour stress-ng run, as they parse it (`parsed.csv`) -> ParsedOutput
(format `stressnglongrun`).

A day of `stress-ng --cpu-method div16` on one small type, its load stepped up each hour:
one line a minute, `time,cpu_load_percent,bogo_ops_per_second`, no header, e.g.
`2024-07-09T12:02:12,5.000058,3005.565246` (time without a zone, the load stress-ng held,
in percent of the machine).

Key `stress-ng:longrun`, bogo operations per second (`bogo-op/s`), higher is better, one
result a minute, params `hour` (whole hours since the first line, 0 to 23) and
`cpu_load_percent` (the load asked for: the measured one, 55.6 at worst, to the nearest step
of 5%): the minutes of one hour are the samples of one series, so a day reads as 24 points
of a curve, throughput against time at rising load (how a burstable type's credits run
out). The load steps a minute or two before each whole hour from the first line, so an hour
may end with a minute or two at the next step: a series of its own, of one or two samples.
"""

from __future__ import annotations

import datetime
import re

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.units import NUMBER

FORMAT = "stressnglongrun"
LOAD_STEP = 5  # percent
_LINE = re.compile(rf"^(\d{{4}}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?),({NUMBER}),({NUMBER})$")


def looks_like(text: str) -> bool:
    """True when the first non-blank line is `time,cpu_load_percent,bogo_ops_per_second`."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return _LINE.match(first) is not None


def parse(text: str) -> ParsedOutput:
    """One result per minute."""
    output = ParsedOutput(format=FORMAT)
    start: datetime.datetime | None = None
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        match = _LINE.match(line)
        if match is None:
            raise ParseError(
                f"not a `time,cpu_load_percent,bogo_ops_per_second` line: {line[:80]!r}",
                line=number,
            )
        at = datetime.datetime.fromisoformat(match[1])
        start = start or at
        if at < start:
            raise ParseError(f"{match[1]} is before the first line's {start}", line=number)
        hour = int((at - start).total_seconds() // 3600)
        load = round(float(match[2]) / LOAD_STEP) * LOAD_STEP
        params = {"hour": hour, "cpu_load_percent": load}
        output.results.append(
            ParsedResult("stress-ng:longrun", params, float(match[3]), "bogo-op/s")
        )
    if not output.results:
        raise ParseError("no line of the run", line=len(lines))
    return output
