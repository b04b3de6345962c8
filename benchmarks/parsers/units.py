"""Unit conversions shared by the tool parsers, and the key suffix they give a percentile.

Every figure is stored in one unit per benchmark key: bytes (`B/s` for bandwidth), bits
(`bit/s` for network throughput), milliseconds (`ms` for latency), seconds for durations.
"""

from __future__ import annotations

import re

# A decimal number as the tools print it (no sign, no exponent), for use inside patterns.
NUMBER = r"\d+(?:\.\d+)?"
# The same, possibly with an exponent (`1.5e+06`), as tools print figures with `%g`.
NUMBER_WITH_EXPONENT = rf"{NUMBER}(?:[eE][-+]?\d+)?"

_PREFIX_POWERS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}

_MILLISECONDS_PER = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}

# A size as tools print it: `4k`, `16KiB`, `1024K` (sysbench 0.4), `248.44Mb` (sysbench 0.4's
# "Mb" means mebibytes), `4096`, `2GB`.
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(?:i?b)?\s*$", re.IGNORECASE)


def binary_bytes(number: float, prefix: str) -> float:
    """`number` with a 1024-based prefix (``""``, ``k``, ``M``, ``G``, ...) in bytes."""
    return number * 1024 ** _PREFIX_POWERS[prefix.lower()]


def decimal_multiple(number: float, prefix: str) -> float:
    """`number` with a 1000-based prefix (``""``, ``k``, ``M``, ``G``, ...) as a plain count."""
    return number * 1000 ** _PREFIX_POWERS[prefix.lower()]


def size_in_bytes(text: str) -> int | None:
    """A block or transfer size (`4k`, `16KiB`, `1M`, `4096`) in bytes, 1024-based; None if
    the text is not a size (a range such as `4k-64k`, say)."""
    match = _SIZE.match(text)
    if match is None:
        return None
    return round(binary_bytes(float(match[1]), match[2]))


def milliseconds(number: float, unit: str) -> float:
    """A duration printed as `number` `unit` (ns, us, ms, s, m, h) in milliseconds."""
    return number * _MILLISECONDS_PER[unit]


def duration_seconds(text: str) -> int | None:
    """A run length as wrk prints it (`30s`, `1m`, `2h`, `1.00m`) in whole seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|h)\s*", text)
    if match is None:
        return None
    return round(milliseconds(float(match[1]), match[2]) / 1000)


def percentile_suffix(percentile: float) -> str:
    """The key suffix for a latency percentile: 95 -> `latency_p95`, 99.9 -> `latency_p99_9`."""
    text = f"{percentile:f}".rstrip("0").rstrip(".")
    return "latency_p" + text.replace(".", "_")
