"""`openssl speed` output -> ParsedOutput.

Reads what OpenSSL 1.0.2, 1.1.1 and 3.x print:
- the tables: `type 16 bytes 64 bytes ...` followed by rows of thousands of bytes per second
  (suffix `k`; OpenSSL prints figures of 10000 or less without it, in bytes per second), and
  the asymmetric tables (`sign/s verify/s`, `encr./s decr./s`, `op/s`);
- the `-mr` records (`+H` block sizes, `+F` ciphers and digests, `+F2`..`+F8` asymmetric),
  bare or as the `Got: ... from N` lines that the parent of `-multi N` prints for each child
  before its total. A total is used when there is one; otherwise the children's figures are
  summed.

Benchmark keys, always `openssl:` and lower case:
- ciphers and digests: the row's name with spaces turned into dashes (`openssl:aes-256-cbc`,
  `openssl:sha256`, `openssl:hmac(md5)`; 1.0.2's `aes-128 cbc` becomes `openssl:aes-128-cbc`);
  params `block_size` (bytes) and `processes`; unit `B/s`.
- rsa, dsa and finite-field DH by key size: `openssl:rsa2048`, `openssl:dsa2048`,
  `openssl:ffdh2048`; ecdsa, ecdh and eddsa by the curve OpenSSL names:
  `openssl:ecdsa-nistp256`, `openssl:ecdh-x25519`, `openssl:eddsa-ed25519`; and
  `openssl:sm2`. Params `op` (sign, verify, encrypt, decrypt, derive) and `processes`; unit
  `op/s`.
`processes` is the number of `-multi` children (1 without `-multi`); values are totals over
all of them. `-multi -evp` tables name the row `evp`: the key stays `openssl:evp` (with a
warning) unless the children's lines name the algorithm.

Also reads Spare Cores' own parse of such a run (`parsed.json`): a JSON list of
`{"algo", "block_size", "speed"}`, speed in bytes per second summed over all processes. It
gives the same keys and params as the raw output of the same run; it does not record how
many processes ran (`-multi N`), so the caller passes `processes` (Spare Cores run one per
vCPU); without it `processes` is left out and a warning says so.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.jsondoc import DocumentLines, load_document

FORMAT = "openssl"
CALLER_SUPPLIED = ("processes",)

_SIGNATURE = re.compile(
    r"^\s*OpenSSL \d+\.\d+\.\d+|^version: \d|^type(?:\s+\d+ bytes)+\s*$|^(?:Got: )?\+(?:H|F\d*):"
    r"|^ALGO: |sign/s verify/s\s*$",
    re.MULTILINE,
)

_VERSION_LINES = (
    re.compile(r"^OpenSSL\s+(\d+\.\d+\.\d+\S*?),?(?:\s|$)"),
    re.compile(r"^version:\s*(\S+)"),
)
_NOISE = re.compile(
    r"^(?:built on|options|compiler|CPUINFO|platform)\b"
    r"|^The 'numbers' are in 1000s of bytes per second"
    r"|^Doing "
    r"|^You have chosen to measure elapsed time"
    r"|^\d+ .*\bin \d+(?:\.\d+)?s$"
)
_FORKED = re.compile(r"^Forked child (\d+)$")
_GOT = re.compile(r"^Got: (\+\S+) from (\d+)$")
_PROGRESS_RECORD = re.compile(r"^\+(?:DTP?|DNP?|R\d*)$")
# Harnesses that capture stdout and stderr together (Spare Cores') interleave the parent's
# `Got:` lines with the children's `+R` lines, so a `Got:` line can be cut anywhere and go on
# a few lines further down.
_FRAGMENT = re.compile(
    r"^(?:.*\bfrom|rom|om|m) \d+$"  # the end of a cut `Got:` line
    r"|^(?!\+(?:DTP?|DNP?|R\d*):).+\+(?:DTP?|DNP?|R\d*):\S*$"  # a cut line, then a child's record
    r"|^(?=.*\d)[\w.:()/-]+$"  # a piece from the middle
)

_TYPE_HEADER = re.compile(r"^type(?:\s+\d+ bytes)+$")
_SIGN_VERIFY_HEADER = re.compile(r"^sign\s+verify\s+sign/s\s+verify/s$")
_ENCRYPT_DECRYPT_HEADER = re.compile(
    r"^sign\s+verify\s+encrypt\s+decrypt\s+sign/s\s+verify/s\s+encr\./s\s+decr\./s$"
)
_OP_HEADER = re.compile(r"^op\s+op/s$")
# OpenSSL 3.5 adds KEM and signature-algorithm tables (and -mr records +F9, +F10).
_UNSUPPORTED_HEADER = re.compile(r"^keygen\s+(?:encaps|signs)\s+(?:decaps|verify)\s+keygens/s")
_UNSUPPORTED_ROW = re.compile(r"^\S+(?:\s+\d+(?:\.\d+)?s){3}(?:\s+\d+(?:\.\d+)?){3}$")

_RSA_DSA_ROW = re.compile(r"^(rsa|dsa)\s+(\d+)\s+bits\s+(.*)$")
_CURVE_ROW = re.compile(r"^(\d+)\s+bits?\s+(ecdsa|ecdh|EdDSA|SM2)\s+\((.+?)\)\s+(.*)$")
_FFDH_ROW = re.compile(r"^(\d+)\s+bits?\s+(ffdh)\s+(.*)$")

_FIGURE = re.compile(r"^\d+(?:\.\d+)?k?$")
_SECONDS = re.compile(r"^\d+(?:\.\d+)?s$")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$")

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


def looks_like(text: str) -> bool:
    """True when the text carries a mark only `openssl speed` prints, or is Spare Cores'
    parsed.json of such a run."""
    return _SIGNATURE.search(text) is not None or _is_spare_cores_json(text)


def parse(text: str, *, processes: int | None = None) -> ParsedOutput:
    """Read `openssl speed` output (tables or -mr records, with or without -multi), or Spare
    Cores' parsed.json of it; `processes` is the `-multi` count, for parsed.json."""
    if processes is not None and processes < 1:
        raise ValueError(f"processes must be a positive whole number, not {processes!r}")
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("["):
        return _parse_spare_cores_json(text, processes)
    reader = _Reader()
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        reader.read(number, line.strip())
    output = reader.finish(last_line=len(lines))
    shown = {result.params["processes"] for result in output.results}
    if processes is not None and shown != {processes}:
        output.warnings.append(
            f"the output shows {' and '.join(map(str, sorted(shown)))} processes; "
            f"the processes given ({processes}) were not used"
        )
    return output


