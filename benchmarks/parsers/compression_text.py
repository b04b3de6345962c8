"""Spare Cores' text compression benchmark -> ParsedOutput (format `compression_text`).

The harness compresses the Silesia corpus' `dickens` with each algorithm and level, in one
process and in one process per physical core, and prints one JSON document:
`{algo: {level: [{"threads", "extra_args", "ratio", "compress", "decompress"}]}}`, level
`"null"` for an algorithm without levels (bzip3). `compress` and `decompress` are bytes of
input per second, all processes together; `ratio` is compressed size / original size x 100.

Keys, params `level` (left out for `"null"`), `threads`, and each scalar of `extra_args`
(`block_size`, bytes, for bzip3 and lz4):
- `compression:<algo>-compress`, `compression:<algo>-decompress`: bytes per second
  (`B/s`), higher is better;
- `compression:<algo>-ratio`: percent (`%`), lower is better.
A run that crashed has null figures: they are skipped, and one warning counts them.
"""

from __future__ import annotations

import math
import re
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import DocumentLines, load_document

FORMAT = "compression_text"
_MEASURES = (
    # field, key suffix, unit, higher is better
    ("compress", "compress", "B/s", True),
    ("decompress", "decompress", "B/s", True),
    ("ratio", "ratio", "%", False),
)
_ALGORITHM = re.compile(r"[a-z0-9][a-z0-9_.+-]*")
_LISTED = 10


def looks_like(text: str) -> bool:
    """True for a JSON object whose runs carry ratio, compress and decompress."""
    head = text.lstrip()[:4000]
    return head.startswith("{") and all(
        f'"{field}"' in head for field in ("threads", "ratio", "compress", "decompress")
    )


def parse(text: str) -> ParsedOutput:
    """Three results per run (compress, decompress, ratio), minus null figures."""
    document, _first_line, end = load_document(text, openers="{")
    reader = _Reader(text)
    if text[end:].strip():
        raise ParseError("unexpected text after the JSON document", line=reader.lines.at(end))
    if not isinstance(document, dict) or not document:
        raise ParseError("expected a JSON object of algorithms", line=reader.line(()))
    for algorithm, levels in document.items():
        reader.read_algorithm(algorithm, levels)
    return reader.finish()


class _Reader:
    """Walks the document, keeping results and the null figures it skipped."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.output = ParsedOutput(format=FORMAT)
        self.nulls: list[str] = []
        self.null_count = 0
        self.lines = DocumentLines(text, openers="{")

    def line(self, path: tuple) -> int:
        return self.lines.of(path)

    def read_algorithm(self, algorithm: str, levels: Any) -> None:
        if not _ALGORITHM.fullmatch(algorithm):
            raise ParseError(f"{algorithm!r} is not an algorithm's name", line=self.line(()))
        if not isinstance(levels, dict):
            raise ParseError(
                f"{algorithm}: expected an object of levels, got {type(levels).__name__}",
                line=self.line((algorithm,)),
            )
        for level, runs in levels.items():
            if level != "null" and not level.isdigit():
                raise ParseError(
                    f"{algorithm}: level {level!r} is neither a whole number nor null",
                    line=self.line((algorithm, level)),
                )
            if not isinstance(runs, list):
                raise ParseError(
                    f"{algorithm} level {level}: expected a list of runs",
                    line=self.line((algorithm, level)),
                )
            for index, run in enumerate(runs):
                self.read_run(algorithm, level, index, run)

    def read_run(self, algorithm: str, level: str, index: int, run: Any) -> None:
        path = (algorithm, level, index)
        where = f"{algorithm} level {level} run {index}"
        if not isinstance(run, dict):
            raise ParseError(f"{where}: expected an object", line=self.line(path))
        missing = [
            name for name in ("threads", "ratio", "compress", "decompress") if name not in run
        ]
        if missing:
            raise ParseError(f"{where}: no {', '.join(missing)}", line=self.line(path))
        threads = run["threads"]
        if not isinstance(threads, int) or isinstance(threads, bool) or threads < 1:
            raise ParseError(
                f"{where}: threads is not a positive whole number: {threads!r}",
                line=self.line((*path, "threads")),
            )
        params: dict[str, Any] = {} if level == "null" else {"level": int(level)}
        params["threads"] = threads
        params.update(self.extra_params(run.get("extra_args"), path, where))

        described = ", ".join(f"{name} {value}" for name, value in params.items())
        run_nulls = 0
        for field, suffix, unit, higher_is_better in _MEASURES:
            value = run[field]
            if value is None:
                run_nulls += 1
                continue
            if not _is_figure(value):
                raise ParseError(
                    f"{where}: {field} is not a number that is not negative: {value!r}",
                    line=self.line((*path, field)),
                )
            self.output.results.append(
                ParsedResult(
                    f"compression:{algorithm}-{suffix}",
                    dict(params),
                    float(value),
                    unit,
                    higher_is_better=higher_is_better,
                )
            )
        if run_nulls:
            self.null_count += run_nulls
            self.nulls.append(f"{algorithm} {described} (line {self.line(path)})")

    def extra_params(self, extra: Any, path: tuple, where: str) -> dict[str, Any]:
        if extra is None:
            return {}
        if not isinstance(extra, dict):
            raise ParseError(
                f"{where}: extra_args is not an object", line=self.line((*path, "extra_args"))
            )
        for name, value in extra.items():
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise ParseError(
                    f"{where}: extra_args {name} is not a number or text: {value!r}",
                    line=self.line((*path, "extra_args", name)),
                )
        return dict(extra)

    def finish(self) -> ParsedOutput:
        if self.nulls:
            listed = "; ".join(self.nulls[:_LISTED])
            more = f"; and {len(self.nulls) - _LISTED} more" if len(self.nulls) > _LISTED else ""
            self.output.warnings.append(
                f"skipped {self.null_count} null figures of {_count(len(self.nulls), 'run')} "
                f"that crashed: "
                f"{listed}{more}"
            )
        if not self.output.results:
            raise ParseError(
                "no figures: every run is null", line=self.text.rstrip().count("\n") + 1
            )
        return self.output


def _is_figure(value: Any) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
