"""The first JSON document in a tool's output, for the parsers that read JSON."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.parsers.base import ParseError

# Tools (fio, notably) sometimes repeat a key within one object; the last one wins, which is
# also what the tool's own readers do.
_DECODER = json.JSONDecoder(object_pairs_hook=dict)


def load_document(text: str, *, openers: str = "{") -> tuple[Any, int, int]:
    """The first JSON document in `text`, which may follow lines of other text (a shell
    prompt, a tool's notices). Returns the value, the 1-based line it starts on and the
    offset just past it; raises ParseError with the line of a syntax error."""
    start = _document_start(text, openers)
    if start is None:
        starts = " or ".join(openers)
        raise ParseError(f"no JSON document found (no line starts with {starts})")
    first_line = text.count("\n", 0, start) + 1
    try:
        document, end = _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        # An unclosed string can only run into the end of the text: JSON strings hold no
        # raw line breaks.
        if not text[error.pos :].strip() or error.msg.startswith("Unterminated string"):
            last_line = text.rstrip().count("\n") + 1
            raise ParseError(
                "the JSON ends before it is complete (truncated file?)", line=last_line
            ) from None
        message = f"invalid JSON: {error.msg} (column {error.colno})"
        raise ParseError(message, line=error.lineno) from None
    return document, first_line, end


def _document_start(text: str, openers: str) -> int | None:
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped[:1] and stripped[0] in openers:
            return offset + len(line) - len(stripped)
        offset += len(line)
    return None
