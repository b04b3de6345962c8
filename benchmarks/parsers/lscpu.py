"""`lscpu` output -> ParsedOutput with the machine's CpuInfo and no results.

Reads the plain layout (`Field:  value`, flat in old util-linux, indented under `Vendor ID:`
and `Model name:` in newer ones, long values wrapped onto indented lines) and the JSON layout
of `lscpu -J` (`{"lscpu": [{"field": "...:", "data": "...", "children": [...]}]}`). A field
lscpu does not print is None: ARM machines may lack `Model name`, and where lscpu knows no
sockets it prints `Core(s) per cluster` and `Cluster(s)`, which stand in for them.
"""

from __future__ import annotations

import json
import re

from benchmarks.parsers.base import CpuInfo, ParsedOutput, ParseError

FORMAT = "lscpu"

# lscpu's field names all start with a capital letter or a digit; that keeps the `version:`,
# `built on:` and `options:` lines of an `openssl speed` run that follows out of the section.
_FIELD = re.compile(r"^(\s*)([A-Z0-9][^:]*?):(?:\s+(.*))?$")
_CONTINUATION = re.compile(r"^\s+\S[^:]*$")

_MODEL_NAME = "Model name"
_WHOLE_NUMBER_FIELDS = {
    "cpus": ("CPU(s)",),
    "threads_per_core": ("Thread(s) per core",),
    "cores_per_socket": ("Core(s) per socket", "Core(s) per cluster"),
    "sockets": ("Socket(s)", "Cluster(s)"),
}

_KNOWN_FIELDS = {"Architecture", "CPU(s)", _MODEL_NAME, "Vendor ID"}


def looks_like(text: str) -> bool:
    """True when the text starts like lscpu output, plain or JSON."""
    start = text.lstrip()
    return start.startswith("Architecture:") or (start.startswith("{") and '"lscpu"' in start[:200])


def parse(text: str) -> ParsedOutput:
    """Read a whole lscpu output, plain or JSON."""
    if text.lstrip().startswith("{"):
        fields = _json_fields(text)
    else:
        fields = _plain_fields(text.split("\n"), whole=True)
    if not fields.keys() & _KNOWN_FIELDS:
        raise ParseError(
            f"no lscpu fields in this output (looked for {', '.join(sorted(_KNOWN_FIELDS))})",
            line=1,
        )
    cpu = _cpu_info(fields)
    return ParsedOutput(format=FORMAT, cpu=cpu, cpu_model=cpu.model_name)


def split_leading(text: str) -> tuple[CpuInfo | None, str]:
    """The CpuInfo of an lscpu section that opens the text, and the text with it blanked.

    The section's lines become empty lines, so line numbers in the rest stay the same.
    Without such a section: (None, text).
    """
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None or not lines[start].startswith("Architecture:"):
        return None, text
    end = start
    while end < len(lines) and _is_section_line(lines[end]):
        end += 1
    fields = _plain_fields(lines[start:end], whole=False, first_line=start + 1)
    rest = [""] * end + lines[end:]
    return _cpu_info(fields), "\n".join(rest)


def _is_section_line(line: str) -> bool:
    return bool(line.strip()) and bool(_FIELD.match(line) or _CONTINUATION.match(line))


def _plain_fields(
    lines: list[str], *, whole: bool, first_line: int = 1
) -> dict[str, tuple[str, int]]:
    """Field name -> (value, line number), the first occurrence of each."""
    fields: dict[str, tuple[str, int]] = {}
    for number, line in enumerate(lines, start=first_line):
        line = line.rstrip("\r")
        match = _FIELD.match(line)
        if match:
            fields.setdefault(match[2].strip(), ((match[3] or "").strip(), number))
        elif whole and line.strip() and not (fields and _CONTINUATION.match(line)):
            raise ParseError(
                f"not an lscpu `Field: value` line: {line.strip()[:80]!r}", line=number
            )
    return fields


def _json_fields(text: str) -> dict[str, tuple[str, int]]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(f"invalid JSON: {error.msg}", line=error.lineno) from None
    entries = document.get("lscpu") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ParseError('not `lscpu -J` output: no "lscpu" list', line=1)
    fields: dict[str, tuple[str, int]] = {}
    _collect_json_fields(entries, fields, text)
    return fields


def _collect_json_fields(entries: list, fields: dict[str, tuple[str, int]], text: str) -> None:
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("field"), str):
            raise ParseError('an `lscpu -J` entry without a "field"', line=1)
        name = entry["field"].strip().rstrip(":")
        data = entry.get("data")
        fields.setdefault(name, ("" if data is None else str(data), _json_line(text, name)))
        _collect_json_fields(entry.get("children") or [], fields, text)


def _json_line(text: str, name: str) -> int:
    position = text.find(f'"{name}:"')
    return text.count("\n", 0, position) + 1 if position >= 0 else 1


def _cpu_info(fields: dict[str, tuple[str, int]]) -> CpuInfo:
    def text_field(name: str) -> str | None:
        value = fields.get(name, ("", 0))[0]
        return value or None

    numbers = {
        attribute: _whole_number(fields, names) for attribute, names in _WHOLE_NUMBER_FIELDS.items()
    }
    return CpuInfo(
        model_name=text_field(_MODEL_NAME),
        architecture=text_field("Architecture"),
        vendor=text_field("Vendor ID"),
        **numbers,
    )


def _whole_number(fields: dict[str, tuple[str, int]], names: tuple[str, ...]) -> int | None:
    """The first of the named fields that lscpu printed, as a whole number."""
    for name in names:
        if name not in fields:
            continue
        value, line = fields[name]
        if value in ("", "-"):  # lscpu's way of saying it does not know
            continue
        if not value.isdigit():
            raise ParseError(f"{name} is not a whole number: {value!r}", line=line)
        return int(value)
    return None
