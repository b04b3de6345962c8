"""PassMark PerformanceTest Linux's YAML report -> ParsedOutput (format `passmark`).

The report (`pt_linux -r ...`, results.yml) has top-level sections `Version:` (`Major`,
`Minor`, `Build`), `Results:` (one `NAME: figure` per test, in PassMark's units), and others
(`BaselineInfo`, `SystemInformation`, ...). Only the `Results:` and `Version:` entries
become the output, read line by line so that an error names its line;
`nominal_memory_gib` reads the machine's memory from `SystemInformation`.

Keys: `passmark:<test>`, the test's name in lower case with dashes (`CPU_INTEGER_MATH` ->
`passmark:cpu-integer-math`, `ME_READ_S` -> `passmark:me-read-s`; the encryption test's
parts `m_CPU_enc_SHA` -> `passmark:cpu-enc-sha`), and `passmark:cpu-mark` (`SUMM_CPU`) and
`passmark:memory-mark` (`SUMM_ME`). No params. Units (the labels of PassMark's own report)
are turned into base units: millions of operations per second -> `op/s`, MB/s and KB/s ->
`B/s`, megabytes -> `B`, nanoseconds -> `s`, ... (TESTS below). PassMark's MB is 2^20 bytes
and its KB 2^10: in every report the encryption test's MB/s is exactly the mean of its
three parts' bytes per second divided by 1048576. Tests whose unit PassMark does not print
(the extended-instruction parts `CPU_mm`, `CPU_sse`, `CPU_fma`, `CPU_avx`, `CPU_avx512`) and
the marks are `score`s. Memory latency is lower-is-better; everything else higher.

A figure of 0 means the test did not run (machines with under 512 MB free run the CPU
suite only; the AVX parts do not run where the CPU lacks AVX): it is skipped with a
warning that names the tests.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.units import NUMBER_WITH_EXPONENT

FORMAT = "passmark"

MEBIBYTE = 1024**2
KIBIBYTE = 1024


@dataclass(frozen=True)
class Test:
    """One PassMark figure: its key's test name, PassMark's label and unit, and ours."""

    key: str
    label: str
    passmark_unit: str
    unit: str
    factor: float
    higher_is_better: bool = True


TESTS = {
    "CPU_INTEGER_MATH": Test(
        "cpu-integer-math", "Integer Math", "Million Operations/s", "op/s", 1e6
    ),
    "CPU_FLOATINGPOINT_MATH": Test(
        "cpu-floatingpoint-math", "Floating Point Math", "Million Operations/s", "op/s", 1e6
    ),
    "CPU_PRIME": Test("cpu-prime", "Prime Numbers", "Million Primes/s", "prime/s", 1e6),
    "CPU_SORTING": Test("cpu-sorting", "Sorting", "Thousand Strings/s", "string/s", 1e3),
    "CPU_ENCRYPTION": Test("cpu-encryption", "Encryption", "MB/s", "B/s", MEBIBYTE),
    "CPU_COMPRESSION": Test("cpu-compression", "Compression", "KB/s", "B/s", KIBIBYTE),
    "CPU_SINGLETHREAD": Test(
        "cpu-singlethread", "CPU Single Threaded", "Million Operations/s", "op/s", 1e6
    ),
    "CPU_PHYSICS": Test("cpu-physics", "Physics", "Frames/s", "frame/s", 1),
    "CPU_MATRIX_MULT_SSE": Test(
        "cpu-matrix-mult-sse", "Extended Instructions (SSE)", "Million Matrices/s", "matrix/s", 1e6
    ),
    "CPU_mm": Test("cpu-mm", "Extended Instructions, MMX part", "(not printed)", "score", 1),
    "CPU_sse": Test("cpu-sse", "Extended Instructions, SSE part", "(not printed)", "score", 1),
    "CPU_fma": Test("cpu-fma", "Extended Instructions, FMA part", "(not printed)", "score", 1),
    "CPU_avx": Test("cpu-avx", "Extended Instructions, AVX part", "(not printed)", "score", 1),
    "CPU_avx512": Test(
        "cpu-avx512", "Extended Instructions, AVX-512 part", "(not printed)", "score", 1
    ),
    "m_CPU_enc_SHA": Test("cpu-enc-sha", "Encryption, SHA part", "bytes/s", "B/s", 1),
    "m_CPU_enc_AES": Test("cpu-enc-aes", "Encryption, AES part", "bytes/s", "B/s", 1),
    "m_CPU_enc_ECDSA": Test("cpu-enc-ecdsa", "Encryption, ECDSA part", "bytes/s", "B/s", 1),
    "ME_ALLOC_S": Test("me-alloc-s", "Database Operations", "Thousand Operations/s", "op/s", 1e3),
    "ME_READ_S": Test("me-read-s", "Memory Read Cached", "MB/s", "B/s", MEBIBYTE),
    "ME_READ_L": Test("me-read-l", "Memory Read Uncached", "MB/s", "B/s", MEBIBYTE),
    "ME_WRITE": Test("me-write", "Memory Write", "MB/s", "B/s", MEBIBYTE),
    "ME_LARGE": Test("me-large", "Available RAM", "Megabytes", "B", MEBIBYTE),
    "ME_LATENCY": Test(
        "me-latency", "Memory Latency", "Nanoseconds", "s", 1e-9, higher_is_better=False
    ),
    "ME_THREADED": Test("me-threaded", "Memory Threaded", "MB/s", "B/s", MEBIBYTE),
    "SUMM_CPU": Test("cpu-mark", "CPU Mark", "(a mark)", "score", 1),
    "SUMM_ME": Test("memory-mark", "Memory Mark", "(a mark)", "score", 1),
}
_INSTRUCTION_PARTS = ("CPU_mm", "CPU_sse", "CPU_fma", "CPU_avx", "CPU_avx512")
# Results entries that are not figures of a test.
_NOT_TESTS = {"Results Complete", "NumTestProcesses"}
_TEST_NAME = re.compile(r"^(?:m_)?(?:CPU|ME|SUMM)_\w+$")

_READ_SECTIONS = ("Results", "Version")
_ENTRY = re.compile(r"^( *)([^:#][^:]*?):(?:\s+(.*?))?\s*$")
_NUMBER = re.compile(rf"-?{NUMBER_WITH_EXPONENT}")


def looks_like(text: str) -> bool:
    """True for a PassMark report: a `Results:` section with CPU_, ME_ or SUMM_ entries."""
    return bool(
        re.search(r"^Results:\s*$", text, re.MULTILINE)
        and re.search(r"^\s+(?:CPU|ME|SUMM)_\w+:\s*-?\d", text, re.MULTILINE)
    )


def parse(text: str) -> ParsedOutput:
    """One result per test PassMark ran; tests it did not run (0) are skipped."""
    sections = _read_sections(text)
    if "Results" not in sections:
        raise ParseError(
            "no `Results:` section (is this PassMark's YAML report?)",
            line=text.rstrip().count("\n") + 1,
        )
    output = ParsedOutput(format=FORMAT, tool_version=_version(sections.get("Version", {})))
    results = sections["Results"]
    zeros: list[str] = []
    unknown: list[str] = []
    for name, (value, line) in results.items():
        if name in _NOT_TESTS or not _TEST_NAME.match(name):
            continue
        if not _NUMBER.fullmatch(value):
            raise ParseError(f"{name} is not a number: {value[:40]!r}", line=line)
        figure = float(value)
        if figure < 0:
            raise ParseError(f"{name} is negative: {value}", line=line)
        if figure == 0:
            zeros.append(name)
            continue
        test = TESTS.get(name)
        if test is None:
            unknown.append(name)
            test = Test(name.lower().removeprefix("m_").replace("_", "-"), name, "?", "score", 1)
        output.results.append(
            ParsedResult(
                f"passmark:{test.key}",
                {},
                figure * test.factor,
                test.unit,
                higher_is_better=test.higher_is_better,
            )
        )
    complete = results.get("Results Complete")
    if complete is not None and complete[0].lower() != "true":
        output.warnings.append(
            f"line {complete[1]}: PassMark says its results are not complete "
            f"(Results Complete: {complete[0]})"
        )
    output.warnings.extend(_zero_warnings(zeros))
    if unknown:
        output.warnings.append(
            f"PassMark's unit for {', '.join(unknown)} is not known here: kept as score"
        )
    if not output.results:
        raise ParseError("the `Results:` section holds no test figure", line=_first_line(results))
    return output


def _zero_warnings(zeros: list[str]) -> list[str]:
    """One warning per reason a test reports 0: PassMark's 0 means it did not run."""
    memory = [name for name in zeros if name.startswith("ME_") or name == "SUMM_ME"]
    instructions = [name for name in zeros if name in _INSTRUCTION_PARTS]
    others = [name for name in zeros if name not in memory and name not in instructions]
    warnings = []
    if memory:
        warnings.append(
            f"PassMark reports 0 for {', '.join(memory)}: the memory suite did not run "
            "(PassMark runs only its CPU suite with under 512 MB free); not stored"
        )
    if instructions:
        warnings.append(
            f"PassMark reports 0 for {', '.join(instructions)}: the CPU lacks these "
            "instructions; not stored"
        )
    if others:
        warnings.append(f"PassMark reports 0 for {', '.join(others)}: not run; not stored")
    return warnings