def _is_spare_cores_json(text: str) -> bool:
    head = text.lstrip()[:400]
    return head.startswith("[") and all(f'"{name}"' in head for name in _JSON_FIELDS)


_JSON_FIELDS = ("algo", "block_size", "speed")


def _parse_spare_cores_json(text: str, processes: int | None) -> ParsedOutput:
    document, _first_line, end = load_document(text, openers="[")
    lines = DocumentLines(text, openers="[")
    if text[end:].strip():
        raise ParseError("unexpected text after the JSON document", line=lines.at(end))
    if not isinstance(document, list) or not document:
        raise ParseError("expected a list of {algo, block_size, speed} records", line=lines.of(()))
    output = ParsedOutput(format=FORMAT)
    for index, record in enumerate(document):
        if not isinstance(record, dict) or not all(name in record for name in _JSON_FIELDS):
            raise ParseError(
                f"record {index} is not an {{algo, block_size, speed}} object",
                line=lines.of((index,)),
            )
        algo, block_size, speed = (record[name] for name in _JSON_FIELDS)
        if not isinstance(algo, str) or not algo.strip():
            raise ParseError(f"record {index}: algo is not a name", line=lines.of((index, "algo")))
        if not isinstance(block_size, int) or isinstance(block_size, bool) or block_size < 1:
            raise ParseError(
                f"record {index}: block_size is not a positive whole number: {block_size!r}",
                line=lines.of((index, "block_size")),
            )
        if not isinstance(speed, int | float) or isinstance(speed, bool) or not _finite(speed):
            raise ParseError(
                f"record {index}: speed is not a number that is not negative: {speed!r}",
                line=lines.of((index, "speed")),
            )
        (figure,) = _symmetric_figures(algo, [block_size], [float(speed)])
        params: dict[str, int] = {"block_size": block_size}
        if processes is not None:
            params["processes"] = processes
        output.results.append(ParsedResult(figure.benchmark, params, figure.value, figure.unit))
    if processes is None:
        output.warnings.append(
            "Spare Cores' parsed.json does not record how many processes ran (openssl speed "
            "-multi N); processes is left out: pass it (Spare Cores run one per vCPU)"
        )
    return output


