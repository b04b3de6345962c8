"""wrk and wrk2 output -> HTTP throughput results (format `wrk`).

A file may hold several runs, each starting at its `Running 30s test @ URL` line; each run's
results follow in order.

Keys and units:
- `wrk:http`: requests per second (`req/s`), the `Requests/sec:` line.
- `wrk:http:transfer`: bytes per second (`B/s`, wrk's `MB` is a mebibyte).
- `wrk:http:latency_avg` and, when a latency distribution is printed (`--latency`, or
  always in wrk2), `wrk:http:latency_p50`, `latency_p99`, `latency_p99_9`, ...: milliseconds
  (`ms`), lower is better. Without a distribution, the percentiles of a PerfKitBenchmarker
  `==CSV==` appendix (`p99 latency,0.519,ms`) are read instead.
Params, where printed: `threads`, `connections`, `duration_s`.

Socket errors and non-2xx/3xx responses keep the run's results and add a warning; so does a
wrk2 run, whose request rate is the one it was told to hold (`-R`), not a maximum.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.units import (
    NUMBER,
    NUMBER_WITH_EXPONENT,
    binary_bytes,
    duration_seconds,
    milliseconds,
    percentile_suffix,
)

_RUNNING = re.compile(r"Running (\S+) test @ (\S+)")
_THREADS = re.compile(r"(\d+) threads and (\d+) connections")
_LATENCY_STATS = re.compile(rf"Latency\s+({NUMBER})(us|ms|s|m|h)\s.*")
_DISTRIBUTION = re.compile(r"Latency Distribution.*")
_PERCENTILE = re.compile(rf"({NUMBER})%\s+({NUMBER})(us|ms|s|m|h)")
_CSV_PERCENTILE = re.compile(rf"p({NUMBER}) latency,({NUMBER_WITH_EXPONENT}),ms")
_REQUESTS = re.compile(rf"Requests/sec:\s+({NUMBER})")
_TRANSFER = re.compile(rf"Transfer/sec:\s+({NUMBER})([KMGTP]?)B")
_SOCKET_ERRORS = re.compile(r"Socket errors:\s+(.*)")
_NON_2XX = re.compile(r"Non-2xx or 3xx responses:\s+(\d+)")
_WRK2_SIGNS = ("Thread calibration:", "HdrHistogram")


@dataclass
class _Run:
    """What one wrk run printed."""

    line: int
    announced: bool = False  # started by a `Running ... test @` line
    params: dict = field(default_factory=dict)
    requests_per_second: float | None = None
    transfer_bytes_per_second: float | None = None
    latency_avg_ms: float | None = None
    percentiles_ms: dict[float, float] = field(default_factory=dict)
    csv_percentiles_ms: dict[float, float] = field(default_factory=dict)
    in_distribution: bool = False
    distribution_read: bool = False
    wrk2: bool = False
    errors: list[str] = field(default_factory=list)


def looks_like(text: str) -> bool:
    """True for wrk's `Running ... test @` header or its `Requests/sec:` summary line."""
    return bool(
        re.search(r"^\s*Running \S+ test @ ", text, re.MULTILINE)
        or re.search(rf"^\s*Requests/sec:\s+{NUMBER}", text, re.MULTILINE)
    )


def parse(text: str) -> ParsedOutput:
    """Every run's results in order; ParseError if no run printed its Requests/sec."""
    output = ParsedOutput(format="wrk")
    runs = _read_runs(text.splitlines())
    for run in runs:
        if run.requests_per_second is None:
            output.warnings.append(
                f"the wrk run at line {run.line} has no Requests/sec line (interrupted?)"
            )
            continue
        output.warnings.extend(_run_warnings(run))
        output.results.extend(_run_results(run))
    if not output.results:
        raise ParseError(
            "no 'Requests/sec:' line: this is not a finished wrk run", line=runs[0].line
        )
    return output


