"""iperf3 output -> network throughput results (format `iperf3`).

Reads the `-J` JSON of any iperf 3.x and the plain-text report (`Bandwidth` or `Bitrate`
header, Linux and Windows layouts, shell prompts around it). Only the end-of-test summary is
read: interval lines, omitted (`-O`) intervals included, are not results.

Keys, units and params:
- `iperf3:tcp` / `iperf3:udp` (`iperf3:sctp`): bits per second, unit `bit/s`, one result per
  summary row: params `streams` (the `-P` count) and `direction`: `send` for what the sender
  measured (`sender` row, `end.sum_sent`), `receive` for the receiver (`receiver` row,
  `end.sum_received`). With several streams the `[SUM]` figures are used.
- `iperf3:udp:jitter` (unit `ms`) and `iperf3:udp:loss` (unit `percent`, lost datagrams of
  those sent), as the receiver measured them; lower is better; params `streams`.
- Every result also has `processes`: 1 for one iperf3 process. A measurement made of several
  iperf3 processes run at once (study S3: 30 single-stream processes between two
  c5n.18xlarge) is one text holding each process's output behind a `==> NAME <==` line, the
  layout of `tail -n +1 FILE...` (and of several files uploaded as one measurement): its
  throughput is the sum over the processes, with params `processes` (their number) and
  `streams` (each process's `-P`, the same in all).

A run capped by one end is warned of: by its sender when the test sent at a target rate
(`-b`) or the sender's iperf3 used a whole core (`cpu_utilization_percent`, or `CPU
Utilization` in a `-V` text report, at 95% or more); by its receiver when the receiver's did.
The warnings start "capped by its sender" / "capped by its receiver" (benchmarks.flags may
flag such runs from them).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import load_document
from benchmarks.parsers.units import NUMBER, binary_bytes, decimal_multiple

_JSON_SIGNATURE = re.compile(
    r'"(?:test_start|sum_sent|connecting_to)"\s*:|"version"\s*:\s*"iperf 3'
)
_TEXT_HEADER = re.compile(
    r"^\s*\[ ID\](?:\[Role\])?\s+Interval\s+Transfer\s+(?:Bandwidth|Bitrate)", re.MULTILINE
)
_VERSION = re.compile(r"\biperf (3\.\d+[\w.+-]*)")
_SEPARATOR = re.compile(r"^\s*(?:- ){5,}")
_ROW = re.compile(
    r"^\s*\[\s*(?P<stream>\d+|SUM)\](?:\[(?P<role>[TR]X-[CS])\])?\s+"
    rf"{NUMBER}\s*-\s*{NUMBER}\s+sec\s+{NUMBER}\s+\w*Bytes\s+"
    rf"(?P<rate>{NUMBER})\s+(?P<prefix>[KMGT]?)(?P<rate_unit>bits|Bytes)/sec(?P<rest>.*)$"
)
_UDP_QUALITY = re.compile(rf"(?P<jitter>{NUMBER})\s+ms\s+(?P<lost>-?\d+)/(?P<total>\d+)")
_LABELS = {"sender": "send", "receiver": "receive"}
_PART_HEADER = re.compile(r"^==> (?P<name>.+?) <==[ \t]*$", re.MULTILINE)
_TEXT_CPU = re.compile(
    rf"CPU Utilization: local/(?P<local_role>sender|receiver) (?P<local>{NUMBER})%.*?"
    rf"remote/(?P<remote_role>sender|receiver) (?P<remote>{NUMBER})%"
)
# A single-threaded iperf3 at this share of a core is what limits the run (study S3: one
# process tops out near 25 Gbit/s with one core at 100% system time).
CPU_CAPPED_PERCENT = 95.0
SENDER_CAPPED = "capped by its sender"
RECEIVER_CAPPED = "capped by its receiver"


@dataclass(frozen=True)
class _Row:
    """One summary row of the text report."""

    stream: str  # a stream number, or "SUM"
    direction: str  # send / receive
    bits_per_second: float
    jitter_ms: float | None
    lost: int | None
    datagrams: int | None


def looks_like(text: str) -> bool:
    """True for iperf3 `-J` JSON or a text report with its `[ ID] Interval` header."""
    return bool(_JSON_SIGNATURE.search(text) or _TEXT_HEADER.search(text))


def parse(text: str) -> ParsedOutput:
    """The summary of one iperf3 run, from its JSON or its text report; several processes'
    outputs behind `==> NAME <==` lines are summed into one measurement."""
    parts = split_processes(text)
    if parts:
        return _parse_processes(parts)
    return _parse_one(text)


def _parse_one(text: str) -> ParsedOutput:
    """One iperf3 process's output."""
    if _JSON_SIGNATURE.search(text) and re.search(r"^\s*\{", text, re.MULTILINE):
        return _parse_json(text)
    if not _TEXT_HEADER.search(text):
        raise ParseError(
            "not iperf3 output: no `-J` JSON and no '[ ID] Interval  Transfer  Bitrate' header",
            line=1,
        )
    return _parse_text(text)


