"""sysbench output -> results (format `sysbench`).

Reads sysbench 1.0.x, 1.1 (with its `Throughput:` block) and legacy 0.4.x/0.5 reports of the
cpu, memory, fileio, threads/mutex and OLTP tests. Progress lines (`[ 10s ] thds: ...`) are
ignored. A file may hold several runs one after another (each starts at its `sysbench X.Y`
banner); every run yields its own results, in order; `prepare` and `cleanup` runs yield none.
A run capped by `--rate` keeps its results and adds a warning.

The test is named by the command line in the file (`sysbench oltp_read_write run`,
`sysbench --test=cpu run`, `.../oltp_read_only.lua`), else by the report itself (`Doing CPU
performance benchmark`, `CPU speed:`, `File operations:`...). An OLTP report without its
command does not say which OLTP script ran: it becomes `sysbench:oltp`, with a warning.

Keys and units (`<test>` as named above):
- OLTP tests: `sysbench:<test>` transactions per second (`tx/s`);
  `sysbench:<test>:queries` (`query/s`).
- cpu: `sysbench:cpu` events per second (`event/s`); sysbench 0.4 prints no rate, so it is
  events / total time, as 1.0 computes it. Params `max_prime` when printed.
- memory: `sysbench:memory` bytes per second (`B/s`, from MiB/s);
  `sysbench:memory:operations` (`op/s`). Params `block_size` (bytes) and `operation`.
- fileio: `sysbench:fileio` I/O operations per second (`op/s`) and
  `sysbench:fileio:bandwidth` (`B/s`), one result per direction that did I/O: params
  `direction` (`read`/`write`), `mode` (`rndrw`, `seqwr`, ...) and `block_size` (bytes).
- any other test (threads, mutex): `sysbench:<test>` events per second (`event/s`).
- every test: `sysbench:<test>:latency_p<N>` (`ms`, lower is better), the percentile the
  report printed (95 unless `--percentile` changed it).
- OLTP tests: `sysbench:<test>:latency_avg` (`ms`, lower is better), the mean response time
  of the `Latency (ms)` block (`avg:`), when printed.
Every result has the param `threads` when the report prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.units import NUMBER, binary_bytes, percentile_suffix, size_in_bytes

_BANNER = re.compile(r"^\s*sysbench (\d+\.\d+[\w.+-]*)")
_OPTIONS_HEADER = "Running the test with following options:"
_COMMAND = re.compile(r"(?:^|[\s/$#>])sysbench\s+(?!\d)(\S.*)$")
_ACTIONS = {"run", "prepare", "cleanup", "help", "warmup", "prewarm"}

# What a report line can say, each pattern matched against whole stripped lines; NUM stands
# for a decimal number.
_FACT_PATTERNS = {
    "threads": r"Number of threads:\s*(\d+)",
    "max_prime": r"(?:Prime numbers limit|Maximum prime number checked in CPU test):\s*(\d+)",
    "transactions": r"transactions:\s+\d+\s+\(\s*(NUM) per sec\.\)",
    "queries": r"queries:\s+\d+\s+\(\s*(NUM) per sec\.\)",
    "read_write_requests": r"read/write requests:\s+\d+\s+\(\s*(NUM) per sec\.\)",
    "other_operations": r"other operations:\s+\d+\s+\(\s*(NUM) per sec\.\)",
    "cpu_events": r"events per second:\s*(NUM)",
    "eps": r"events/s \(eps\):\s*(NUM)",
    "memory_operations": r"(?:Total operations|Operations performed):\s*\d+\s+"
    r"\(\s*(NUM) (?:per second|ops/sec)\)",
    "memory_mib": r"NUM (?:MiB|MB) transferred \(\s*(NUM) (?:MiB|MB)/sec\)",
    "block_size": r"(?:Memory )?block size:?\s+(\S+)",
    "memory_operation": r"(?:operation|Memory operations type):\s*(\w+)",
    "doing": r"Doing (.+?)\.?",
    "reads": r"reads/s:\s*(NUM)",
    "writes": r"writes/s:\s*(NUM)",
    "read_mib": r"read, MiB/s:\s*(NUM)",
    "write_mib": r"written, MiB/s:\s*(NUM)",
    # sysbench 1.1 fileio: `read:  IOPS=0.00 0.00 MiB/s (0.00 MB/s)`
    "read_iops_mib": r"read:\s+IOPS=(NUM)\s+(NUM) MiB/s.*",
    "write_iops_mib": r"write:\s+IOPS=(NUM)\s+(NUM) MiB/s.*",
    "legacy_file_operations": r"Operations performed:\s+(\d+) reads?, (\d+) writes?,.*",
    "legacy_file_bytes": r"Read (NUM)([kmgt]?)b\s+Written (NUM)([kmgt]?)b\s.*",
    "total_time": r"total time:\s*(NUM)s",
    "total_events": r"total number of events:\s*(\d+)",
    # 1.0: `95th percentile:  0.24` (ms); 0.4: `approx.  95 percentile:  1.98ms`
    "percentile": r"(?:(\d+)(?:st|nd|rd|th)|approx\.\s+(\d+)) percentile:\s*(NUM)(?:ms)?",
    "rate": r"Target transaction rate:\s*(\d+)/sec",
    # The `Latency (ms)` block's mean (1.0: `avg:  16.21`; 0.4: `avg:  2.41ms`).
    "latency_avg": r"avg:\s*(NUM)(?:ms)?",
    "fatal": r"FATAL:\s*(.*)",
}
_FACTS = {
    name: re.compile(pattern.replace("NUM", NUMBER), re.IGNORECASE)
    for name, pattern in _FACT_PATTERNS.items()
}

_LEGACY_TESTS = {
    "cpu performance benchmark": "cpu",
    "oltp test": "oltp",
    "memory operations speed test": "memory",
    "thread subsystem performance test": "threads",
    "mutex performance test": "mutex",
}
_FILEIO_MODES = {
    "sequential write (creation) test": "seqwr",
    "sequential rewrite test": "seqrewr",
    "sequential read test": "seqrd",
    "random read test": "rndrd",
    "random write test": "rndwr",
    "random r/w test": "rndrw",
    "mixed test": "mixed",
}


@dataclass
class _Run:
    """The lines of one sysbench invocation and what its command line said."""

    line: int
    version: str | None = None
    test: str | None = None  # from the command line
    action: str | None = None  # run / prepare / cleanup, from the command line
    saw_options: bool = False
    facts: dict[str, tuple[re.Match, int]] = field(default_factory=dict)


def looks_like(text: str) -> bool:
    """True when the text has a `sysbench X.Y` banner, or a banner-less sysbench report."""
    if re.search(r"^\s*sysbench \d+\.\d+", text, re.MULTILINE):
        return True
    return "Threads fairness:" in text and "total number of events:" in text


def parse(text: str) -> ParsedOutput:
    """Every run in the file, its results in order; ParseError if none has any."""
    output = ParsedOutput(format="sysbench")
    runs = _split_runs(text.splitlines())
    for run in runs:
        output.tool_version = output.tool_version or run.version
        output.results.extend(_run_results(run, output.warnings))
    if not output.results:
        raise _nothing_found(runs, output.warnings)
    return output


# Splitting into runs ------------------------------------------------------------------------


def _split_runs(lines: list[str]) -> list[_Run]:
    """One _Run per banner (or per options header that follows no banner); the command
    line before a run names its test. Text without either is one run."""
    runs: list[_Run] = []
    pending: tuple[str | None, str | None] = (None, None)
    current: _Run | None = None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        banner = _BANNER.match(line)
        if banner or (stripped == _OPTIONS_HEADER and (current is None or current.saw_options)):
            current = _Run(line=number, version=banner[1] if banner else None)
            current.test, current.action = pending
            pending = (None, None)
            runs.append(current)
        elif (command := _command(line)) is not None:
            pending = command
        if current is None:
            continue
        current.saw_options = current.saw_options or stripped == _OPTIONS_HEADER
        _collect_facts(current, stripped, number)
    if not runs:
        current = _Run(line=1)
        current.test, current.action = pending
        for number, line in enumerate(lines, start=1):
            _collect_facts(current, line.strip(), number)
        runs.append(current)
    return runs


def _command(line: str) -> tuple[str | None, str | None] | None:
    """(test, action) from a `sysbench ...` command line, or None if the line is not one."""
    match = _COMMAND.search(line)
    if match is None:
        return None
    test = action = None
    for token in match[1].split():
        if token.startswith("--test="):
            test = token.removeprefix("--test=")
        elif token.lower() in _ACTIONS:
            action = token.lower()
        elif not token.startswith("-") and test is None:
            test = token
    if test is not None:
        test = test.rsplit("/", 1)[-1].removesuffix(".lua").lower()
        if not re.fullmatch(r"[a-z][a-z0-9_]*", test):
            test = None
    return test, action


def _collect_facts(run: _Run, stripped: str, number: int) -> None:
    for name, pattern in _FACTS.items():
        if name not in run.facts and (match := pattern.fullmatch(stripped)):
            run.facts[name] = (match, number)


# Results of one run -------------------------------------------------------------------------


def _run_results(run: _Run, warnings: list[str]) -> list[ParsedResult]:
    test = _test_name(run, warnings)
    if test is None:
        return []
    if "rate" in run.facts:
        warnings.append(
            f"the run at line {run.line} was capped at {run.facts['rate'][0][1]} transactions/s "
            "(--rate): its figures measure that target, not the maximum"
        )
    params = _params(test, run.facts)
    results = _throughput_results(test, run.facts, params)
    if not results:
        warnings.append(f"the sysbench {test} run at line {run.line} printed no throughput")
        return []
    latency = _latency_result(test, run.facts, params)
    if latency is not None:
        results.append(latency)
    if "transactions" in run.facts and "latency_avg" in run.facts:
        # The mean response time of an OLTP run: the signal study S5 reads for scaling up.
        results.append(
            ParsedResult(
                benchmark=f"sysbench:{test}:latency_avg",
                params=dict(params),
                value=_figure(run.facts, "latency_avg"),
                unit="ms",
                higher_is_better=False,
            )
        )
    return results


def _test_name(run: _Run, warnings: list[str]) -> str | None:
    facts = run.facts
    if run.action in ("prepare", "cleanup", "help"):
        return None
    doing = facts["doing"][0][1].lower() if "doing" in facts else ""
    if run.test:
        return run.test
    if doing in _LEGACY_TESTS:
        return _LEGACY_TESTS[doing]
    if doing in _FILEIO_MODES or "reads" in facts or "legacy_file_operations" in facts:
        return "fileio"
    if "cpu_events" in facts or "max_prime" in facts:
        return "cpu"
    if "memory_mib" in facts:
        return "memory"
    if "transactions" in facts:
        warnings.append(
            f"the run at line {run.line} does not say which OLTP test it was "
            "(no sysbench command line): stored as sysbench:oltp"
        )
        return "oltp"
    if "eps" in facts or "total_events" in facts:
        warnings.append(
            f"the run at line {run.line} does not say which sysbench test it was; "
            "include the sysbench command line to keep its results"
        )
    return None


def _params(test: str, facts: dict) -> dict:
    """The params every result of the run shares: threads, and what sets the test's size."""
    params = {}
    if "threads" in facts:
        params["threads"] = int(facts["threads"][0][1])
    if test == "cpu" and "max_prime" in facts:
        params["max_prime"] = int(facts["max_prime"][0][1])
    if test == "fileio" and "doing" in facts:
        mode = _FILEIO_MODES.get(facts["doing"][0][1].lower())
        if mode is not None:
            params["mode"] = mode
    if test in ("memory", "fileio") and "block_size" in facts:
        block_size = size_in_bytes(facts["block_size"][0][1])
        if block_size is not None:
            params["block_size"] = block_size
    if test == "memory" and "memory_operation" in facts:
        params["operation"] = facts["memory_operation"][0][1].lower()
    return params


