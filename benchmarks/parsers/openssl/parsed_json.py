"""Spare Cores' own parse of an `openssl speed` run (`parsed.json`) -> ParsedOutput.

A JSON list of `{"algo", "block_size", "speed"}`, speed in bytes per second summed over all
processes; it does not record how many processes ran.
"""

from __future__ import annotations

import math

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import DocumentLines, load_document
from benchmarks.parsers.openssl.figures import FORMAT, symmetric_figures

_FIELDS = ("algo", "block_size", "speed")


def looks_like(text: str) -> bool:
    """True when the text opens with a list whose first records name every field."""
    head = text.lstrip()[:400]
    return head.startswith("[") and all(f'"{name}"' in head for name in _FIELDS)


def parse(text: str, processes: int | None) -> ParsedOutput:
    """One result per record; `processes` is the `-multi` count, left out when not given."""
    document, _first_line, end = load_document(text, openers="[")
    lines = DocumentLines(text, openers="[")
    if text[end:].strip():
        raise ParseError("unexpected text after the JSON document", line=lines.at(end))
    if not isinstance(document, list) or not document:
        raise ParseError("expected a list of {algo, block_size, speed} records", line=lines.of(()))
    output = ParsedOutput(format=FORMAT)
    for index, record in enumerate(document):
        if not isinstance(record, dict) or not all(name in record for name in _FIELDS):
            raise ParseError(
                f"record {index} is not an {{algo, block_size, speed}} object",
                line=lines.of((index,)),
            )
        algo, block_size, speed = (record[name] for name in _FIELDS)
        if not isinstance(algo, str) or not algo.strip():
            raise ParseError(f"record {index}: algo is not a name", line=lines.of((index, "algo")))
        if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size < 1:
            raise ParseError(
                f"record {index}: block_size is not a positive whole number: {block_size!r}",
                line=lines.of((index, "block_size")),
            )
        if not isinstance(speed, int | float) or isinstance(speed, bool) or not _measurable(speed):
            raise ParseError(
                f"record {index}: speed is not a number that is not negative: {speed!r}",
                line=lines.of((index, "speed")),
            )
        (figure,) = symmetric_figures(algo, [block_size], [float(speed)])
        params: dict[str, int] = {"block_size": block_size}
        if processes is not None:
            params["processes"] = processes
        output.results.append(ParsedResult(figure.benchmark, params, figure.value, figure.unit))
    if processes is None:
        output.warnings.append(
            "Spare Cores' parsed.json does not record how many processes ran (openssl speed "
            "-multi N); processes is left out: pass it (Spare Cores run one per vCPU)"
        )
    return output


def _measurable(value: float) -> bool:
    return math.isfinite(value) and value >= 0
