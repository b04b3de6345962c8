"""Reads `openssl speed` output line by line: tables, -mr records, and the `-multi` children's
lines with the totals their parent prints."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchmarks.parsers.base import ParsedOutput, ParsedResult, ParseError
from benchmarks.parsers.openssl import asymmetric
from benchmarks.parsers.openssl.figures import (
    FORMAT,
    TABLE_FIGURE,
    Figure,
    bytes_per_second,
    counted,
    default_block_sizes,
    listed_sizes,
    read_number,
    read_whole_number,
    shorten,
    symmetric_figures,
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
_FORKED_CHILD = re.compile(r"^Forked child (\d+)$")
_CHILD_LINE = re.compile(r"^Got: (\+\S+) from (\d+)$")
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
# OpenSSL 3.5 adds KEM and signature-algorithm tables (and -mr records +F9, +F10).
_UNSUPPORTED_HEADER = re.compile(r"^keygen\s+(?:encaps|signs)\s+(?:decaps|verify)\s+keygens/s")
_UNSUPPORTED_ROW = re.compile(r"^\S+(?:\s+\d+(?:\.\d+)?s){3}(?:\s+\d+(?:\.\d+)?){3}$")


@dataclass
class _ChildSum:
    """One figure summed over the children that reported it."""

    figure: Figure
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

    def add(self, figure: Figure, child: int, line: int) -> None:
        identity = (figure.benchmark, figure.param, figure.param_value)
        child_sum = self.sums.get(identity)
        if child_sum is None:
            self.sums[identity] = _ChildSum(figure, figure.value, {child}, line)
        else:
            child_sum.total += figure.value
            child_sum.children.add(child)


class Reader:
    """Reads the output line by line, keeping what the next lines need."""

    def __init__(self) -> None:
        self.results: list[ParsedResult] = []
        self.warnings: list[str] = []
        self.version: str | None = None
        self.block_sizes: list[int] | None = None
        self.asymmetric_tables = asymmetric.AsymmetricTables()
        self.run = _MultiRun()
        self.ignored_lines: list[int] = []
        self.in_unsupported_table = False
        self.unsupported_line: int | None = None

    # -- lines --------------------------------------------------------------------------

    def read(self, number: int, text: str) -> None:
        if not text or _NOISE.match(text) or self._read_version(text):
            return
        if text.startswith("ALGO:"):
            self._end_run()
            self.block_sizes = None
            return
        if forked := _FORKED_CHILD.match(text):
            self._child_seen(int(forked[1]))
        elif text.startswith("Got:"):
            self._read_child_line(number, text)
        elif self._in_children_output() and _FRAGMENT.match(text):
            self.run.unreadable.append((number, "a child's line cut by other output"))
        elif text.startswith("+"):
            self._read_record(number, text, child=None)
        elif not self._read_table_line(number, text):
            raise ParseError(f"not `openssl speed` output: {shorten(text)!r}", line=number)

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
        match = _CHILD_LINE.match(text)
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
            self.block_sizes = [read_whole_number(value, number) for value in fields]
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
        elif (figures := self.asymmetric_tables.read(number, text)) is not None:
            if figures:
                self._total(figures, number)
        elif _UNSUPPORTED_HEADER.match(text):
            self.in_unsupported_table = True
            self._skip_unsupported(number)
        elif self.in_unsupported_table and _UNSUPPORTED_ROW.match(text):
            pass
        else:
            return self._read_symmetric_row(number, text)
        return True

    # -- tables -------------------------------------------------------------------------

    def _read_symmetric_row(self, number: int, text: str) -> bool:
        tokens = text.split()
        first = next((i for i, token in enumerate(tokens) if TABLE_FIGURE.match(token)), None)
        if not first:
            return False
        name, figures = " ".join(tokens[:first]), tokens[first:]
        for token in figures:
            if not TABLE_FIGURE.match(token):
                raise ParseError(f"{name}: {token!r} is not a figure", line=number)
        block_sizes = self._block_sizes_of(len(figures), number, what=name, where="row")
        values = [bytes_per_second(token) for token in figures]
        self._total(symmetric_figures(name, block_sizes, values), number)
        return True

    # -- -mr records --------------------------------------------------------------------

    def _record_figures(self, kind: str, fields: list[str], number: int) -> list[Figure]:
        if kind == "+F":
            return self._symmetric_record(fields, number)
        return asymmetric.record_figures(
            kind, fields, number, version=self.version, warnings=self.warnings
        )

    def _symmetric_record(self, fields: list[str], number: int) -> list[Figure]:
        if len(fields) < 3:
            raise ParseError("+F record cut short", line=number)
        name, values = fields[1], [read_number(value, number) for value in fields[2:]]
        block_sizes = self._block_sizes_of(
            len(values), number, what=f"+F record for {name}", where="line"
        )
        return symmetric_figures(name, block_sizes, values)

    # -- totals and -multi children -----------------------------------------------------

    def _total(self, figures: list[Figure], number: int) -> None:
        if figures and figures[0].benchmark == "openssl:evp":
            figures = self._name_evp(figures, number)
        processes = 1
        if self.run.children:
            processes = self.run.processes
            self.run.has_total = True
            self.run.totaled.update(figure.benchmark for figure in figures)
        self.results.extend(figure.result(processes) for figure in figures)

    def _name_evp(self, figures: list[Figure], number: int) -> list[Figure]:
        # The parent of 1.1.1's `-multi -evp` prints `evp`; its children print the name.
        named = {
            child_sum.figure.benchmark
            for child_sum in self.run.sums.values()
            if child_sum.figure.unit == "B/s"
            and child_sum.figure.benchmark not in self.run.totaled | {"openssl:evp"}
        }
        if len(named) == 1:
            benchmark = named.pop()
            return [Figure(benchmark, f.param, f.param_value, f.value, f.unit) for f in figures]
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
        self.results.extend(s.figure.result(processes, value=s.total) for s in pending)
        names = sorted({s.figure.benchmark for s in pending})
        self.warnings.append(
            f"line {pending[0].first_line}: no total line for {', '.join(names)}; "
            f"summed the figures of the {processes} children"
        )

    # -- block sizes and the end --------------------------------------------------------

    def _block_sizes_of(self, figures: int, number: int, *, what: str, where: str) -> list[int]:
        """The block sizes of a row's or record's figures; ParseError when they are not as
        many as the figures."""
        block_sizes = self._block_sizes(number)
        if figures != len(block_sizes):
            raise ParseError(
                f"{what}: {counted(figures, 'figure')} for {len(block_sizes)} block sizes "
                f"({listed_sizes(block_sizes)}); the {where} is cut or garbled",
                line=number,
            )
        return block_sizes

    def _block_sizes(self, number: int) -> list[int]:
        if self.block_sizes is None:
            self.block_sizes = default_block_sizes(self.version)
            which = f"OpenSSL {self.version}" if self.version else "OpenSSL 1.1.0 and later"
            self.warnings.append(
                f"line {number}: no `type` header or +H record before these figures; "
                f"assumed the default block sizes of {which} ({listed_sizes(self.block_sizes)})"
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