# JSON ---------------------------------------------------------------------------------------


def _parse_json(text: str) -> ParsedOutput:
    document, first_line, end_offset = load_document(text)
    if not isinstance(document, dict):
        raise ParseError(
            "not iperf3 JSON: expected an object with `start` and `end`", line=first_line
        )
    start = _object(document.get("start"))
    end = _object(document.get("end"))
    test_start = _object(start.get("test_start"))
    summaries = _json_summaries(end)
    if not summaries:
        error = document.get("error")
        problem = f"iperf3 reported an error: {error}" if error else "the test did not finish"
        raise ParseError(f"no end-of-test summary in the iperf3 JSON ({problem})")

    output = ParsedOutput(format="iperf3", tool_version=_version(str(start.get("version", ""))))
    output.warnings.extend(_json_warnings(document, test_start, trailing=text[end_offset:]))
    output.warnings.extend(_json_cpu_caps(end, test_start))
    protocol = str(test_start.get("protocol") or _guess_protocol(end)).lower()
    streams = _json_streams(start, test_start)
    for direction, summary in summaries:
        bits_per_second = _json_number(summary, "bits_per_second")
        output.results.append(
            _throughput(f"iperf3:{protocol}", streams, direction, bits_per_second)
        )
    quality = _json_udp_quality(end) if protocol == "udp" else None
    if quality is not None:
        jitter = _json_number(quality, "jitter_ms")
        lost_percent = _json_number(quality, "lost_percent")
        output.results.extend(_udp_quality_results(streams, jitter, lost_percent))
    return output


def _json_warnings(document: dict, test_start: dict, *, trailing: str) -> list[str]:
    warnings = []
    if trailing.strip():
        warnings.append("only the first JSON document is read; the text after it is not")
    if document.get("error"):
        warnings.append(f"iperf3 reported an error: {document['error']}")
    if "sum_sent_bidir_reverse" in _object(document.get("end")):
        warnings.append("bidirectional test (--bidir): only the client-to-server figures are read")
    target = test_start.get("target_bitrate")
    if isinstance(target, int | float) and target > 0:
        warnings.append(
            f"{SENDER_CAPPED}: the test sent at a target rate of {target:g} bit/s per stream "
            "(-b): its figures measure that target, not the maximum"
        )
    return warnings


def _json_cpu_caps(end: dict, test_start: dict) -> list[str]:
    """Caps the JSON's CPU figures show: the client sends unless the test ran reversed (-R)."""
    cpu = _object(end.get("cpu_utilization_percent"))
    host, remote = cpu.get("host_total"), cpu.get("remote_total")
    if test_start.get("reverse"):
        return _cpu_caps(sender=remote, receiver=host)
    return _cpu_caps(sender=host, receiver=remote)


def _cpu_caps(*, sender, receiver) -> list[str]:
    caps = []
    for label, percent in ((SENDER_CAPPED, sender), (RECEIVER_CAPPED, receiver)):
        if isinstance(percent, int | float) and percent >= CPU_CAPPED_PERCENT:
            side = label.rsplit(" ", 1)[-1]
            caps.append(f"{label}: the {side}'s iperf3 used {percent:.1f}% of a core")
    return caps


def _json_streams(start: dict, test_start: dict) -> int:
    streams = test_start.get("num_streams")
    if isinstance(streams, int) and streams >= 1:
        return streams
    connected = start.get("connected")
    return len(connected) if isinstance(connected, list) and connected else 1


def _object(value) -> dict:
    return value if isinstance(value, dict) else {}


def _json_summaries(end: dict) -> list[tuple[str, dict]]:
    summaries = [
        (direction, end[key])
        for direction, key in (("send", "sum_sent"), ("receive", "sum_received"))
        if isinstance(end.get(key), dict)
    ]
    # Before 3.11 a UDP test summed up both sides in a single `sum`, with the sender's bytes.
    if not summaries and isinstance(end.get("sum"), dict):
        summaries = [("send", end["sum"])]
    return summaries


def _json_udp_quality(end: dict) -> dict | None:
    for key in ("sum_received", "sum"):
        if isinstance(end.get(key), dict) and "jitter_ms" in end[key]:
            return end[key]
    return None


def _guess_protocol(end: dict) -> str:
    return "udp" if _json_udp_quality(end) is not None else "tcp"


