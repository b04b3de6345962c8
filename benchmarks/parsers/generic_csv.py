"""A CSV of results the user measured themselves -> ParsedResult rows (format `csv`).

One header line, then one result per line. Columns (docs/formats.md, "Tables of results"):
- required: `benchmark`, `instance_type`, `region`, `value`, `unit`;
- optional: `variant`, `measured_at` (YYYY-MM-DD), `cpu_model`, `higher_is_better`
  (true/false/1/0/yes/no; default true), `notes`, `source` and `licence` (where the figure
  comes from, for data not measured by the uploader), and any number of `param.<name>` columns,
  whose cells become int or float when they look numeric and stay strings otherwise.

The benchmark key is kept as given but lower-cased (`keycloak:oauth2-login`); it must have the
form `tool:test` (further `:metric` parts are allowed). Values must be finite and not
negative. Columns not named above are ignored with a warning. Commas separate cells; a header
without commas but with semicolons or tabs sets that separator instead (spreadsheet exports).

`result_from_row` is shared with the JSON reader (generic_json.py), which accepts the same
fields.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Mapping
from datetime import date
from functools import lru_cache
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError, first_filled_line

REQUIRED_COLUMNS = ("benchmark", "instance_type", "region", "value", "unit")
OPTIONAL_COLUMNS = (
    "variant",
    "measured_at",
    "cpu_model",
    "higher_is_better",
    "notes",
    "source",
    "licence",
)
PARAM_PREFIX = "param."

_BENCHMARK_KEY = re.compile(r"[^\s:]+(?::[^\s:]+)+")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_INTEGER = re.compile(r"[+-]?\d+")
# Plain decimal notation only: float() would also take "nan", "inf" and "1_000".
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_NOT_FINITE = {"nan", "inf", "infinity"}
_BOOLEANS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def looks_like(text: str) -> bool:
    """True when the first non-blank line is a header with `benchmark` and `value` columns."""
    header = _first_line(text)
    if header is None:
        return False
    names = {name.strip().lower() for name in header.split(_delimiter(header))}
    return {"benchmark", "value"} <= names


def parse(text: str) -> ParsedOutput:
    """Read every row; the first bad cell raises ParseError naming its column and line."""
    lines = text.splitlines()
    header_index = first_filled_line(lines)
    header_line = header_index + 1
    delimiter = _delimiter(lines[header_index])
    reader = csv.reader(io.StringIO("\n".join(lines[header_index:])), delimiter=delimiter)
    output = ParsedOutput(format="csv")
    try:
        columns = _read_header(next(reader), line=header_line)
        output.warnings.extend(unknown_column_warnings(columns))
        params = param_columns(columns)
        for cells in reader:
            line = header_index + reader.line_num
            if any(cell.strip() for cell in cells):
                output.results.append(_row_result(columns, cells, line=line, params=params))
    except csv.Error as error:
        raise ParseError(f"unreadable CSV: {error}", line=header_index + reader.line_num) from None
    if not output.results:
        raise ParseError("the CSV has a header but no result rows", line=header_line)
    return output


def _row_result(
    columns: list[str], cells: list[str], *, line: int, params: list[tuple[str, str]]
) -> ParsedResult:
    if len(cells) > len(columns):
        raise ParseError(
            f"this row has {len(cells)} cells but the header names {len(columns)} columns",
            line=line,
        )
    return result_from_row(dict(zip(columns, cells, strict=False)), line=line, params=params)


def param_columns(columns: Iterable[str]) -> list[tuple[str, str]]:
    """(column, parameter name) of the `param.<name>` columns, found once per table."""
    return [
        (column, column.removeprefix(PARAM_PREFIX))
        for column in columns
        if column.startswith(PARAM_PREFIX)
    ]


def result_from_row(
    row: Mapping[str, Any],
    *,
    line: int | None,
    where: str = "",
    params: list[tuple[str, str]] | None = None,
) -> ParsedResult:
    """One row (column name -> cell) as a ParsedResult; ParseError names the bad column.

    Cells may be strings (CSV) or JSON values; `where` prefixes messages (`row 3: `) for
    input without line numbers. A `params` mapping (JSON) joins the `param.<name>` cells.
    `params` lists the rows' `param_columns` when the caller knows them (a table's header).
    """

    def fail(column: str, problem: str) -> ParseError:
        return ParseError(f"{where}column {column!r} {problem}", line=line)

    benchmark, instance_type, region, _, unit = required = [
        _text(row[column]) if column in row else _MISSING for column in REQUIRED_COLUMNS
    ]
    if _MISSING in required or None in required:
        for column, text in zip(REQUIRED_COLUMNS, required, strict=True):
            if text is _MISSING:
                raise fail(column, "is missing (required: " + ", ".join(REQUIRED_COLUMNS) + ")")
            if text is None:
                raise fail(column, "is empty; it is required")

    benchmark, valid = _benchmark_key(benchmark)
    if not valid:
        raise fail("benchmark", f"must look like tool:test (got {benchmark!r})")

    get = row.get
    return ParsedResult(
        benchmark=benchmark,
        params=_params(row, fail, params),
        value=_value(row["value"], fail),
        unit=unit,
        higher_is_better=_boolean(get("higher_is_better"), fail),
        instance_type=instance_type,
        region=region,
        variant=_text(get("variant")),
        measured_at=_date(get("measured_at"), fail),
        cpu_model=_text(get("cpu_model")),
        notes=_text(get("notes")),
        source=_text(get("source")),
        licence=_text(get("licence")),
    )


_MISSING: Any = object()  # a required column the row lacks (its text would be None)


def unknown_column_warnings(columns: Iterable[str]) -> list[str]:
    """A warning for each column the results format does not define (a typo, usually)."""
    known = {*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS, "params"}
    return [
        f"ignored column {column!r}: not one of the results columns"
        for column in columns
        if column not in known and not column.startswith(PARAM_PREFIX)
    ]


def _first_line(text: str) -> str | None:
    return next((line for line in text.splitlines() if line.strip()), None)


def _delimiter(header: str) -> str:
    if "," in header:
        return ","
    if ";" in header:
        return ";"
    if "\t" in header:
        return "\t"
    return ","


def _read_header(cells: list[str], *, line: int) -> list[str]:
    columns = []
    for cell in cells:
        name = cell.strip()
        if not name.startswith(PARAM_PREFIX):
            name = name.lower()
        if name in columns:
            raise ParseError(f"column {name!r} appears twice in the header", line=line)
        if name == PARAM_PREFIX:
            raise ParseError("a 'param.' column needs a name after the dot", line=line)
        columns.append(name)
    missing = [column for column in REQUIRED_COLUMNS if column not in columns]
    if missing:
        raise ParseError(
            f"the header lacks the required column(s) {', '.join(map(repr, missing))}",
            line=line,
        )
    return columns


def _text(cell: Any) -> str | None:
    if cell is None:
        return None
    text = str(cell).strip()
    return text or None


def _value(cell: Any, fail) -> float:
    if isinstance(cell, int | float) and not isinstance(cell, bool):
        value = float(cell)
    elif isinstance(cell, str) and _NUMBER.fullmatch(cell.strip()):
        value = float(cell)
    elif isinstance(cell, str) and cell.strip().lower().lstrip("+-") in _NOT_FINITE:
        raise fail("value", f"must be a finite number (got {cell!r})")
    else:
        raise fail("value", f"must be a number (got {cell!r})")
    if not math.isfinite(value):
        raise fail("value", f"must be a finite number (got {cell!r})")
    if value < 0:
        raise fail("value", f"must not be negative (got {cell!r})")
    return value


def _boolean(cell: Any, fail) -> bool:
    if isinstance(cell, bool):
        return cell
    text = _text(cell)
    if text is None:
        return True
    if text.lower() not in _BOOLEANS:
        raise fail("higher_is_better", f"must be true/false, 1/0 or yes/no (got {text!r})")
    return _BOOLEANS[text.lower()]


# A table repeats its benchmarks, dates and parameter values on every row: each distinct cell
# is checked once (the checks are pure functions of the text), which halves a table's parse.
_SEEN_CELLS = 4096


@lru_cache(maxsize=_SEEN_CELLS)
def _benchmark_key(text: str) -> tuple[str, bool]:
    """The benchmark key as stored (lower case), and whether it has the form tool:test."""
    key = text.lower()
    return key, _BENCHMARK_KEY.fullmatch(key) is not None


@lru_cache(maxsize=_SEEN_CELLS)
def _iso_day(text: str) -> str | None:
    """The ISO day of a YYYY-MM-DD text, or None when it is not one."""
    try:
        return date.fromisoformat(text).isoformat() if _ISO_DATE.fullmatch(text) else None
    except ValueError:
        return None


def _date(cell: Any, fail) -> str | None:
    text = _text(cell)
    if text is None:
        return None
    day = _iso_day(text)
    if day is None:
        raise fail("measured_at", f"must be a date YYYY-MM-DD (got {text!r})")
    return day


def _params(
    row: Mapping[str, Any], fail, columns: list[tuple[str, str]] | None = None
) -> dict[str, Any]:
    if columns is None:
        columns = param_columns(row)
    # A wide table leaves most of a row's parameter cells empty (the demo's: 19 of 21), and
    # an empty cell names no parameter: skipped before any check.
    cells = {name: cell for column, name in columns if (cell := row.get(column, "")) != ""}
    extra = row.get("params")
    if extra is not None:
        if not isinstance(extra, Mapping):
            raise fail("params", "must be an object of name -> value")
        cells.update(extra)

    params = {}
    for name, cell in cells.items():
        if isinstance(cell, bool) or cell is None:
            value = cell
        elif isinstance(cell, int | float | str):
            value = _param_value(cell)
        else:
            raise fail(f"{PARAM_PREFIX}{name}", "must be a string or a number")
        if value is None or value == "":
            continue
        if isinstance(value, float) and not math.isfinite(value):
            raise fail(f"{PARAM_PREFIX}{name}", f"must be a finite number (got {cell!r})")
        params[name] = value
    return params


def _param_value(cell: int | float | str) -> int | float | str:
    """Numbers stay numbers; strings that look numeric become int or float."""
    if not isinstance(cell, str):
        return cell
    return _param_text_value(cell)


@lru_cache(maxsize=_SEEN_CELLS)
def _param_text_value(cell: str) -> int | float | str:
    text = cell.strip()
    if _INTEGER.fullmatch(text):
        return int(text)
    if _NUMBER.fullmatch(text):
        return float(text)
    return text
