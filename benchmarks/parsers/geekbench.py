"""Geekbench 6 scores as Spare Cores keep them (`results.json`) -> ParsedOutput (format
`geekbench`).

The document: `{"Single-Core Performance" | "Multi-Core Performance": {"Score": {"score": N},
"<workload>": {"score": N, "description": "140.1 MB/sec"}}}`, the description being the
workload's own throughput with its unit.

Keys, scores (`score`), higher is better:
- `geekbench:single-core` and `geekbench:multi-core`: the overall scores, no params;
- `geekbench:<workload>` (`geekbench:file-compression`, `geekbench:html5-browser`, ...: the
  workload's name in lower case, other characters turned into dashes), param `cores`
  (`single` or `multi`); the note keeps the workload's description.
"""

from __future__ import annotations

import math
import re
from typing import Any

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import DocumentLines, load_document

FORMAT = "geekbench"
SECTIONS = {"Single-Core Performance": "single", "Multi-Core Performance": "multi"}
_OVERALL = "Score"


def looks_like(text: str) -> bool:
    """True for a JSON object with Geekbench's `Single-Core Performance` or
    `Multi-Core Performance` section."""
    head = text.lstrip()[:2000]
    return head.startswith("{") and any(f'"{section}"' in head for section in SECTIONS)


def parse(text: str) -> ParsedOutput:
    """The overall score and every workload's score, per section."""
    document, _first_line, end = load_document(text, openers="{")
    lines = DocumentLines(text, openers="{")
    if text[end:].strip():
        raise ParseError("unexpected text after the JSON document", line=lines.at(end))
    if not isinstance(document, dict):
        raise ParseError("expected a JSON object of Geekbench sections", line=lines.of(()))
    sections = [name for name in SECTIONS if name in document]
    if not sections:
        raise ParseError(
            f"no Geekbench section: expected {' or '.join(SECTIONS)}", line=lines.of(())
        )
    output = ParsedOutput(format=FORMAT)
    unknown = [name for name in document if name not in SECTIONS]
    if unknown:
        output.warnings.append(f"ignored sections Geekbench 6 does not have: {', '.join(unknown)}")
    for section in sections:
        output.results.extend(_section(section, document[section], lines))
    return output


def _section(section: str, workloads: Any, lines: DocumentLines) -> list[ParsedResult]:
    cores = SECTIONS[section]
    if not isinstance(workloads, dict) or _OVERALL not in workloads:
        raise ParseError(f"{section}: no overall Score", line=lines.of((section,)))
    results = []
    for workload, entry in workloads.items():
        path = (section, workload)
        if not isinstance(entry, dict) or "score" not in entry:
            raise ParseError(f"{section}, {workload}: no score", line=lines.of(path))
        score = entry["score"]
        if (
            not isinstance(score, int | float)
            or isinstance(score, bool)
            or not math.isfinite(score)
        ):
            raise ParseError(
                f"{section}, {workload}: the score is not a number: {score!r}",
                line=lines.of((*path, "score")),
            )
        if workload == _OVERALL:
            results.append(ParsedResult(f"geekbench:{cores}-core", {}, float(score), "score"))
            continue
        description = entry.get("description")
        results.append(
            ParsedResult(
                f"geekbench:{_slug(workload)}",
                {"cores": cores},
                float(score),
                "score",
                notes=str(description) if description else None,
            )
        )
    return results


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