@dataclass(frozen=True)
class _Figure:
    """One figure before the number of processes is known."""

    benchmark: str
    param: str  # block_size or op
    param_value: int | str
    value: float
    unit: str

    def result(self, processes: int) -> ParsedResult:
        return ParsedResult(
            benchmark=self.benchmark,
            params={self.param: self.param_value, "processes": processes},
            value=self.value,
            unit=self.unit,
        )


@dataclass
class _ChildSum:
    figure: _Figure
    total: float
    children: set[int]
    first_line: int


@dataclass
class _MultiRun:
    """What the children of one `-multi` run reported, until the parent prints its totals."""

    children: set[int] = field(default_factory=set)
    sums: dict[tuple, _ChildSum] = field(default_factory=dict)
    totaled: set[str] = field(default_factory=set)
    has_total: bool = False
    unreadable: list[tuple[int, str]] = field(default_factory=list)

    @property
    def processes(self) -> int:
        return max(self.children) + 1

    def add(self, figure: _Figure, child: int, line: int) -> None:
        identity = (figure.benchmark, figure.param, figure.param_value)
        child_sum = self.sums.get(identity)
        if child_sum is None:
            self.sums[identity] = _ChildSum(figure, figure.value, {child}, line)
        else:
            child_sum.total += figure.value
            child_sum.children.add(child)


