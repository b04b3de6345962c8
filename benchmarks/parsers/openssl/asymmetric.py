"""The asymmetric figures of `openssl speed` (rsa, dsa, ecdsa, ecdh, eddsa, sm2, ffdh), from
its tables and from its -mr records `+F2`..`+F8`, in operations per second."""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks.parsers.base import ParseError
from benchmarks.parsers.openssl.figures import (
    SECONDS,
    Figure,
    counted,
    read_number,
    read_whole_number,
    release,
)

_SIGN_VERIFY_HEADER = re.compile(r"^sign\s+verify\s+sign/s\s+verify/s$")
_ENCRYPT_DECRYPT_HEADER = re.compile(
    r"^sign\s+verify\s+encrypt\s+decrypt\s+sign/s\s+verify/s\s+encr\./s\s+decr\./s$"
)
_OP_HEADER = re.compile(r"^op\s+op/s$")
_RSA_DSA_ROW = re.compile(r"^(rsa|dsa)\s+(\d+)\s+bits\s+(.*)$")
_CURVE_ROW = re.compile(r"^(\d+)\s+bits?\s+(ecdsa|ecdh|EdDSA|SM2)\s+\((.+?)\)\s+(.*)$")
_FFDH_ROW = re.compile(r"^(\d+)\s+bits?\s+(ffdh)\s+(.*)$")

_SIGN_VERIFY = ("sign", "verify")
_ALL_RSA_OPS = ("sign", "verify", "encrypt", "decrypt")
_DERIVE = ("derive",)

# ecdsa and ecdh -mr records name the curve only by its index in speed.c's list, which
# differs between builds; the key size tells the lists apart.
_NIST_PRIME = [
    ("secp160r1", 160),
    ("nistp192", 192),
    ("nistp224", 224),
    ("nistp256", 256),
    ("nistp384", 384),
    ("nistp521", 521),
]
_NIST_BINARY = [
    (f"nist{kind}{bits}", bits) for kind in ("k", "b") for bits in (163, 233, 283, 409, 571)
]
_BRAINPOOL = [(f"brainpoolP{bits}{kind}1", bits) for bits in (256, 384, 512) for kind in ("r", "t")]
_MONTGOMERY = [("X25519", 253), ("X448", 448)]
_CURVE_LISTS = (
    _NIST_PRIME + _NIST_BINARY + _BRAINPOOL + _MONTGOMERY,  # 3.x
    _NIST_PRIME + _NIST_BINARY + _MONTGOMERY,  # 1.0.2, 1.1.1
    _NIST_PRIME + _BRAINPOOL + _MONTGOMERY,  # 3.x built without binary curves
)

_SECONDS_WARNING = (
    "asymmetric -mr figures below 1 were read as seconds per operation "
    "(the form of OpenSSL before 1.1.1)"
)


class AsymmetricTables:
    """Reads the asymmetric tables' lines, keeping which columns rsa's rows have."""

    def __init__(self) -> None:
        self.rsa_columns: int | None = None

    def read(self, number: int, text: str) -> list[Figure] | None:
        """A row's figures, [] for a header, None for a line of no asymmetric table."""
        if _SIGN_VERIFY_HEADER.match(text):
            self.rsa_columns = 2
        elif _ENCRYPT_DECRYPT_HEADER.match(text):
            self.rsa_columns = 4
        elif _OP_HEADER.match(text):
            pass
        elif row := _RSA_DSA_ROW.match(text):
            return self._row(number, row[1], int(row[2]), None, row[3])
        elif row := _CURVE_ROW.match(text):
            return self._row(number, row[2].lower(), int(row[1]), row[3], row[4])
        elif row := _FFDH_ROW.match(text):
            return self._row(number, "ffdh", int(row[1]), None, row[3])
        else:
            return None
        return []

    def _row(
        self, number: int, family: str, bits: int, curve: str | None, columns: str
    ) -> list[Figure]:
        tokens = columns.split()
        ops = self._row_ops(family, len(tokens))
        expected = 2 * len(ops)
        if len(tokens) != expected:
            raise ParseError(
                f"{family} {bits} bits: {counted(len(tokens), 'figure')} where the table has "
                f"{expected} (seconds per operation, then operations per second); the row is cut "
                "or garbled",
                line=number,
            )
        times, rates = tokens[: len(ops)], tokens[len(ops) :]
        for token in times:
            if not SECONDS.match(token):
                raise ParseError(f"{family} {bits} bits: {token!r} is not a time", line=number)
        key = _key(family, bits, curve)
        return [
            Figure(key, "op", op, read_number(rate, number), "op/s")
            for op, rate in zip(ops, rates, strict=True)
        ]

    def _row_ops(self, family: str, token_count: int) -> tuple[str, ...]:
        if family in ("ecdh", "ffdh"):
            return _DERIVE
        if family != "rsa":
            return _SIGN_VERIFY
        columns = self.rsa_columns or (4 if token_count == 8 else 2)
        return _ALL_RSA_OPS[:columns]


