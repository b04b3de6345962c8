"""Raw benchmark output -> ParsedOutput. Pure functions: no ORM, no I/O.

Each tool has one module exposing `looks_like(text) -> bool` and `parse(text) -> ParsedOutput`.
`parse()` here decodes bytes, detects the format, and reads an `lscpu` section that precedes
another tool's output (the layout of study S1's files).
"""

from __future__ import annotations

from benchmarks.parsers import (
    fio,
    generic_csv,
    generic_json,
    iperf3,
    lscpu,
    openssl,
    sysbench,
    wrk,
)
from benchmarks.parsers.base import CpuInfo, ParsedOutput, ParsedResult, ParseError

__all__ = ["FORMATS", "CpuInfo", "ParseError", "ParsedOutput", "ParsedResult", "decode", "parse"]

# Detection order: the most specific signatures first; csv last because almost anything with
# commas looks like it.
PARSERS = {
    "json": generic_json,
    "iperf3": iperf3,
    "fio": fio,
    "sysbench": sysbench,
    "wrk": wrk,
    "openssl": openssl,
    "lscpu": lscpu,
    "csv": generic_csv,
}
FORMATS: tuple[str, ...] = tuple(PARSERS)


def decode(data: bytes | str) -> str:
    """Bytes -> text: UTF-8 with or without a byte-order mark; binary input is refused."""
    if isinstance(data, str):
        text = data
    else:
        if b"\x00" in data[:65536]:
            raise ParseError("the file is binary (it contains NUL bytes), not a tool's text output")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[: error.start].count(b"\n") + 1
            raise ParseError(
                f"invalid UTF-8 at byte {error.start}; save the output as UTF-8 text", line=line
            ) from None
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ParseError("the file is empty")
    return text


def detect_format(text: str) -> str:
    """The first format whose signature the text carries (after any leading lscpu section)."""
    cpu, rest = lscpu.split_leading(text)
    if cpu is not None and rest.strip():
        text = rest
    for name, parser in PARSERS.items():
        if parser.looks_like(text):
            return name
    raise ParseError(
        "could not recognise the tool that produced this output "
        f"(tried {', '.join(FORMATS)}); pass the format explicitly",
        line=1,
    )


def parse(data: bytes | str, *, format: str = "auto") -> ParsedOutput:  # noqa: A002
    """Parse one raw output; raises ParseError naming what is wrong and where."""
    text = decode(data)
    if format not in ("auto", *FORMATS):
        raise ParseError(f"unknown format {format!r}; choose one of auto, {', '.join(FORMATS)}")

    cpu: CpuInfo | None = None
    if format != "lscpu":
        cpu, text_without_lscpu = lscpu.split_leading(text)
        if cpu is not None and text_without_lscpu.strip():
            text = text_without_lscpu
        else:
            cpu = None

    name = detect_format(text) if format == "auto" else format
    output = PARSERS[name].parse(text)
    if cpu is not None:
        output.cpu = cpu
        output.cpu_model = output.cpu_model or cpu.model_name
    return output
