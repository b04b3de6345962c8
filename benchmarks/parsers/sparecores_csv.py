"""The CSV tables Spare Cores' harness prints (redis, static_web): one header line of column
names, quoted (`"operation","threads",...`) in the inspector data and bare in older
harnesses, then one run per row. Shared by redis_benchmark.py and static_web.py."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

from benchmarks.parsers.base import ParseError, first_filled_line
from benchmarks.parsers.units import NUMBER_WITH_EXPONENT

_NUMBER = re.compile(NUMBER_WITH_EXPONENT)


@dataclass(frozen=True)
class Row:
    """One run: its line in the file and its cells by column name."""

    line: int
    cells: dict[str, str]

    def number(self, column: str) -> float:
        """The cell as a number that is not negative; ParseError naming column and line."""
        cell = self.cells[column].strip()
        if not _NUMBER.fullmatch(cell):
            raise ParseError(f"{column} is not a number: {cell[:40]!r}", line=self.line)
        return float(cell)

    def whole_number(self, column: str) -> int:
        """The cell as a whole number; ParseError naming column and line."""
        cell = self.cells[column].strip()
        if not cell.isdigit():
            raise ParseError(f"{column} is not a whole number: {cell[:40]!r}", line=self.line)
        return int(cell)


def header(text: str) -> list[str] | None:
    """The column names of the first non-blank line, lower case; None for an empty text."""
    first = next((line for line in text.splitlines() if line.strip()), None)
    if first is None:
        return None
    try:
        cells = next(csv.reader([first]))
    except csv.Error:
        return None
    return [cell.strip().lower() for cell in cells]


def starts_with_columns(text: str, columns: tuple[str, ...]) -> bool:
    """True when the first line names exactly these columns first, in this order."""
    names = header(text)
    return names is not None and tuple(names[: len(columns)]) == columns


def read_rows(text: str, *, tool: str, required: tuple[str, ...]) -> list[Row]:
    """Every non-blank row under the header; the header must name the required columns and
    each row must have one cell per column."""
    lines = text.splitlines()
    header_index = first_filled_line(lines)
    reader = csv.reader(io.StringIO("\n".join(lines[header_index:])))
    rows: list[Row] = []
    try:
        columns = [cell.strip().lower() for cell in next(reader)]
        missing = [name for name in required if name not in columns]
        if missing:
            raise ParseError(
                f"not {tool}'s CSV: the header lacks {', '.join(missing)} "
                f"(expected {', '.join(required)}, ...)",
                line=header_index + 1,
            )
        for cells in reader:
            line = header_index + reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(columns):
                raise ParseError(
                    f"{len(cells)} cells where the header names {len(columns)} columns; "
                    "the row is cut or garbled",
                    line=line,
                )
            rows.append(Row(line, dict(zip(columns, cells, strict=True))))
    except csv.Error as error:
        raise ParseError(f"unreadable CSV: {error}", line=header_index + reader.line_num) from None
    if not rows:
        raise ParseError(f"{tool}'s CSV has a header but no rows", line=header_index + 1)
    return rows