class _Reader:
    """Reads the output line by line, keeping what the next lines need."""

    def __init__(self) -> None:
        self.results: list[ParsedResult] = []
        self.warnings: list[str] = []
        self.version: str | None = None
        self.block_sizes: list[int] | None = None
        self.rsa_columns: int | None = None
        self.run = _MultiRun()
        self.ignored_lines: list[int] = []
        self.in_unsupported_table = False
        self.unsupported_line: int | None = None
        self.warned_seconds = False

    # -- lines --------------------------------------------------------------------------

    def read(self, number: int, text: str) -> None:
        if not text or _NOISE.match(text) or self._read_version(text):
            return
        if text.startswith("ALGO:"):
            self._end_run()
            self.block_sizes = None
            return
        if forked := _FORKED.match(text):
            self._child_seen(int(forked[1]))
        elif text.startswith("Got:"):
            self._read_child_line(number, text)
        elif self._in_children_output() and _FRAGMENT.match(text):
            self.run.unreadable.append((number, "a child's line cut by other output"))
        elif text.startswith("+"):
            self._read_record(number, text, child=None)
        elif not self._read_table_line(number, text):
            raise ParseError(f"not `openssl speed` output: {_shorten(text)!r}", line=number)

    def _read_version(self, text: str) -> bool:
        for pattern in _VERSION_LINES:
            if match := pattern.match(text):
                if self.version is None:
                    self.version = match[1]
                elif match[1] != self.version:
                    self.warnings.append(
                        f"the output holds runs of OpenSSL {self.version} and {match[1]}; "
                        f"tool_version is {self.version}"
                    )
                return True
        return False

    def _read_child_line(self, number: int, text: str) -> None:
        match = _GOT.match(text)
        if match is None:
            if self.run.has_total:
                self._end_run()
            self.run.unreadable.append((number, "a child's line cut short"))
            return
        child = int(match[2])
        self._child_seen(child)
        try:
            self._read_record(number, match[1], child=child)
        except ParseError as error:
            self.run.unreadable.append((number, error.message))

    def _read_record(self, number: int, record: str, *, child: int | None) -> None:
        kind, _, rest = record.partition(":")
        fields = rest.split(":")
        if _PROGRESS_RECORD.match(kind):
            return
        if kind == "+H":
            self.block_sizes = [_whole_number(value, number) for value in fields]
            return
        if kind in ("+F9", "+F10"):
            self._skip_unsupported(number)
            return
        figures = self._record_figures(kind, fields, number)
        if child is None:
            self._total(figures, number)
        else:
            for figure in figures:
                self.run.add(figure, child, number)

    def _read_table_line(self, number: int, text: str) -> bool:
        if _TYPE_HEADER.match(text):
            self.block_sizes = [int(size) for size in re.findall(r"(\d+) bytes", text)]
        elif _SIGN_VERIFY_HEADER.match(text):
            self.rsa_columns = 2
        elif _ENCRYPT_DECRYPT_HEADER.match(text):
            self.rsa_columns = 4
        elif _OP_HEADER.match(text):
            pass
        elif _UNSUPPORTED_HEADER.match(text):
            self.in_unsupported_table = True
            self._skip_unsupported(number)
        elif self.in_unsupported_table and _UNSUPPORTED_ROW.match(text):
            pass
        elif row := _RSA_DSA_ROW.match(text):
            self._total(self._asymmetric_row(number, row[1], int(row[2]), None, row[3]), number)
        elif row := _CURVE_ROW.match(text):
            family = row[2].lower()
            self._total(self._asymmetric_row(number, family, int(row[1]), row[3], row[4]), number)
        elif row := _FFDH_ROW.match(text):
            self._total(self._asymmetric_row(number, "ffdh", int(row[1]), None, row[3]), number)
        else:
            return self._read_symmetric_row(number, text)
        return True

    # -- tables -------------------------------------------------------------------------

    def _read_symmetric_row(self, number: int, text: str) -> bool:
        tokens = text.split()
        first = next((i for i, token in enumerate(tokens) if _FIGURE.match(token)), None)
        if not first:
            return False
        name, figures = " ".join(tokens[:first]), tokens[first:]
        for token in figures:
            if not _FIGURE.match(token):
                raise ParseError(f"{name}: {token!r} is not a figure", line=number)
        block_sizes = self._block_sizes(number)
        if len(figures) != len(block_sizes):
            raise ParseError(
                f"{name}: {_count(len(figures), 'figure')} for {len(block_sizes)} block sizes "
                f"({_sizes(block_sizes)}); the row is cut or garbled",
                line=number,
            )
        values = [_bytes_per_second(token) for token in figures]
        self._total(_symmetric_figures(name, block_sizes, values), number)
        return True

    def _asymmetric_row(
        self, number: int, family: str, bits: int, curve: str | None, columns: str
    ) -> list[_Figure]:
        tokens = columns.split()
        ops = self._row_ops(family, len(tokens))
        expected = 2 * len(ops)
        if len(tokens) != expected:
            raise ParseError(
                f"{family} {bits} bits: {_count(len(tokens), 'figure')} where the table has "
                f"{expected} (seconds per operation, then operations per second); the row is cut "
                "or garbled",
                line=number,
            )
        times, rates = tokens[: len(ops)], tokens[len(ops) :]
        for token in times:
            if not _SECONDS.match(token):
                raise ParseError(f"{family} {bits} bits: {token!r} is not a time", line=number)
        key = _asymmetric_key(family, bits, curve)
        return [
            _Figure(key, "op", op, _number(rate, number), "op/s")
            for op, rate in zip(ops, rates, strict=True)
        ]

    def _row_ops(self, family: str, token_count: int) -> tuple[str, ...]:
        if family in ("ecdh", "ffdh"):
            return _DERIVE
        if family != "rsa":
            return _SIGN_VERIFY
        columns = self.rsa_columns or (4 if token_count == 8 else 2)
        return _ALL_RSA_OPS[:columns]

    # -- -mr records --------------------------------------------------------------------

    def _record_figures(self, kind: str, fields: list[str], number: int) -> list[_Figure]:
        if kind == "+F":
            return self._symmetric_record(fields, number)
        layout = _ASYMMETRIC_RECORDS.get(kind)
        if layout is None:
            raise ParseError(f"unknown record {kind}", line=number)
        return self._asymmetric_record(layout, fields, number)

    def _symmetric_record(self, fields: list[str], number: int) -> list[_Figure]:
        if len(fields) < 3:
            raise ParseError("+F record cut short", line=number)
        name, values = fields[1], [_number(value, number) for value in fields[2:]]
        block_sizes = self._block_sizes(number)
        if len(values) != len(block_sizes):
            raise ParseError(
                f"+F record for {name}: {_count(len(values), 'figure')} for "
                f"{len(block_sizes)} block sizes ({_sizes(block_sizes)}); the line is cut or "
                "garbled",
                line=number,
            )
        return _symmetric_figures(name, block_sizes, values)

    def _asymmetric_record(
        self, layout: _RecordLayout, fields: list[str], number: int
    ) -> list[_Figure]:
        name_fields = 3 if layout.named else 2
        values = [_number(value, number) for value in fields[name_fields:]]
        if len(fields) < name_fields or len(values) not in layout.counts:
            raise ParseError(
                f"{layout.kind} record for {layout.family}: {_count(len(values), 'figure')} where "
                f"OpenSSL prints {' or '.join(map(str, layout.counts))}; the line is cut "
                "or garbled",
                line=number,
            )
        index, bits = _whole_number(fields[0], number), _whole_number(fields[1], number)
        curve = fields[2] if layout.named else None
        if layout.family in ("ecdsa", "ecdh"):
            curve = self._curve_name(layout, index, bits, number)
        rates = self._record_rates(layout, values, number)
        key = _asymmetric_key(layout.family, bits, curve)
        ops = layout.ops[: len(rates)]
        return [_Figure(key, "op", op, rate, "op/s") for op, rate in zip(ops, rates, strict=True)]

    def _record_rates(self, layout: _RecordLayout, values: list[float], number: int) -> list[float]:
        # Before 1.1.1, -mr records held seconds per operation; since, operations per
        # second. For ecdh and ffdh a figure comes with its reciprocal.
        measured = values[:1] if layout.reciprocal else values
        if not self._in_seconds(measured):
            return measured
        if 0 in measured:
            raise ParseError(f"{layout.kind} record: a time of zero seconds", line=number)
        return [1 / value for value in measured]

    def _in_seconds(self, values: list[float]) -> bool:
        generation = _generation(self.version)
        if generation is not None:
            return generation < (1, 1, 1)
        # No version line (-mr prints none): operation rates are above 1 per second, times
        # per operation below 1 second, for every key size OpenSSL measures.
        in_seconds = all(value < 1 for value in values)
        if in_seconds and not self.warned_seconds:
            self.warned_seconds = True
            self.warnings.append(
                "asymmetric -mr figures below 1 were read as seconds per operation "
                "(the form of OpenSSL before 1.1.1)"
            )
        return in_seconds

    def _curve_name(self, layout: _RecordLayout, index: int, bits: int, number: int) -> str:
        for curves in _CURVE_LISTS:
            if index < len(curves) and curves[index][1] == bits:
                return curves[index][0]
        self.warnings.append(
            f"line {number}: {layout.family} curve number {index} ({bits} bits) is unknown; "
            f"named {bits}bits"
        )
        return f"{bits}bits"

    # -- totals and -multi children -----------------------------------------------------

    def _total(self, figures: list[_Figure], number: int) -> None:
        if figures and figures[0].benchmark == "openssl:evp":
            figures = self._name_evp(figures, number)
        processes = 1
        if self.run.children:
            processes = self.run.processes
            self.run.has_total = True
            self.run.totaled.update(figure.benchmark for figure in figures)
        self.results.extend(figure.result(processes) for figure in figures)

    def _name_evp(self, figures: list[_Figure], number: int) -> list[_Figure]:
        # The parent of 1.1.1's `-multi -evp` prints `evp`; its children print the name.
        named = {
            child_sum.figure.benchmark
            for child_sum in self.run.sums.values()
            if child_sum.figure.unit == "B/s"
            and child_sum.figure.benchmark not in self.run.totaled | {"openssl:evp"}
        }
        if len(named) == 1:
            benchmark = named.pop()
            return [_Figure(benchmark, f.param, f.param_value, f.value, f.unit) for f in figures]
        warning = (
            f"line {number}: `openssl speed -multi -evp` prints `evp` instead of the "
            "algorithm's name; the results are kept as openssl:evp"
        )
        if not self.run.children:
            warning += (
                ", and the number of processes is not in the output (processes is recorded as 1)"
            )
        self.warnings.append(warning)
        return figures

    def _child_seen(self, child: int) -> None:
        if self.run.has_total:
            self._end_run()
        self.run.children.add(child)

    def _in_children_output(self) -> bool:
        return bool(self.run.children or self.run.unreadable) and not self.run.has_total

    def _end_run(self) -> None:
        run = self.run
        if run.has_total:
            self.ignored_lines.extend(line for line, _ in run.unreadable)
            self._check_totals_match_children(run)
        elif run.sums:
            self._sum_children(run)
        self.run = _MultiRun()

    def _check_totals_match_children(self, run: _MultiRun) -> None:
        reported = {child_sum.figure.benchmark for child_sum in run.sums.values()}
        if reported - run.totaled:
            first_line = min(child_sum.first_line for child_sum in run.sums.values())
            self.warnings.append(
                f"line {first_line}: the children reported {', '.join(sorted(reported))} but "
                f"the totals name {', '.join(sorted(run.totaled))}; the totals were used"
            )

    def _sum_children(self, run: _MultiRun) -> None:
        pending = list(run.sums.values())
        if run.unreadable:
            line, problem = run.unreadable[0]
            raise ParseError(
                f"{problem}; with no total line after it, the children's figures cannot be summed",
                line=line,
            )
        processes = run.processes
        for child_sum in pending:
            if len(child_sum.children) != processes:
                raise ParseError(
                    f"only {len(child_sum.children)} of {processes} children reported "
                    f"{child_sum.figure.benchmark}, and no total follows",
                    line=child_sum.first_line,
                )
        self.results.extend(
            ParsedResult(
                benchmark=s.figure.benchmark,
                params={s.figure.param: s.figure.param_value, "processes": processes},
                value=s.total,
                unit=s.figure.unit,
            )
            for s in pending
        )
        names = sorted({s.figure.benchmark for s in pending})
        self.warnings.append(
            f"line {pending[0].first_line}: no total line for {', '.join(names)}; "
            f"summed the figures of the {processes} children"
        )

    # -- block sizes and the end --------------------------------------------------------

    def _block_sizes(self, number: int) -> list[int]:
        if self.block_sizes is None:
            self.block_sizes = _default_block_sizes(self.version)
            which = f"OpenSSL {self.version}" if self.version else "OpenSSL 1.1.0 and later"
            self.warnings.append(
                f"line {number}: no `type` header or +H record before these figures; "
                f"assumed the default block sizes of {which} ({_sizes(self.block_sizes)})"
            )
        return self.block_sizes

    def _skip_unsupported(self, number: int) -> None:
        if self.unsupported_line is None:
            self.unsupported_line = number
            self.warnings.append(
                f"line {number}: OpenSSL 3.5's KEM and signature-algorithm figures are not "
                "read yet; they were skipped"
            )

    def finish(self, last_line: int) -> ParsedOutput:
        self._end_run()
        if not self.results:
            raise ParseError(
                "reached the end of the output without an `openssl speed` result",
                line=last_line,
            )
        if self.ignored_lines:
            self.warnings.append(
                f"ignored {len(self.ignored_lines)} lines of the children's output cut by "
                f"interleaving (the first at line {self.ignored_lines[0]}); the parent's "
                "totals were used"
            )
        return ParsedOutput(
            format=FORMAT,
            results=self.results,
            tool_version=self.version,
            warnings=self.warnings,
        )


