"""A `stress-ng --metrics` log -> ParsedOutput (formats `stressng` and `stressngsinglecore`).

Spare Cores runs `stress-ng --metrics --cpu <vCPUs> --cpu-method div16 -t 20` (folder
`stressng`) and the same with `--cpu 1` (folder `stressngsinglecore`). The log's result
line per stressor:
`stress-ng: metrc: [<pid>] cpu <bogo ops> <real s> <usr s> <sys s> <bogo ops/s real time>
<bogo ops/s usr+sys time> <CPU used per instance %> <RSS max KB>`.

Key `stress-ng:<stressor>` (`stress-ng:cpu`), bogo operations per second of real time
(`bogo-op/s`), higher is better; params `method` and `workers`. `workers` is the stressor's
count on the `dispatching hogs: 2 cpu` line. The log does not print `--cpu-method`: the
caller passes `cpu_method` (Spare Cores' runs use div16); without it `method` is left out
and a warning says so. Failed stressors and untrustworthy metrics, when the log reports
them, are warned about.
"""

from __future__ import annotations

import re

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError

FORMAT = "stressng"
CALLER_SUPPLIED = ("cpu_method",)

_LINE = re.compile(r"^stress-ng: (\w+):\s*\[\d+\]\s?(.*)$")
_METRIC_COLUMNS = 8  # bogo ops, real, usr, sys, ops/s real, ops/s usr+sys, CPU %, RSS
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_DISPATCH_LINE = re.compile(r"^dispatching hogs:\s*(.*)$")
_STRESSOR_INSTANCES = re.compile(r"^(\d+)\s+([\w-]+)$")
_COUNTS = re.compile(r"^(failed|metrics untrustworthy):\s*(\d+)")
_VERSION = re.compile(r"\bstress-ng,? (?:version )?(\d+\.\d+\.\d+)\b")


def looks_like(text: str) -> bool:
    """True when the text holds a `stress-ng: metrc:` or `stress-ng: info:` log line."""
    return re.search(r"^stress-ng: (?:metrc|info):\s*\[\d+\]", text, re.MULTILINE) is not None


def parse(text: str, *, cpu_method: str | None = None) -> ParsedOutput:
    """One result per stressor's metrics line."""
    output = ParsedOutput(format=FORMAT)
    workers: dict[str, int] = {}
    lines = text.split("\n")
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if version := _VERSION.search(line):
            output.tool_version = output.tool_version or version[1]
        match = _LINE.match(line)
        if match is None:
            continue
        kind, message = match[1], match[2].strip()
        if kind == "info":
            _read_info(message, number, workers, output)
        elif kind == "metrc":
            result = _metric(message, number, workers, cpu_method)
            if result is not None:
                output.results.append(result)
    if not output.results:
        raise ParseError(
            "no `stress-ng: metrc:` result line (was stress-ng run with --metrics?)",
            line=len(lines),
        )
    if any("workers" not in result.params for result in output.results):
        output.warnings.append(
            "the log has no `dispatching hogs` line for every stressor; workers is left out "
            "where it is missing"
        )
    if cpu_method is None and any(r.benchmark == "stress-ng:cpu" for r in output.results):
        output.warnings.append(
            "the log does not name the --cpu-method; method is left out: pass it "
            "(Spare Cores' runs use div16)"
        )
    return output


def _read_info(message: str, number: int, workers: dict[str, int], output: ParsedOutput) -> None:
    if dispatched := _DISPATCH_LINE.match(message):
        for part in dispatched[1].split(","):
            if stressor := _STRESSOR_INSTANCES.match(part.strip()):
                workers[stressor[2]] = int(stressor[1])
    elif (counts := _COUNTS.match(message)) and int(counts[2]) > 0:
        output.warnings.append(f"line {number}: stress-ng reports {message}")


def _metric(
    message: str, number: int, workers: dict[str, int], cpu_method: str | None
) -> ParsedResult | None:
    tokens = message.split()
    # The two header lines: `stressor bogo ops real time ...` and `(secs) (secs) ...`.
    if not tokens or tokens[0] == "stressor" or tokens[0].startswith("("):
        return None
    stressor, figures = tokens[0], tokens[1:]
    if len(figures) != _METRIC_COLUMNS:
        raise ParseError(
            f"{stressor}: {len(figures)} figures where stress-ng prints {_METRIC_COLUMNS} "
            "(bogo ops, real/usr/sys seconds, bogo ops/s real and usr+sys, CPU %, RSS); "
            "the line is cut or garbled",
            line=number,
        )
    for figure in figures:
        if not _NUMBER.fullmatch(figure):
            raise ParseError(f"{stressor}: {figure!r} is not a figure", line=number)
    params: dict[str, str | int] = {}
    if stressor == "cpu" and cpu_method is not None:
        params["method"] = cpu_method
    if stressor in workers:
        params["workers"] = workers[stressor]
    return ParsedResult(f"stress-ng:{stressor.lower()}", params, float(figures[4]), "bogo-op/s")