def _throughput_results(test: str, facts: dict, params: dict) -> list[ParsedResult]:
    key = f"sysbench:{test}"
    if "transactions" in facts:
        return _oltp_results(key, facts, params)
    if test == "fileio":
        return _fileio_results(key, facts, params)
    if test == "memory" and "memory_mib" in facts:
        return _memory_results(key, facts, params)
    events_per_second = _events_per_second(facts)
    if events_per_second is None:
        return []
    return [ParsedResult(key, dict(params), events_per_second, "event/s")]


def _oltp_results(key: str, facts: dict, params: dict) -> list[ParsedResult]:
    results = [ParsedResult(key, dict(params), _figure(facts, "transactions"), "tx/s")]
    if "queries" in facts:
        queries = _figure(facts, "queries")
    elif "read_write_requests" in facts:
        # sysbench 0.4/0.5 split queries into read/write requests and other operations.
        queries = _figure(facts, "read_write_requests") + _figure(facts, "other_operations", 0)
    else:
        return results
    results.append(ParsedResult(f"{key}:queries", dict(params), queries, "query/s"))
    return results


def _memory_results(key: str, facts: dict, params: dict) -> list[ParsedResult]:
    # sysbench 0.4's "MB" is a mebibyte, like 1.0's "MiB".
    bandwidth = binary_bytes(_figure(facts, "memory_mib"), "M")
    results = [ParsedResult(key, dict(params), bandwidth, "B/s")]
    if "memory_operations" in facts:
        operations = _figure(facts, "memory_operations")
        results.append(ParsedResult(f"{key}:operations", dict(params), operations, "op/s"))
    return results


