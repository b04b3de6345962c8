"""Spare Cores' sc-membench CSV -> ParsedOutput (format `membench`).

The header `size_kb,operation,bandwidth_mb_s,latency_ns,latency_stddev_ns,latency_samples,
threads,iterations,elapsed_s` (releases before 1.1 print no `latency_stddev_ns` and
`latency_samples`), then one row per buffer size and operation: `read`, `write` and `copy`
give `bandwidth_mb_s` (latency 0), `latency` gives `latency_ns` (bandwidth 0), the median of
a single-threaded pointer chase. `size_kb` is the buffer of each thread in KiB (the tool
prints bytes / 1024). `threads` is how many ran the bandwidth test at that size: all vCPUs,
fewer where the buffers would not fit in a quarter of the memory, or the best count found.

sc-membench's MB is 2^20 bytes: its bandwidth is `bytes / (1024.0 * 1024.0) / seconds`
(bandwidth.h, `run_benchmark_omp`), so MB/s x 1,048,576 is bytes per second. lmbench's
bw_mem, by contrast, counts 10^6 (parsers/bw_mem.py).

Keys:
- `membench:read`, `membench:write`, `membench:copy`: bytes per second of all threads
  together (`B/s`), higher is better, params `size_kb` and `threads` (it varies with the
  size on large machines);
- `membench:latency`: seconds per access (`s`, from ns), lower is better, param `size_kb`
  (always one thread); the note gives the standard deviation and samples where printed.
"""

from __future__ import annotations

import csv
import io

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError, first_filled_line

FORMAT = "membench"
BYTES_PER_MB = 1024 * 1024  # sc-membench's MB (see above)
SECONDS_PER_NS = 1e-9
BANDWIDTH_OPERATIONS = ("read", "write", "copy")
LATENCY = "latency"
_REQUIRED = ("size_kb", "operation", "bandwidth_mb_s", "latency_ns", "threads")


def looks_like(text: str) -> bool:
    """True when the first non-blank line is sc-membench's header."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.startswith("size_kb,operation,bandwidth_mb_s,latency_ns")


def parse(text: str) -> ParsedOutput:
    """One result per row."""
    lines = text.split("\n")
    start = first_filled_line(lines)
    rows = csv.reader(io.StringIO("\n".join(lines[start:])))
    header = [name.strip() for name in next(rows)]
    missing = [name for name in _REQUIRED if name not in header]
    if missing:
        raise ParseError(
            f"not sc-membench's header: no {', '.join(missing)} column", line=start + 1
        )
    output = ParsedOutput(format=FORMAT)
    for offset, cells in enumerate(rows, start=start + 2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(header):
            raise ParseError(
                f"{len(cells)} cells where the header names {len(header)}", line=offset
            )
        row = dict(zip(header, (cell.strip() for cell in cells), strict=True))
        output.results.append(_result(row, offset))
    if not output.results:
        raise ParseError("no sc-membench row under the header", line=len(lines))
    return output


def _result(row: dict[str, str], line: int) -> ParsedResult:
    operation = row["operation"]
    size_kb = _whole(row, "size_kb", line)
    if operation == LATENCY:
        notes = None
        if row.get("latency_stddev_ns") and row.get("latency_samples"):
            notes = (
                f"median of {row['latency_samples']} samples, standard deviation "
                f"{row['latency_stddev_ns']} ns"
            )
        return ParsedResult(
            "membench:latency",
            {"size_kb": size_kb},
            _figure(row, "latency_ns", line) * SECONDS_PER_NS,
            "s",
            higher_is_better=False,
            notes=notes,
        )
    if operation not in BANDWIDTH_OPERATIONS:
        raise ParseError(
            f"operation {operation!r} is not one of {', '.join((*BANDWIDTH_OPERATIONS, LATENCY))}",
            line=line,
        )
    return ParsedResult(
        f"membench:{operation}",
        {"size_kb": size_kb, "threads": _whole(row, "threads", line)},
        _figure(row, "bandwidth_mb_s", line) * BYTES_PER_MB,
        "B/s",
    )


def _whole(row: dict[str, str], name: str, line: int) -> int:
    try:
        value = int(row[name])
    except ValueError:
        raise ParseError(f"{name} {row[name]!r} is not a whole number", line=line) from None
    if value < 1:
        raise ParseError(f"{name} {value} is not positive", line=line)
    return value


def _figure(row: dict[str, str], name: str, line: int) -> float:
    try:
        value = float(row[name])
    except ValueError:
        raise ParseError(f"{name} {row[name]!r} is not a figure", line=line) from None
    if not value > 0:
        raise ParseError(f"{name} {row[name]!r}: the tool prints only figures above 0", line=line)
    return value