def _json_number(summary: dict, name: str) -> float:
    value = summary.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ParseError(f"the iperf3 JSON summary has no numeric `{name}` (got {value!r})")
    return float(value)


# Text ---------------------------------------------------------------------------------------


def _parse_text(text: str) -> ParsedOutput:
    lines = text.splitlines()
    version = next((_version(line) for line in lines if _version(line)), None)
    output = ParsedOutput(format="iperf3", tool_version=version)
    udp = any("Jitter" in line or "Datagrams" in line for line in lines if "[ ID]" in line)
    benchmark = "iperf3:udp" if udp else "iperf3:tcp"

    summaries, ignored_roles = _summaries(lines, udp=udp)
    if ignored_roles:
        output.warnings.append(
            "bidirectional test (--bidir): only the [TX-*] rows are read, not the [RX-*] ones"
        )
    if not summaries:
        raise ParseError(
            "the iperf3 report has no sender/receiver summary (was the test interrupted?)",
            line=len(lines),
        )
    # A file may hold several runs one after another: each summary is one run.
    for rows in summaries:
        streams = len({row.stream for row in rows if row.stream != "SUM"}) or 1
        chosen = [row for row in rows if row.stream == "SUM"] or rows
        for row in chosen:
            output.results.append(
                _throughput(benchmark, streams, row.direction, row.bits_per_second)
            )
        if udp:
            output.results.extend(_text_udp_quality(chosen, streams))
    cpu = _TEXT_CPU.search(text)
    if cpu is not None:
        percents = {
            cpu["local_role"]: float(cpu["local"]),
            cpu["remote_role"]: float(cpu["remote"]),
        }
        output.warnings.extend(
            _cpu_caps(sender=percents.get("sender"), receiver=percents.get("receiver"))
        )
    return output


def _summaries(lines: list[str], *, udp: bool) -> tuple[list[list[_Row]], bool]:
    """The summary rows of each run: the rows labelled sender/receiver that follow a
    separator line. Old UDP reports (3.0, 3.1) label nothing: there the rows with jitter
    after the last separator are the summary, the sender's bytes with the receiver's jitter."""
    labelled: list[list[_Row]] = [[]]
    unlabelled: list[_Row] = []
    ignored_roles = False
    for line in lines:
        if _SEPARATOR.match(line):
            labelled.append([])
            unlabelled = []
            continue
        match = _ROW.match(line)
        if match is None:
            continue
        if match["role"] and match["role"].startswith("RX"):
            ignored_roles = True
            continue
        rest = match["rest"].split()
        label = rest[-1] if rest else ""
        if label in _LABELS:
            labelled[-1].append(_text_row(match, _LABELS[label]))
        elif udp and _UDP_QUALITY.search(match["rest"]):
            unlabelled.append(_text_row(match, "send"))
    summaries = [rows for rows in labelled if rows]
    if not summaries and unlabelled:
        summaries = [unlabelled]
    return summaries, ignored_roles


def _text_row(match: re.Match, direction: str) -> _Row:
    rate = float(match["rate"])
    if match["rate_unit"] == "bits":
        bits_per_second = decimal_multiple(rate, match["prefix"])
    else:
        bits_per_second = 8 * binary_bytes(rate, match["prefix"])
    quality = _UDP_QUALITY.search(match["rest"])
    return _Row(
        stream=match["stream"],
        direction=direction,
        bits_per_second=bits_per_second,
        jitter_ms=float(quality["jitter"]) if quality else None,
        lost=int(quality["lost"]) if quality else None,
        datagrams=int(quality["total"]) if quality else None,
    )


def _text_udp_quality(rows: list[_Row], streams: int) -> list[ParsedResult]:
    # The receiver row holds what the receiver measured; old reports have only the one row.
    receiving = [row for row in rows if row.direction == "receive" and row.jitter_ms is not None]
    measured = receiving or [row for row in rows if row.jitter_ms is not None]
    if not measured:
        return []
    row = measured[0]
    lost_percent = 100 * row.lost / row.datagrams if row.datagrams else None
    return _udp_quality_results(streams, row.jitter_ms, lost_percent)


# Shared -------------------------------------------------------------------------------------


def _version(line: str) -> str | None:
    match = _VERSION.search(line)
    return match[1] if match else None


def _throughput(benchmark: str, streams: int, direction: str, bits_per_second: float):
    return ParsedResult(
        benchmark=benchmark,
        params={"streams": streams, "direction": direction, "processes": 1},
        value=bits_per_second,
        unit="bit/s",
    )


