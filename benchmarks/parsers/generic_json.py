"""A JSON of results the user measured themselves -> ParsedResult rows (format `json`).

The document is a list of row objects or `{"results": [row, ...]}`. A row has the fields of
the CSV format (generic_csv.py): `benchmark`, `instance_type`, `region`, `value`, `unit`
required; `variant`, `measured_at`, `cpu_model`, `higher_is_better`, `notes`, `source`,
`licence` and `param.<name>` optional; and it may carry its parameters as a `params` object.
Errors name the row by its index (`row 0` is the first) and the field.
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParseError
from benchmarks.parsers.generic_csv import result_from_row, unknown_column_warnings
from benchmarks.parsers.jsondoc import load_document


def looks_like(text: str) -> bool:
    """True for a JSON list of rows (or `{"results": [...]}`) whose first row carries
    `benchmark` and `value`; a tool's own JSON (iperf3, fio) has no such rows."""
    stripped = text.strip()
    if not stripped.startswith(("[", "{")):
        return False
    try:
        document = json.loads(stripped)
    except ValueError:
        return False
    rows = _rows(document)
    return bool(rows) and isinstance(rows[0], dict) and {"benchmark", "value"} <= rows[0].keys()


def parse(text: str) -> ParsedOutput:
    """Read every row; the first bad field raises ParseError naming the row and field."""
    document, _line, end = load_document(text, openers="[{")
    if text[end:].strip():
        raise ParseError(
            "unexpected text after the JSON document", line=text.count("\n", 0, end) + 1
        )
    rows = _rows(document)
    if rows is None:
        raise ParseError('expected a list of result rows, or {"results": [...]}')
    if not rows:
        raise ParseError("the JSON holds no result rows")

    output = ParsedOutput(format="json")
    fields: list[str] = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ParseError(f"row {index} is not an object but {type(row).__name__}")
        output.results.append(result_from_row(row, line=None, where=f"row {index}: "))
        fields.extend(name for name in row if name not in fields)
    output.warnings.extend(unknown_column_warnings(fields))
    return output


def _rows(document: Any) -> list[Any] | None:
    if isinstance(document, list):
        return document
    if isinstance(document, dict) and isinstance(document.get("results"), list):
        return document["results"]
    return None
