"""The first JSON document in a tool's output, for the parsers that read JSON."""

from __future__ import annotations

import json
import re
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


# Strings (with escapes), punctuation, or a bare literal (number, true, false, null).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


def value_lines(text: str, start: int = 0) -> dict[tuple, int]:
    """The 1-based line of every value in the valid JSON document at `start`, by its path
    (object keys and list indexes, e.g. `("brotli", "4", 0, "ratio")`); `()` is the
    document itself. For naming the line of a value that parsed but is wrong."""
    lines: dict[tuple, int] = {}
    stack: list[list] = []  # [container, key or index, whether a key was read]
    line, counted_to = 1, 0
    for match in _TOKEN.finditer(text, start):
        token = match.group()
        line += text.count("\n", counted_to, match.start())
        counted_to = match.start()
        top = stack[-1] if stack else None
        if token in "}]":
            stack.pop()
            if not stack:
                break
        elif token == ",":
            if top[0] == "[":
                top[1] += 1
            else:
                top[1], top[2] = None, False
        elif token == ":":
            continue
        elif top is not None and top[0] == "{" and not top[2]:
            top[1], top[2] = json.loads(token), True
        else:
            lines[tuple(frame[1] for frame in stack)] = line
            if token in "{[":
                stack.append([token, 0 if token == "[" else None, False])
            elif not stack:
                break
    return lines


class DocumentLines:
    """Line numbers in one JSON text, worked out only when an error or warning needs one."""

    def __init__(self, text: str, *, openers: str = "{") -> None:
        self.text = text
        self.start = _document_start(text, openers) or 0
        self._lines: dict[tuple, int] | None = None

    def of(self, path: tuple) -> int:
        """The line of the value at `path` (see value_lines); the document's first line if
        the path is not in it."""
        if self._lines is None:
            self._lines = value_lines(self.text, self.start)
        return self._lines.get(path, self.at(self.start))

    def at(self, offset: int) -> int:
        """The line of a character offset."""
        return self.text.count("\n", 0, offset) + 1
