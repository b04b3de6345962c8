"""NVIDIA's nvbandwidth JSON (`nvbandwidth -j`) -> ParsedOutput (format `nvbandwidth`).

The document: `{"nvbandwidth": {"version", "Driver Version", "testcases": [{"name",
"status", "bandwidth_description", "bandwidth_matrix", "sum"}], "error"?}}`. A testcase that
`Passed` has a matrix of copies (a row per source, a column per destination; cells are
strings, "N/A" where no copy ran) and their `sum`; `Waived` ones do not apply to the machine
(device-to-device copies on one GPU). nvbandwidth's GB is 10^9 bytes (memcpy.cpp multiplies
bytes per second by 1e-9). Some runs print a line or two of the driver's notices first.

Keys, no params:
- `nvbandwidth:<testcase>` (`nvbandwidth:host_to_device_memcpy_ce`, ...): the testcase's
  sum over its copies, bytes per second (`B/s`), higher is better;
- `nvbandwidth:<testcase>` of a latency testcase (`host_device_latency_sm`, a description
  in ns): the mean of its cells in seconds (`s`), lower is better.
The note keeps the testcase's description. A document with an `error` and no passed
testcase (no usable GPU) is refused with nvbandwidth's own message.
"""

from __future__ import annotations

import math
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import load_document

FORMAT = "nvbandwidth"
BYTES_PER_GB = 1e9
SECONDS_PER_NS = 1e-9
PASSED = "Passed"


def looks_like(text: str) -> bool:
    """True for a JSON object whose first key is `nvbandwidth`."""
    start = text.find("{")
    return start >= 0 and text[start + 1 : start + 200].lstrip().startswith('"nvbandwidth"')


def parse(text: str) -> ParsedOutput:
    """One result per passed testcase."""
    document, first_line, _end = load_document(text, openers="{")
    body = document.get("nvbandwidth") if isinstance(document, dict) else None
    if not isinstance(body, dict):
        raise ParseError('expected a JSON object with an "nvbandwidth" object', line=first_line)
    output = ParsedOutput(format=FORMAT, tool_version=str(body.get("version") or "") or None)
    testcases = body.get("testcases") or []
    if not isinstance(testcases, list):
        raise ParseError("testcases is not a list", line=first_line)
    unfinished = []
    for testcase in testcases:
        if not isinstance(testcase, dict) or not isinstance(testcase.get("name"), str):
            raise ParseError("a testcase without a name", line=first_line)
        status = testcase.get("status")
        if status == PASSED:
            output.results.append(_result(testcase, first_line))
        elif status != "Waived":
            unfinished.append(f"{testcase['name']} ({status})")
    error = str(body.get("error") or "").strip()
    if not output.results:
        reason = f"nvbandwidth reports: {error}" if error else "no testcase passed"
        raise ParseError(reason, line=first_line)
    if error or unfinished:
        output.warnings.append(
            f"testcases that did not finish: {', '.join(unfinished) or 'none'}"
            + (f"; nvbandwidth reports: {error}" if error else "")
        )
    return output


def _result(testcase: dict[str, Any], line: int) -> ParsedResult:
    name, description = testcase["name"], str(testcase.get("bandwidth_description") or "")
    key = f"nvbandwidth:{name}"
    if description.endswith("(ns)"):
        cells = [_cell(cell, name, line) for row in _matrix(testcase, line) for cell in row]
        figures = [cell for cell in cells if cell is not None]
        if not figures:
            raise ParseError(f"{name}: no figure in its matrix", line=line)
        mean = sum(figures) / len(figures) * SECONDS_PER_NS
        return ParsedResult(key, {}, mean, "s", higher_is_better=False, notes=description)
    if not description.endswith("(GB/s)"):
        raise ParseError(f"{name}: {description!r} is neither in GB/s nor in ns", line=line)
    total = testcase.get("sum")
    if isinstance(total, bool) or not isinstance(total, int | float) or not math.isfinite(total):
        raise ParseError(f"{name}: sum {total!r} is not a figure", line=line)
    return ParsedResult(key, {}, float(total) * BYTES_PER_GB, "B/s", notes=description)


def _matrix(testcase: dict[str, Any], line: int) -> list[list]:
    matrix = testcase.get("bandwidth_matrix")
    if not isinstance(matrix, list) or not all(isinstance(row, list) for row in matrix):
        raise ParseError(f"{testcase['name']}: bandwidth_matrix is not a matrix", line=line)
    return matrix


def _cell(cell: Any, name: str, line: int) -> float | None:
    if cell == "N/A":
        return None
    try:
        value = float(cell)
    except (TypeError, ValueError):
        raise ParseError(f"{name}: {cell!r} is not a figure", line=line) from None
    return value
