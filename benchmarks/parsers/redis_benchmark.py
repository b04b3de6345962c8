"""Spare Cores' redis benchmark table -> ParsedOutput (format `redis`).

The harness starts one redis-server per vCPU, loads each with its own memtier_benchmark for
10 s, and prints one CSV row per setting:
`"operation","threads","pipeline","rps","latency","server_usr",...`, e.g.
`"SET",1,16,458365,3.48,...`. `rps` is operations per second summed over the servers;
`latency` the mean of the clients' average latencies, in milliseconds; the remaining columns
are CPU seconds, not read.

Keys, params `threads` and `pipeline` (memtier's names):
- `redis:<operation>` (`redis:set`): operations per second (`op/s`), higher is better;
- `redis:<operation>-latency` (`redis:set-latency`): seconds (`s`), lower is better.
A row whose rps is 0 is a run whose memtier output the harness could not read: skipped
with a warning, as is a latency of 0.
"""

from __future__ import annotations

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.sparecores_csv import read_rows, starts_with_columns

FORMAT = "redis"
COLUMNS = ("operation", "threads", "pipeline", "rps", "latency")


def looks_like(text: str) -> bool:
    """True for the harness's header: operation, threads, pipeline, rps, latency."""
    return starts_with_columns(text, COLUMNS)


def parse(text: str) -> ParsedOutput:
    """One throughput and one latency result per row."""
    output = ParsedOutput(format=FORMAT)
    skipped: list[str] = []
    for row in read_rows(text, tool="the redis benchmark", required=COLUMNS):
        operation = row.cells["operation"].strip().lower()
        if not operation or not operation.isalnum():
            raise ParseError(f"operation is not a redis command: {operation!r}", line=row.line)
        params = {"threads": row.whole_number("threads"), "pipeline": row.whole_number("pipeline")}
        rps, latency_ms = row.number("rps"), row.number("latency")
        if rps == 0:
            skipped.append(f"line {row.line} (rps and latency)")
            continue
        output.results.append(ParsedResult(f"redis:{operation}", params, rps, "op/s"))
        if latency_ms == 0:
            skipped.append(f"line {row.line} (latency)")
            continue
        output.results.append(
            ParsedResult(
                f"redis:{operation}-latency",
                dict(params),
                latency_ms / 1000,
                "s",
                higher_is_better=False,
            )
        )
    if skipped:
        output.warnings.append(
            f"skipped figures of 0, the harness's value when it could not read memtier's "
            f"output: {', '.join(skipped)}"
        )
    return output