def _fileio_results(key: str, facts: dict, params: dict) -> list[ParsedResult]:
    results = []
    for direction, (operations, mib) in _fileio_rates(facts).items():
        if operations <= 0 and mib <= 0:
            continue
        direction_params = {**params, "direction": direction}
        results.append(ParsedResult(key, direction_params, operations, "op/s"))
        bandwidth = binary_bytes(mib, "M")
        results.append(ParsedResult(f"{key}:bandwidth", dict(direction_params), bandwidth, "B/s"))
    return results


def _fileio_rates(facts: dict) -> dict[str, tuple[float, float]]:
    """direction -> (operations per second, MiB per second), in whichever form was printed."""
    if "reads" in facts:
        return {
            "read": (_figure(facts, "reads"), _figure(facts, "read_mib", 0)),
            "write": (_figure(facts, "writes", 0), _figure(facts, "write_mib", 0)),
        }
    if "read_iops_mib" in facts or "write_iops_mib" in facts:
        rates = {}
        for direction in ("read", "write"):
            if f"{direction}_iops_mib" in facts:
                match = facts[f"{direction}_iops_mib"][0]
                rates[direction] = (float(match[1]), float(match[2]))
        return rates
    if "legacy_file_operations" in facts and "total_time" in facts:
        # sysbench 0.4/0.5 print counts and totals; the rates are those over the run's time.
        seconds = _figure(facts, "total_time")
        if seconds <= 0:
            return {}
        counts = facts["legacy_file_operations"][0]
        sizes = facts.get("legacy_file_bytes", (None, 0))[0]
        mib = [0.0, 0.0]
        if sizes is not None:
            mib = [
                binary_bytes(float(sizes[1]), sizes[2]) / 1024**2,
                binary_bytes(float(sizes[3]), sizes[4]) / 1024**2,
            ]
        return {
            "read": (int(counts[1]) / seconds, mib[0] / seconds),
            "write": (int(counts[2]) / seconds, mib[1] / seconds),
        }
    return {}


