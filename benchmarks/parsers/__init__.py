"""Raw benchmark output -> ParsedOutput. Pure functions: no ORM, no I/O.

Each tool has one module exposing `looks_like(text) -> bool` and `parse(text) -> ParsedOutput`.
`parse()` here decodes bytes, detects the format, and reads an `lscpu` section that precedes
another tool's output (the layout of study S1's files).
"""

from __future__ import annotations

from importlib import import_module

from benchmarks.parsers.base import CpuInfo, ParsedOutput, ParsedResult, ParseError

__all__ = ["FORMATS", "CpuInfo", "ParseError", "ParsedOutput", "ParsedResult", "decode", "parse"]

# Detection order: the most specific signatures first; csv last because almost anything with
# commas looks like it.
FORMATS: tuple[str, ...] = ("json", "iperf3", "fio", "sysbench", "wrk", "openssl", "lscpu", "csv")

_MODULES = {
    "openssl": "benchmarks.parsers.openssl",
    "lscpu": "benchmarks.parsers.lscpu",
    "iperf3": "benchmarks.parsers.iperf3",
    "sysbench": "benchmarks.parsers.sysbench",
    "fio": "benchmarks.parsers.fio",
    "wrk": "benchmarks.parsers.wrk",
    "csv": "benchmarks.parsers.generic_csv",
    "json": "benchmarks.parsers.generic_json",
}


def _module(name: str):
    return import_module(_MODULES[name])


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


def available_formats() -> list[str]:
    """Formats whose parser module is present, in detection order."""
    names = []
    for name in FORMATS:
        try:
            _module(name)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def detect_format(text: str) -> str:
    """The first format whose signature the text carries (after any leading lscpu section)."""
    cpu, rest = _module("lscpu").split_leading(text)
    if cpu is not None and rest.strip():
        text = rest
    for name in available_formats():
        if _module(name).looks_like(text):
            return name
    raise ParseError(
        "could not recognise the tool that produced this output "
        f"(tried {', '.join(available_formats())}); pass the format explicitly",
        line=1,
    )


def parse(data: bytes | str, *, format: str = "auto") -> ParsedOutput:  # noqa: A002
    """Parse one raw output; raises ParseError naming what is wrong and where."""
    text = decode(data)
    if format not in ("auto", *FORMATS):
        raise ParseError(f"unknown format {format!r}; choose one of auto, {', '.join(FORMATS)}")

    cpu: CpuInfo | None = None
    lscpu = _module("lscpu")
    if format != "lscpu":
        cpu, text_without_lscpu = lscpu.split_leading(text)
        if cpu is not None and text_without_lscpu.strip():
            text = text_without_lscpu
        else:
            cpu = None

    name = detect_format(text) if format == "auto" else format
    output = _module(name).parse(text)
    if cpu is not None:
        output.cpu = cpu
        output.cpu_model = output.cpu_model or cpu.model_name
    return output