def _read_sections(text: str) -> dict[str, dict[str, tuple[str, int]]]:
    """`Results` and `Version` -> their direct entries: name -> (value, line). Other
    sections and deeper entries are passed over."""
    sections: dict[str, dict[str, tuple[str, int]]] = {}
    current: dict[str, tuple[str, int]] | None = None
    indent: int | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        depth = len(line) - len(line.lstrip(" "))
        if depth > 0 and (current is None or depth != (indent or depth)):
            continue  # a section not read, or an entry nested deeper
        entry = _ENTRY.match(line)
        if entry is None:
            raise ParseError(f"not a `name: value` line: {line.strip()[:80]!r}", line=number)
        name, value = entry[2].strip(), _scalar(entry[3] or "")
        if depth == 0:
            read = name in _READ_SECTIONS and not value
            current, indent = (sections.setdefault(name, {}) if read else None), None
            continue
        indent = depth
        current[name] = (value, number)
    return sections


def _scalar(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _version(version: dict[str, tuple[str, int]]) -> str | None:
    parts = [version.get(name, ("", 0))[0] for name in ("Major", "Minor", "Build")]
    if not all(part.isdigit() for part in parts):
        return None
    return ".".join(parts)


def _first_line(entries: dict[str, tuple[str, int]]) -> int:
    return min((line for _value, line in entries.values()), default=1)


# The machine's memory, from the report's `SystemInformation` section: `Memory:` (MiB the
# operating system sees) and `MemModuleInfo`'s modules (`size:`, GB on most reports, MB on
# some older ones).
_SYSTEM_MEMORY = re.compile(r"^  Memory: (\d+)\s*$", re.M)
_MODULE_SIZE = re.compile(r"^      size: (\d+)\s*$", re.M)
# Instance memory comes in sizes of 2^k or 1.5 x 2^k GiB (k >= -1: 0.5, 0.75, 1, 1.5, ...).
_SIZES_GIB = sorted(
    Decimal(mantissa) * Decimal(2) ** k for k in range(-1, 16) for mantissa in ("1", "1.5")
)


def nominal_memory_gib(text: str) -> Decimal | None:
    """The memory the machine was sold with, in GiB, read from a PassMark report; None when
    the report has no `SystemInformation` memory.

    The operating system sees less than the nominal figure (the kernel keeps some): the
    memory modules' total is taken when it lies between what the system sees and 10% above
    it (in GB, or in MB on older reports); otherwise (ARM machines report no modules) the
    figure the system sees, rounded up to the next 2^k or 1.5 x 2^k GiB. Checked against Spare
    Cores' server table of AWS (tests/parsers/test_passmark_memory.py): it agrees for every
    Nitro type; on 8 of 127 Xen-era types (3.75, 7.5, 30.5 GiB ...) it does not, and those
    are all in the table, whose figure is the better source.
    """
    seen = _SYSTEM_MEMORY.search(text)
    if seen is None or int(seen.group(1)) == 0:
        return None
    seen_gib = Decimal(seen.group(1)) / 1024
    modules = sum(int(size) for size in _MODULE_SIZE.findall(text))
    for total in (Decimal(modules), Decimal(modules) / 1024):
        if modules and seen_gib <= total <= seen_gib * Decimal("1.1"):
            return total
    return next((size for size in _SIZES_GIB if size >= seen_gib), None)
