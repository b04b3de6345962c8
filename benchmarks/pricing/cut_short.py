"""Telling a file cut short (an interrupted download) from a whole one, without reading it all,
and saying at which byte it ends.

The offer file reader stops once it has every on-demand price, so the end of a JSON file,
where the reserved terms are, is never parsed: its last bytes must show the top-level object
closed. AWS writes its JSON pretty-printed, the top level's closing brace alone on the last
line at column 0 and every inner one indented; a compact file (one line) is parsed whole
when small, else only checked for ending with a brace. A CSV row ends with a newline: a last
row without one was cut (a cut exactly at the end of a row cannot be told from a whole file).
"""

from __future__ import annotations

from pathlib import Path

import ijson

from benchmarks.errors import DomainError

# How much of the end (and the start) of a file is looked at.
TAIL_BYTES = 4096
# Compact JSON (no line breaks) up to this size is parsed whole to tell; AWS's is never compact.
COMPACT_PARSED_WHOLE = 16 * 1024 * 1024


def json_cut_at(path: Path) -> int | None:
    """The size of a JSON file whose last bytes do not close its top-level object (the byte
    it was cut at), or None when it ends as a whole document does."""
    size = path.stat().st_size
    with open(path, "rb") as file:
        head = file.read(TAIL_BYTES)
        file.seek(max(0, size - TAIL_BYTES))
        tail = file.read().rstrip(b" \t\r\n")
    if not tail.endswith(b"}"):
        return size
    if b"\n" in tail:
        last_line = tail[tail.rindex(b"\n") + 1 :]
        return None if last_line == b"}" else size
    if b"\n" in head.rstrip(b" \t\r\n") or size > COMPACT_PARSED_WHOLE:
        return None  # a huge last line, or a huge compact file: its end closes something
    return _parsed_whole(path, size)


def _parsed_whole(path: Path, size: int) -> int | None:
    """A compact file small enough to parse whole: whether the parser meets its end early."""
    with open(path, "rb") as file:
        try:
            for _event in ijson.basic_parse(file):
                pass
        except ijson.IncompleteJSONError as error:
            return size if "premature EOF" in str(error) else None
    return None


def json_cut_message(name: str, size: int) -> str:
    return (
        f"{name}: cut short at byte {size:,}: the file ends before its JSON does (an "
        "interrupted download?); nothing was imported"
    )


def check_row_end(line: bytes, name: str, number: int, size: int) -> None:
    """A CSV row without its end of line is the file's last, cut there: say so."""
    if not line.endswith(b"\n"):
        raise DomainError(
            f"{name}: cut short at byte {size:,}, in line {number}: its last row has no end "
            "of line (an interrupted download?); nothing was imported"
        )
