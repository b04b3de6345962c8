"""Spare Cores' static web server benchmark table -> ParsedOutput (format `static_web`).

The harness serves files of 1k to 512k with binserve and loads it with wrk for 10 s per
setting, printing one CSV row per run:
`"size","threads","connections","rps","latency","failed","server_usr",...`, e.g.
`"1k",2,2,45707,0.000043460,0,...`. `size` is the file's size (`1k` is 1024 bytes: the
harness makes each file `size * 1024` bytes long); `rps` is wrk's requests per second;
`latency` wrk's mean latency in seconds; `failed` the non-2xx/3xx responses; the remaining
columns are CPU seconds, not read.

Keys, params `size` (bytes), `threads` and `connections` (wrk's names):
- `static_web:http`: requests per second (`req/s`), higher is better;
- `static_web:http-latency`: seconds (`s`), lower is better.
Runs with failed responses are kept, with a note on their results and one warning listing
them. A rps or latency of 0 (the harness's value when it could not read wrk's output) is
skipped with a warning.
"""

from __future__ import annotations

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.sparecores_csv import read_rows, starts_with_columns
from benchmarks.parsers.units import size_in_bytes

FORMAT = "static_web"
COLUMNS = ("size", "threads", "connections", "rps", "latency")
_LISTED = 10  # runs named in a warning before "and N more"


def looks_like(text: str) -> bool:
    """True for the harness's header: size, threads, connections, rps, latency."""
    return starts_with_columns(text, COLUMNS)


def parse(text: str) -> ParsedOutput:
    """One throughput and one latency result per row."""
    output = ParsedOutput(format=FORMAT)
    failed_runs: list[str] = []
    skipped: list[str] = []
    for row in read_rows(text, tool="the static web benchmark", required=COLUMNS):
        size = size_in_bytes(row.cells["size"])
        if size is None:
            raise ParseError(f"size is not a file size: {row.cells['size'][:40]!r}", line=row.line)
        params = {
            "size": size,
            "threads": row.whole_number("threads"),
            "connections": row.whole_number("connections"),
        }
        failed = row.whole_number("failed") if "failed" in row.cells else 0
        note = f"{failed} responses were not 2xx or 3xx" if failed else None
        if failed:
            failed_runs.append(f"line {row.line} ({failed})")
        rps, latency = row.number("rps"), row.number("latency")
        if rps == 0:
            skipped.append(f"line {row.line} (rps and latency)")
            continue
        output.results.append(ParsedResult("static_web:http", params, rps, "req/s", notes=note))
        if latency == 0:
            skipped.append(f"line {row.line} (latency)")
            continue
        output.results.append(
            ParsedResult(
                "static_web:http-latency",
                dict(params),
                latency,
                "s",
                higher_is_better=False,
                notes=note,
            )
        )
    if failed_runs:
        output.warnings.append(
            f"{len(failed_runs)} runs had failed (non-2xx/3xx) responses; their results are "
            f"kept with a note: {_listing(failed_runs)}"
        )
    if skipped:
        output.warnings.append(
            f"skipped figures of 0, the harness's value when it could not read wrk's "
            f"output: {_listing(skipped)}"
        )
    return output


def _listing(items: list[str]) -> str:
    shown = ", ".join(items[:_LISTED])
    return shown if len(items) <= _LISTED else f"{shown} and {len(items) - _LISTED} more"