def _events_per_second(facts: dict) -> float | None:
    for name in ("cpu_events", "eps"):
        if name in facts:
            return _figure(facts, name)
    if "total_events" in facts and "total_time" in facts and _figure(facts, "total_time") > 0:
        return _figure(facts, "total_events") / _figure(facts, "total_time")
    return None


def _latency_result(test: str, facts: dict, params: dict) -> ParsedResult | None:
    if "percentile" not in facts:
        return None
    match = facts["percentile"][0]
    percentile = int(match[1] or match[2])
    return ParsedResult(
        benchmark=f"sysbench:{test}:{percentile_suffix(percentile)}",
        params=dict(params),
        value=float(match[3]),
        unit="ms",
        higher_is_better=False,
    )


def _figure(facts: dict, name: str, default: float | None = None) -> float:
    if name not in facts:
        if default is None:
            raise ParseError(f"the sysbench report lacks its {name.replace('_', ' ')} line")
        return default
    return float(facts[name][0][1])


def _nothing_found(runs: list[_Run], warnings: list[str]) -> ParseError:
    for run in runs:
        if "fatal" in run.facts:
            match, line = run.facts["fatal"]
            return ParseError(f"sysbench failed: {match[1]}", line=line)
    reason = f" ({'; '.join(warnings)})" if warnings else ""
    return ParseError(
        "no sysbench results found: no report with transactions, events per second, "
        f"MiB/sec or file operations{reason}",
        line=runs[0].line,
    )
