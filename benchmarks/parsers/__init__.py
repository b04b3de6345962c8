"""Raw benchmark output -> ParsedOutput. Pure functions: no ORM, no I/O.

Each tool has one module exposing `looks_like(text) -> bool` and `parse(text) -> ParsedOutput`.
`parse()` here decodes bytes, detects the format, and reads an `lscpu` section that precedes
another tool's output (the layout of study S1's files).

Some outputs do not record a parameter of their run (Spare Cores' openssl parsed.json and
bw_mem the number of processes, a stress-ng log its --cpu-method). Their modules list it in
`CALLER_SUPPLIED` and take it as a keyword of `parse`; the caller that knows it (the importer,
from the machine's lscpu) passes it through `parse(..., processes=N, cpu_method=M)`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator

from benchmarks.parsers import (
    bw_mem,
    compression_text,
    ffmpeg,
    fio,
    geekbench,
    generic_csv,
    generic_json,
    iperf3,
    llama_bench,
    lscpu,
    membench,
    nvbandwidth,
    openssl,
    passmark,
    redis_benchmark,
    static_web,
    stressng,
    stressng_longrun,
    stressngfull,
    sysbench,
    vllm,
    wrk,
)
from benchmarks.parsers.base import CpuInfo, ParsedOutput, ParsedResult, ParseError

__all__ = ["FORMATS", "CpuInfo", "ParseError", "ParsedOutput", "ParsedResult", "decode", "parse"]

# Detection order: the most specific signatures first; the user's own json and csv tables
# last, csv at the very end because almost anything with commas looks like it. Spare Cores'
# folder names are the format names of their outputs; one module reads both stress-ng folders.
PARSERS = {
    "iperf3": iperf3,
    "fio": fio,
    "sysbench": sysbench,
    "wrk": wrk,
    "openssl": openssl,
    "lscpu": lscpu,
    "redis": redis_benchmark,
    "static_web": static_web,
    "compression_text": compression_text,
    "bw_mem": bw_mem,
    "stressng": stressng,
    "stressngsinglecore": stressng,
    "llm": llama_bench,
    "geekbench": geekbench,
    "passmark": passmark,
    "stressngfull": stressngfull,
    "membench": membench,
    "vllm": vllm,
    "nvbandwidth": nvbandwidth,
    "ffmpeg": ffmpeg,
    "stressnglongrun": stressng_longrun,
    "json": generic_json,
    "csv": generic_csv,
}
FORMATS: tuple[str, ...] = tuple(PARSERS)
# A table's header is the cheapest signature to check, and no tool's output starts with one:
# tables (what agents upload most) are recognised before every tool's signature is looked
# for in them (a 400-row table took 3.9 ms to sniff, 0.06 ms once tried first).
_DETECTION_ORDER = ("csv", *(name for name in PARSERS if name != "csv"))


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


# No machine measures more than this of anything per second (an exabyte per second): a
# larger value is a mistake or an attack, and per-dollar figures would overflow from it.
MAX_VALUE = 1e18


@contextlib.contextmanager
def _bounded_nesting() -> Iterator[None]:
    """JSON nested deeper than Python's recursion limit is refused, not a crash."""
    try:
        yield
    except RecursionError:
        raise ParseError(
            "the document is nested too deeply (more than about 900 levels of [ or {)"
        ) from None


def check_values(results: list[ParsedResult]) -> None:
    """Refuse values no machine can reach: not a number, infinite, negative or absurdly large."""
    for result in results:
        value = result.value
        if not math.isfinite(value) or value < 0 or value > MAX_VALUE:
            where = f" {result.params}" if result.params else ""
            raise ParseError(
                f"{result.benchmark}{where}: {value!r} is not a measurement (values must be "
                f"finite, at least 0 and at most {MAX_VALUE:g})"
            )


def detect_format(text: str) -> str:
    """The first format whose signature the text carries (after any leading lscpu section)."""
    cpu, rest = lscpu.split_leading(text)
    return _detect(rest if cpu is not None and rest.strip() else text)


def _detect(text: str) -> str:
    for name in _DETECTION_ORDER:
        with _bounded_nesting():
            if PARSERS[name].looks_like(text):
                return name
    raise ParseError(
        "could not recognise the tool that produced this output "
        f"(tried {', '.join(FORMATS)}); pass the format explicitly",
        line=1,
    )


def parse(
    data: bytes | str,
    *,
    format: str = "auto",  # noqa: A002
    processes: int | None = None,
    cpu_method: str | None = None,
) -> ParsedOutput:
    """Parse one raw output; raises ParseError naming what is wrong and where.

    `processes` and `cpu_method` are what some outputs do not record (see CALLER_SUPPLIED);
    given for a format that records or does not use them, they are ignored with a warning.
    """
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

    name = _detect(text) if format == "auto" else format
    module = PARSERS[name]
    given = {"processes": processes, "cpu_method": cpu_method}
    given = {key: value for key, value in given.items() if value is not None}
    accepted = getattr(module, "CALLER_SUPPLIED", ())
    with _bounded_nesting():
        output = module.parse(
            text, **{key: value for key, value in given.items() if key in accepted}
        )
    check_values(output.results)
    # One module may read several formats (stressng, stressngsinglecore): name the one asked.
    output.format = name
    unused = [key for key in given if key not in accepted]
    if unused:
        output.warnings.append(
            f"{' and '.join(unused)} given, but {name} output does not take it; ignored"
        )
    if cpu is not None:
        output.cpu = cpu
        output.cpu_model = output.cpu_model or cpu.model_name
    return output
