"""What each benchmark measures: its kind (the menu's group) and a one-line description.

One table, benchmarks/catalog.csv (pattern, kind, measures), keyed by the benchmark key's tool
prefix and, where one tool measures several things, by a pattern of the key (`fnmatch`, `*`
matches anything). The first row that matches describes the key, so a tool's narrow patterns
come before its catch-all; a key no row matches is "Other". The rows name Spare Cores' ten
kinds (docs/benchmarks.md) and the agent's openssl runs, then the other tools pricebench reads,
then study S2's user-defined benchmark. Benchmarks get their group and description from here
when an ingest creates them (services/runs.py), and the migration that added the group filled
it in for the benchmarks that existed.
"""

from __future__ import annotations

import csv
from fnmatch import fnmatchcase
from pathlib import Path

OTHER = "Other"
CATALOG_FILE = Path(__file__).resolve().parent / "catalog.csv"
COLUMNS = ["pattern", "kind", "measures"]


def read_catalog(path: Path = CATALOG_FILE) -> tuple[tuple[str, str, str], ...]:
    """The table's rows (pattern, kind, what it measures), in order; ValueError naming the line
    of a row that is not three filled cells."""
    with open(path, encoding="utf-8", newline="") as file:
        reader = csv.reader(file)
        if next(reader, None) != COLUMNS:
            raise ValueError(f"{path.name}: line 1: expected the columns {','.join(COLUMNS)}")
        rows = []
        for row in reader:
            if len(row) != len(COLUMNS) or not all(row):
                raise ValueError(
                    f"{path.name}: line {reader.line_num}: expected three filled cells"
                )
            rows.append(tuple(row))
    return tuple(rows)


# (pattern, kind, what it measures). The unit and direction are appended by `describe`.
CATALOG: tuple[tuple[str, str, str], ...] = read_catalog()


def describe(key: str, unit: str, higher_is_better: bool) -> tuple[str, str]:
    """(kind, one-line description with the unit and direction) of a benchmark key."""
    kind, what = next(
        ((kind, what) for pattern, kind, what in CATALOG if fnmatchcase(key, pattern)),
        (OTHER, "Results uploaded as a table"),
    )
    direction = "higher" if higher_is_better else "lower"
    return kind, f"{what}, in {unit}; {direction} is better."
