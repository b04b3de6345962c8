"""lmbench `bw_mem` results, one per line -> ParsedOutput (format `bw_mem`).

Spare Cores' harness runs `bw_mem -P <vCPUs> <size> rd|wr|rdwr` for sizes 16k to 512M and
prints `<op> <size> <bandwidth>` per run, e.g. `rd 0.262144 70016.33`: the size in MB and
the bandwidth in MB/s of all processes together, where lmbench's MB is 10^6 bytes ("people
are quoting disk sizes in powers of 10, and bandwidths are all power of ten", lib_timing.c).

Key `bw_mem:<op>` (`bw_mem:rd`, `bw_mem:wr`, `bw_mem:rdwr`), bytes per second (`B/s`),
higher is better; params `size` (bytes: the printed size x 10^6) and `processes`. The output
does not record `-P`: the caller passes `processes` (the harness runs one per vCPU); without
it the param is left out and a warning says so.

A run that printed nothing leaves its operation's name alone: at the end of a line of its
own (`rdwr `), or in front of the next run's line (`rd wr 0.016384 42471.65`, the rd run
printed nothing and the wr run's figures follow). Such a name is skipped with a warning and
the figures are read with the last name before them.
"""

from __future__ import annotations

import re
from decimal import Decimal

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError

FORMAT = "bw_mem"
CALLER_SUPPLIED = ("processes",)

# lmbench bw_mem's operations.
_OPERATIONS = ("rd", "wr", "rdwr", "cp", "frd", "fwr", "fcp", "bzero", "bcopy")
_OPERATION = "|".join(_OPERATIONS)
_FIGURE = r"\d+(?:\.\d+)?"
_RESULT = re.compile(rf"^((?:(?:{_OPERATION})\s+)*)({_OPERATION})\s+({_FIGURE})\s+({_FIGURE})$")
_EMPTY_RUNS = re.compile(rf"^(?:{_OPERATION})(?:\s+(?:{_OPERATION}))*$")


def looks_like(text: str) -> bool:
    """True when the first non-blank line is a bw_mem result: `<op> <size> <MB/s>`."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    match = _RESULT.match(first)
    return match is not None and not match[1]


def parse(text: str, *, processes: int | None = None) -> ParsedOutput:
    """One result per run; `processes` is what `-P` was, if the caller knows it."""
    if processes is not None and processes < 1:
        raise ValueError(f"processes must be a positive whole number, not {processes!r}")
    output = ParsedOutput(format=FORMAT)
    empty_runs: list[str] = []
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        line = line.strip()
        if not line:
            continue
        if _EMPTY_RUNS.match(line):
            empty_runs.extend(f"`{name}` (line {number})" for name in line.split())
            continue
        match = _RESULT.match(line)
        if match is None:
            raise ParseError(
                f"not a bw_mem result (`<operation> <size MB> <MB/s>`): {line[:80]!r}",
                line=number,
            )
        empty_runs.extend(f"`{name}` (line {number})" for name in match[1].split())
        params: dict[str, int] = {"size": int(Decimal(match[3]) * 10**6)}
        if processes is not None:
            params["processes"] = processes
        output.results.append(
            ParsedResult(f"bw_mem:{match[2]}", params, float(Decimal(match[4]) * 10**6), "B/s")
        )
    if not output.results:
        raise ParseError("no bw_mem result in the output", line=len(lines))
    if empty_runs:
        output.warnings.append(
            f"{len(empty_runs)} runs printed no figures (their operation's name stands alone "
            f"or in front of the next run's figures) and were skipped: {', '.join(empty_runs)}"
        )
    if processes is None:
        output.warnings.append(
            "the output does not record how many processes ran (bw_mem -P); processes is "
            "left out: pass it (Spare Cores' harness runs one per vCPU)"
        )
    return output