def _udp_quality_results(
    streams: int, jitter_ms: float, lost_percent: float | None
) -> list[ParsedResult]:
    results = [
        ParsedResult(
            benchmark="iperf3:udp:jitter",
            params={"streams": streams, "processes": 1},
            value=jitter_ms,
            unit="ms",
            higher_is_better=False,
        )
    ]
    if lost_percent is not None:
        results.append(
            ParsedResult(
                benchmark="iperf3:udp:loss",
                params={"streams": streams, "processes": 1},
                value=max(lost_percent, 0.0),
                unit="percent",
                higher_is_better=False,
            )
        )
    return results


# Several processes ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ProcessOutput:
    """One process's output in a measurement of several: its name and where its text starts."""

    name: str
    first_line: int  # the line after its `==> NAME <==` header, counted from 1
    text: str


def split_processes(text: str) -> list[ProcessOutput]:
    """The processes' outputs behind `==> NAME <==` lines; [] when the text has none."""
    headers = list(_PART_HEADER.finditer(text))
    if not headers:
        return []
    if text[: headers[0].start()].strip():
        line = text[: headers[0].start()].count("\n")
        raise ParseError(
            "text before the first `==> NAME <==` line: every process's output must follow "
            "its own header",
            line=line,
        )
    parts = []
    for index, header in enumerate(headers):
        end = headers[index + 1].start() if index + 1 < len(headers) else len(text)
        first_line = text.count("\n", 0, header.end()) + 2
        parts.append(ProcessOutput(header["name"], first_line, text[header.end() + 1 : end]))
    return parts


def join_processes(outputs: list[tuple[str, str]]) -> str:
    """(name, text) of each process -> the one text `parse` sums (inverse of split_processes)."""
    return "".join(f"==> {name} <==\n{text.rstrip()}\n\n" for name, text in outputs)


def _parse_processes(parts: list[ProcessOutput]) -> ParsedOutput:
    """Throughput summed over processes that ran at once; each must hold one summary."""
    parsed = []
    for number, part in enumerate(parts, 1):
        where = f"process {number} of {len(parts)} ({part.name})"
        if not part.text.strip():
            raise ParseError(f"{where}: the output is empty", line=part.first_line)
        try:
            output = _parse_one(part.text)
        except ParseError as error:
            line = part.first_line + error.line - 1 if error.line else part.first_line
            raise ParseError(f"{where}: {error.message}", line=line) from None
        throughput = [r for r in output.results if "direction" in r.params]
        directions = [r.params["direction"] for r in throughput]
        if len(directions) != len(set(directions)):
            raise ParseError(
                f"{where}: holds several runs one after another; a process of a measurement "
                "must hold one",
                line=part.first_line,
            )
        parsed.append((where, part, output, throughput))

    first_where, _, first, first_throughput = parsed[0]
    benchmark = first_throughput[0].benchmark
    streams = first_throughput[0].params["streams"]
    for where, part, _output, throughput in parsed[1:]:
        if throughput[0].benchmark != benchmark:
            raise ParseError(
                f"{where}: measured {throughput[0].benchmark}, {first_where} {benchmark}; "
                "the processes of one measurement run the same test",
                line=part.first_line,
            )
        if throughput[0].params["streams"] != streams:
            raise ParseError(
                f"{where}: ran {throughput[0].params['streams']} streams (-P), {first_where} "
                f"{streams}; the processes of one measurement run the same number",
                line=part.first_line,
            )

    combined = ParsedOutput(format="iperf3", tool_version=first.tool_version)
    for where, _part, output, _throughput in parsed:
        combined.warnings.extend(f"{where}: {warning}" for warning in output.warnings)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _where, _part, _output, throughput in parsed:
        for result in throughput:
            direction = result.params["direction"]
            sums[direction] = sums.get(direction, 0.0) + result.value
            counts[direction] = counts.get(direction, 0) + 1
    for direction in ("send", "receive"):
        if direction not in sums:
            continue
        if counts[direction] != len(parts):
            combined.warnings.append(
                f"only {counts[direction]} of {len(parts)} processes report what was "
                f"{'sent' if direction == 'send' else 'received'}: that sum is left out"
            )
            continue
        combined.results.append(
            ParsedResult(
                benchmark=benchmark,
                params={"streams": streams, "direction": direction, "processes": len(parts)},
                value=sums[direction],
                unit="bit/s",
            )
        )
    if not combined.results:
        raise ParseError("no direction is reported by every process: nothing to sum")
    if any(r.benchmark.startswith("iperf3:udp:") for _w, _p, o, _t in parsed for r in o.results):
        combined.warnings.append(
            "the processes' UDP jitter and loss are not combined; upload a process alone for them"
        )
    return combined