def _read_runs(lines: list[str]) -> list[_Run]:
    """One _Run per `Running ... test @` line; output without one is a single run."""
    runs: list[_Run] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        running = _RUNNING.fullmatch(stripped)
        if running or not runs:
            runs.append(_Run(line=number, announced=bool(running)))
        if running:
            duration = duration_seconds(running[1])
            if duration is not None:
                runs[-1].params["duration_s"] = duration
            continue
        _read_line(runs[-1], stripped)
    # Lines before the first Running line (a shell prompt, say) are not a run of their own.
    return [run for run in runs if run.announced or run.requests_per_second is not None] or [
        _Run(line=1)
    ]


def _read_line(run: _Run, stripped: str) -> None:
    if run.in_distribution:
        if (match := _PERCENTILE.fullmatch(stripped)) is not None:
            run.percentiles_ms[float(match[1])] = milliseconds(float(match[2]), match[3])
            return
        run.in_distribution = False
        run.distribution_read = True
    if (match := _THREADS.fullmatch(stripped)) is not None:
        run.params["threads"] = int(match[1])
        run.params["connections"] = int(match[2])
    elif (match := _LATENCY_STATS.fullmatch(stripped)) is not None:
        run.latency_avg_ms = milliseconds(float(match[1]), match[2])
    elif _DISTRIBUTION.fullmatch(stripped) and not run.distribution_read:
        # wrk2 prints a second, "uncorrected" distribution with -U; the first one counts.
        run.in_distribution = True
    elif (match := _CSV_PERCENTILE.fullmatch(stripped)) is not None:
        run.csv_percentiles_ms[float(match[1])] = float(match[2])
    elif (match := _REQUESTS.fullmatch(stripped)) is not None:
        run.requests_per_second = float(match[1])
    elif (match := _TRANSFER.fullmatch(stripped)) is not None:
        run.transfer_bytes_per_second = binary_bytes(float(match[1]), match[2])
    elif (match := _SOCKET_ERRORS.fullmatch(stripped)) is not None:
        run.errors.extend(_nonzero_socket_errors(match[1]))
    elif (match := _NON_2XX.fullmatch(stripped)) is not None:
        run.errors.append(f"{match[1]} non-2xx/3xx responses")
    elif stripped.startswith(_WRK2_SIGNS):
        run.wrk2 = True


def _nonzero_socket_errors(counts: str) -> list[str]:
    """`connect 0, read 0, write 0, timeout 8` -> ["timeout 8"]."""
    errors = []
    for part in counts.split(","):
        kind, _, number = part.strip().rpartition(" ")
        if number.isdigit() and int(number) > 0:
            errors.append(f"socket {kind} errors: {number}")
    return errors


def _run_warnings(run: _Run) -> list[str]:
    warnings = []
    if run.errors:
        warnings.append(f"the wrk run at line {run.line} had errors: {', '.join(run.errors)}")
    if run.wrk2:
        warnings.append(
            f"the run at line {run.line} is wrk2: its Requests/sec is the rate it was told to "
            "hold (-R), not the server's maximum"
        )
    return warnings


def _run_results(run: _Run) -> list[ParsedResult]:
    params = run.params
    results = [ParsedResult("wrk:http", dict(params), run.requests_per_second, "req/s")]
    if run.transfer_bytes_per_second is not None:
        transfer = run.transfer_bytes_per_second
        results.append(ParsedResult("wrk:http:transfer", dict(params), transfer, "B/s"))
    latencies = {}
    if run.latency_avg_ms is not None:
        latencies["latency_avg"] = run.latency_avg_ms
    for percentile, value in (run.percentiles_ms or run.csv_percentiles_ms).items():
        latencies[percentile_suffix(percentile)] = value
    for suffix, value in latencies.items():
        results.append(
            ParsedResult(f"wrk:http:{suffix}", dict(params), value, "ms", higher_is_better=False)
        )
    return results
