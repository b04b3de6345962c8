"""Shared types for the parsers: what every parser returns, the one error it raises, and the
few helpers several parsers share."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any


class ParseError(ValueError):
    """Input that cannot be read as the expected tool's output; names the line when it can."""

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


@dataclass(frozen=True)
class CpuInfo:
    """What lscpu says about the machine a benchmark ran on."""

    model_name: str | None = None
    architecture: str | None = None
    cpus: int | None = None
    threads_per_core: int | None = None
    cores_per_socket: int | None = None
    sockets: int | None = None
    vendor: str | None = None

    @property
    def physical_cores(self) -> int | None:
        if self.cores_per_socket is None or self.sockets is None:
            return None
        return self.cores_per_socket * self.sockets


@dataclass(frozen=True)
class Measurement:
    """One measured figure: a benchmark key, its parameters, a value and its unit."""

    benchmark: str
    params: dict[str, Any]
    value: float
    unit: str


@dataclass(frozen=True)
class ParsedResult(Measurement):
    """A measurement as a parser reads it, with what a table's row may say of its machine."""

    higher_is_better: bool = True
    # Set only by the generic CSV/JSON parsers, whose rows name their own machine; a tool's
    # raw output leaves them None and the upload names the machine instead.
    instance_type: str | None = None
    region: str | None = None
    variant: str | None = None
    measured_at: str | None = None  # ISO date, YYYY-MM-DD
    cpu_model: str | None = None
    notes: str | None = None
    source: str | None = None
    licence: str | None = None


# ParsedResult's fields in the order it takes them.
_RESULT_FIELDS = tuple(item.name for item in fields(ParsedResult))

_ROW_FIELDS = (
    "instance_type",
    "region",
    "variant",
    "measured_at",
    "cpu_model",
    "notes",
    "source",
    "licence",
)


@dataclass
class ParsedOutput:
    """Everything one raw output yields."""

    format: str
    results: list[ParsedResult] = field(default_factory=list)
    tool_version: str | None = None
    cpu_model: str | None = None
    cpu: CpuInfo | None = None
    warnings: list[str] = field(default_factory=list)

    def to_text(self) -> str:
        """This output as text that `from_text` reads back equal (every value's type kept):
        what an upload's check read, handed to the worker instead of the raw output."""
        return json.dumps(
            {
                "format": self.format,
                "tool_version": self.tool_version,
                "cpu_model": self.cpu_model,
                "cpu": asdict(self.cpu) if self.cpu else None,
                "warnings": self.warnings,
                # A list per result, in the fields' order: a third of the text of named ones.
                "results": [
                    [getattr(result, name) for name in _RESULT_FIELDS] for result in self.results
                ],
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_text(cls, text: str) -> ParsedOutput:
        """The output `to_text` wrote."""
        stored = json.loads(text)
        return cls(
            format=stored["format"],
            results=[ParsedResult(*values) for values in stored["results"]],
            tool_version=stored["tool_version"],
            cpu_model=stored["cpu_model"],
            cpu=CpuInfo(**stored["cpu"]) if stored["cpu"] else None,
            warnings=stored["warnings"],
        )

    def as_json(self) -> dict[str, Any]:
        """The object `parse_output` prints (docs/formats.md)."""
        return {
            "format": self.format,
            "tool_version": self.tool_version,
            "cpu_model": self.cpu_model,
            "results": [
                {
                    "benchmark": result.benchmark,
                    "params": result.params,
                    "value": result.value,
                    "unit": result.unit,
                    "higher_is_better": result.higher_is_better,
                    **{
                        name: getattr(result, name)
                        for name in _ROW_FIELDS
                        if getattr(result, name) is not None
                    },
                }
                for result in self.results
            ],
            "warnings": self.warnings,
            "cpu": asdict(self.cpu) if self.cpu else None,
        }


def first_filled_line(lines: list[str]) -> int:
    """The index of the first line that is not blank (a table's header); ParseError when the
    text is blank."""
    index = next((index for index, line in enumerate(lines) if line.strip()), None)
    if index is None:
        raise ParseError("the file is empty")
    return index