@dataclass(frozen=True)
class _RecordLayout:
    """The shape of one asymmetric -mr record: `+Fn:index:bits[:curve]:figure...`."""

    kind: str
    family: str
    named: bool  # the curve's name follows the bits
    ops: tuple[str, ...]
    counts: tuple[int, ...]  # how many figures OpenSSL versions print
    reciprocal: bool = False  # one figure and then its reciprocal


_RECORDS = {
    layout.kind: layout
    for layout in (
        _RecordLayout("+F2", "rsa", False, _ALL_RSA_OPS, (2, 4)),
        _RecordLayout("+F3", "dsa", False, _SIGN_VERIFY, (2,)),
        _RecordLayout("+F4", "ecdsa", False, _SIGN_VERIFY, (2,)),
        _RecordLayout("+F5", "ecdh", False, _DERIVE, (2,), reciprocal=True),
        _RecordLayout("+F6", "eddsa", True, _SIGN_VERIFY, (2,)),
        _RecordLayout("+F7", "sm2", True, _SIGN_VERIFY, (2,)),
        _RecordLayout("+F8", "ffdh", False, _DERIVE, (2,), reciprocal=True),
    )
}


def record_figures(
    kind: str, fields: list[str], number: int, *, version: str | None, warnings: list[str]
) -> list[Figure]:
    """The figures of one `+F2`..`+F8` record; what had to be assumed goes to `warnings`."""
    layout = _RECORDS.get(kind)
    if layout is None:
        raise ParseError(f"unknown record {kind}", line=number)
    name_fields = 3 if layout.named else 2
    values = [read_number(value, number) for value in fields[name_fields:]]
    if len(fields) < name_fields or len(values) not in layout.counts:
        raise ParseError(
            f"{layout.kind} record for {layout.family}: {counted(len(values), 'figure')} where "
            f"OpenSSL prints {' or '.join(map(str, layout.counts))}; the line is cut "
            "or garbled",
            line=number,
        )
    index, bits = read_whole_number(fields[0], number), read_whole_number(fields[1], number)
    curve = fields[2] if layout.named else None
    if layout.family in ("ecdsa", "ecdh"):
        curve = _curve_name(layout, index, bits, number, warnings)
    rates = _record_rates(layout, values, number, version, warnings)
    key = _key(layout.family, bits, curve)
    ops = layout.ops[: len(rates)]
    return [Figure(key, "op", op, rate, "op/s") for op, rate in zip(ops, rates, strict=True)]


def _record_rates(
    layout: _RecordLayout,
    values: list[float],
    number: int,
    version: str | None,
    warnings: list[str],
) -> list[float]:
    # Before 1.1.1, -mr records held seconds per operation; since, operations per
    # second. For ecdh and ffdh a figure comes with its reciprocal.
    measured = values[:1] if layout.reciprocal else values
    if not _in_seconds(measured, version, warnings):
        return measured
    if 0 in measured:
        raise ParseError(f"{layout.kind} record: a time of zero seconds", line=number)
    return [1 / value for value in measured]


def _in_seconds(values: list[float], version: str | None, warnings: list[str]) -> bool:
    numbers = release(version)
    if numbers is not None:
        return numbers < (1, 1, 1)
    # No version line (-mr prints none): operation rates are above 1 per second, times
    # per operation below 1 second, for every key size OpenSSL measures.
    in_seconds = all(value < 1 for value in values)
    if in_seconds and _SECONDS_WARNING not in warnings:
        warnings.append(_SECONDS_WARNING)
    return in_seconds


def _curve_name(
    layout: _RecordLayout, index: int, bits: int, number: int, warnings: list[str]
) -> str:
    for curves in _CURVE_LISTS:
        if index < len(curves) and curves[index][1] == bits:
            return curves[index][0]
    warnings.append(
        f"line {number}: {layout.family} curve number {index} ({bits} bits) is unknown; "
        f"named {bits}bits"
    )
    return f"{bits}bits"


def _key(family: str, bits: int, curve: str | None) -> str:
    if family in ("rsa", "dsa", "ffdh"):
        return f"openssl:{family}{bits}"
    if family == "sm2":
        return "openssl:sm2"
    return f"openssl:{family}-{(curve or f'{bits}bits').lower()}"