@dataclass(frozen=True)
class _RecordLayout:
    """The shape of one asymmetric -mr record: `+Fn:index:bits[:curve]:figure...`."""

    kind: str
    family: str
    named: bool  # the curve's name follows the bits
    ops: tuple[str, ...]
    counts: tuple[int, ...]  # how many figures OpenSSL versions print
    reciprocal: bool = False  # one figure and then its reciprocal


_ASYMMETRIC_RECORDS = {
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


def _symmetric_figures(name: str, block_sizes: list[int], values: list[float]) -> list[_Figure]:
    benchmark = "openssl:" + "-".join(name.lower().split())
    return [
        _Figure(benchmark, "block_size", size, value, "B/s")
        for size, value in zip(block_sizes, values, strict=True)
    ]


def _finite(value: float) -> bool:
    return math.isfinite(value) and value >= 0


def _asymmetric_key(family: str, bits: int, curve: str | None) -> str:
    if family in ("rsa", "dsa", "ffdh"):
        return f"openssl:{family}{bits}"
    if family == "sm2":
        return "openssl:sm2"
    return f"openssl:{family}-{(curve or f'{bits}bits').lower()}"


def _bytes_per_second(token: str) -> float:
    # Decimal keeps 3520877.91k exactly 3520877910.
    if token.endswith("k"):
        return float(Decimal(token[:-1]) * 1000)
    return float(token)


def _number(token: str, line: int) -> float:
    if not _NUMBER.match(token):
        raise ParseError(f"{_shorten(token)!r} is not a number", line=line)
    return float(token)


def _whole_number(token: str, line: int) -> int:
    if not token.isdigit():
        raise ParseError(f"{_shorten(token)!r} is not a whole number", line=line)
    return int(token)


def _generation(version: str | None) -> tuple[int, int, int] | None:
    match = re.match(r"(\d+)\.(\d+)\.(\d+)", version or "")
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def _default_block_sizes(version: str | None) -> list[int]:
    generation = _generation(version)
    if generation is not None and generation < (1, 1, 0):
        return [16, 64, 256, 1024, 8192]
    return [16, 64, 256, 1024, 8192, 16384]


def _sizes(block_sizes: list[int]) -> str:
    return " ".join(map(str, block_sizes))


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
