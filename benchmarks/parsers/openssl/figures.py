"""What a row or record of `openssl speed` yields, before the number of processes is known,
and the readers of its numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from benchmarks.parsers.base import ParsedResult, ParseError
from benchmarks.parsers.units import NUMBER, NUMBER_WITH_EXPONENT

FORMAT = "openssl"

# A table's figure: thousands of bytes per second (`k`), or bytes per second up to 10000.
TABLE_FIGURE = re.compile(rf"^{NUMBER}k?$")
SECONDS = re.compile(rf"^{NUMBER}s$")
_RECORD_NUMBER = re.compile(rf"^{NUMBER_WITH_EXPONENT}$")


@dataclass(frozen=True)
class Figure:
    """One figure before the number of processes is known."""

    benchmark: str
    param: str  # block_size or op
    param_value: int | str
    value: float
    unit: str

    def result(self, processes: int, value: float | None = None) -> ParsedResult:
        """The result of `processes` processes: this figure's value, or the one given (a sum)."""
        return ParsedResult(
            benchmark=self.benchmark,
            params={self.param: self.param_value, "processes": processes},
            value=self.value if value is None else value,
            unit=self.unit,
        )


def symmetric_figures(name: str, block_sizes: list[int], values: list[float]) -> list[Figure]:
    """A cipher's or digest's figures, one per block size, in bytes per second."""
    benchmark = "openssl:" + "-".join(name.lower().split())
    return [
        Figure(benchmark, "block_size", size, value, "B/s")
        for size, value in zip(block_sizes, values, strict=True)
    ]


def bytes_per_second(token: str) -> float:
    """A table's figure in bytes per second."""
    # Decimal keeps 3520877.91k exactly 3520877910.
    if token.endswith("k"):
        return float(Decimal(token[:-1]) * 1000)
    return float(token)


def read_number(token: str, line: int) -> float:
    """A record's figure; ParseError naming the line when it is not a number."""
    if not _RECORD_NUMBER.match(token):
        raise ParseError(f"{shorten(token)!r} is not a number", line=line)
    return float(token)


def read_whole_number(token: str, line: int) -> int:
    """A record's block size, curve index or key size; ParseError naming the line."""
    if not token.isdigit():
        raise ParseError(f"{shorten(token)!r} is not a whole number", line=line)
    return int(token)


def release(version: str | None) -> tuple[int, int, int] | None:
    """`3.0.2` -> (3, 0, 2), to compare OpenSSL releases; None for no or an unusual version."""
    match = re.match(r"(\d+)\.(\d+)\.(\d+)", version or "")
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def default_block_sizes(version: str | None) -> list[int]:
    """The block sizes `openssl speed` measures when told none (1.1.0 added 16384)."""
    numbers = release(version)
    if numbers is not None and numbers < (1, 1, 0):
        return [16, 64, 256, 1024, 8192]
    return [16, 64, 256, 1024, 8192, 16384]


def listed_sizes(block_sizes: list[int]) -> str:
    """Block sizes as a message lists them: `16 64 256`."""
    return " ".join(map(str, block_sizes))


def shorten(text: str, limit: int = 80) -> str:
    """Text cut to `limit` characters for a message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def counted(number: int, noun: str) -> str:
    """`1 figure`, `3 figures`."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
