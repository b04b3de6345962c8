"""Each benchmark's coverage: the instance types measured with it, each with its runs, the days
and the regions they were measured in (`BenchmarkCoverage`), for `/benchmarks/` and a
benchmark's page.

Counted from the same samples as the statistics (`Sample`: a run's result with its flag, day
and region), wherever they were read: in hand at ingest, from the database when runs go or
for `rebuild_stats`. A run counts once for a type and benchmark however many parameter sets
it measured. The callers hold the benchmarks' locks (services/statistics/keep.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from json import dumps
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from benchmarks.models import BenchmarkCoverage, Series

from .compute import Sample, stored_samples

# (benchmark id, instance type id)
Pair = tuple[int, int]


@dataclass
class _Counted:
    runs: set[int] = field(default_factory=set)
    flagged: set[int] = field(default_factory=set)
    days: set[Any] = field(default_factory=set)
    regions: set[str | None] = field(default_factory=set)


class CoverageTally:
    """The coverage of the pairs whose samples it was given."""

    def __init__(self) -> None:
        self._pairs: dict[Pair, _Counted] = defaultdict(_Counted)

    def add(self, pair: Pair, sample: Sample) -> None:
        counted = self._pairs[pair]
        (counted.runs if sample.flag is None else counted.flagged).add(sample.run_id)
        if sample.measured_at:
            counted.days.add(sample.measured_at)
        counted.regions.add(sample.region)

    def __bool__(self) -> bool:
        return bool(self._pairs)

    def pairs(self) -> set[Pair]:
        return set(self._pairs)

    def rows(self, kept: dict[Pair, BenchmarkCoverage] | None = None) -> list[tuple]:
        """A row per pair, (benchmark id, type id, *FIGURES), added to its `kept` row when
        given (whose runs are not among these)."""
        rows = []
        for (benchmark_id, type_id), counted in sorted(self._pairs.items()):
            before = (kept or {}).get((benchmark_id, type_id))
            days = set(counted.days)
            regions = set(counted.regions)
            runs, flagged = len(counted.runs), len(counted.flagged)
            if before is not None:
                runs += before.runs or 0
                flagged += before.flagged_runs
                days.update(filter(None, (before.first_measured_at, before.last_measured_at)))
                regions.update(before.regions)
            rows.append(
                (
                    benchmark_id,
                    type_id,
                    runs,
                    flagged,
                    min(days, default=None),
                    max(days, default=None),
                    sorted(regions, key=lambda code: (code is None, code or "")),
                )
            )
        return rows


# What a row keeps beside its pair.
FIGURES = ("runs", "flagged_runs", "first_measured_at", "last_measured_at", "regions")


def add_coverage(tally: CoverageTally) -> None:
    """Add the runs just stored (none of them counted yet) to their pairs' rows: one read of
    those rows, one INSERT ... ON CONFLICT DO UPDATE sent at once."""
    if tally:
        _write(tally.rows(_kept_rows(tally.pairs())))


def recount_coverage(pairs: Collection[Pair]) -> None:
    """These pairs' rows again from their stored results (runs deleted, withdrawn or parsed
    again); a pair left without results loses its row."""
    wanted = set(pairs)
    if not wanted:
        return
    pair_of = {
        pk: (benchmark_id, type_id)
        for pk, benchmark_id, type_id in _of_pairs(Series.objects, wanted).values_list(
            "pk", "benchmark_id", "instance_type_id"
        )
        if (benchmark_id, type_id) in wanted
    }
    tally = CoverageTally()
    for series_id, sample in stored_samples(list(pair_of)):
        tally.add(pair_of[series_id], sample)
    BenchmarkCoverage.objects.filter(
        pk__in=[row.pk for row in _kept_rows(wanted).values()]
    ).delete()
    _write(tally.rows())


def replace_coverage(tally: CoverageTally) -> None:
    """Every row again from a tally of every stored result (`rebuild_stats`)."""
    BenchmarkCoverage.objects.all().delete()
    _write(tally.rows())


def _write(rows: list[tuple]) -> None:
    """Insert these rows, or update the pairs' rows where they exist: on PostgreSQL one
    statement over the rows given as one JSON document (an import of a few hundred types
    touches tens of thousands of pairs: a statement each took seconds), elsewhere one
    statement per row sent at once (Django's bulk_create took twice as long on the demo's
    load)."""
    if not rows:
        return
    table = connection.ops.quote_name(BenchmarkCoverage._meta.db_table)
    columns = ("benchmark_id", "instance_type_id", *FIGURES)
    updates = ", ".join(f"{column} = excluded.{column}" for column in FIGURES)
    if connection.vendor == "postgresql":
        document = dumps(
            [dict(zip(columns, (*row[:4], _day(row[4]), _day(row[5]), row[6]), strict=True))
             for row in rows]
        )  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) "
                f"SELECT {', '.join(columns)} FROM jsonb_to_recordset(%s::jsonb) AS row("
                "benchmark_id bigint, instance_type_id bigint, runs integer, "
                "flagged_runs integer, first_measured_at date, last_measured_at date, "
                "regions jsonb) "
                f"ON CONFLICT (benchmark_id, instance_type_id) DO UPDATE SET {updates}",
                [document],
            )
        return
    json = "%s"
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES (%s, %s, %s, %s, %s, %s, {json}) "
            f"ON CONFLICT (benchmark_id, instance_type_id) DO UPDATE SET {updates}",
            [(*row[:-1], dumps(row[-1])) for row in rows],
        )


def _day(value: Any) -> str | None:
    """A day as JSON gives it to PostgreSQL (ISO), from a date or the text SQLite read."""
    return value if value is None or isinstance(value, str) else value.isoformat()


def _kept_rows(pairs: set[Pair]) -> dict[Pair, BenchmarkCoverage]:
    """The coverage rows of these pairs."""
    return {
        (row.benchmark_id, row.instance_type_id): row
        for row in _of_pairs(BenchmarkCoverage.objects, pairs)
        if (row.benchmark_id, row.instance_type_id) in pairs
    }


def _of_pairs(rows: QuerySet, pairs: set[Pair]) -> QuerySet:
    """The `rows` (series or coverage) of these pairs' benchmarks and types: more than the
    pairs, which the caller picks in Python (a condition per pair is too deep an expression
    for SQLite past a few hundred)."""
    return rows.filter(
        benchmark_id__in={benchmark_id for benchmark_id, _ in pairs},
        instance_type_id__in={type_id for _, type_id in pairs},
    )
