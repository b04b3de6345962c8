"""Tables of results shaped like the loaded demo's own, and throwaway copies of a loaded
PostgreSQL database, for the ingest benches run against the full demo (issue 56).

`machines_of` picks whole instance types at random (the same every time) and gives each its
series as they are kept: benchmark, unit, parameters, variant, region, main processor and
median. `csv_table` writes them as a table of results measured again on a new day, each
value within a few percent of the kept median: the ingest then meets the demo's breadth
(series measured again, their peer groups, coverage, the screen's kept statistics).
`database_copy` makes a copy of a loaded database (CREATE DATABASE ... TEMPLATE), so that a
bench writes into a copy and the given database is never written.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

DAY = "2026-11-01"
# Where a type's runs are said to be measured when its series name no region (Spare Cores'
# data): a region of its vendor's.
REGIONS = {"aws": "us-east-1", "azure": "eastus", "gcp": "us-central1", "hcloud": "fsn1"}


@dataclass(frozen=True)
class SeriesShape:
    benchmark: str
    unit: str
    higher_is_better: bool
    params: dict
    variant: str
    region: str
    cpu_model: str
    median: float


def machines_of(results: int, *, seed: int = 56) -> list[tuple[str, list[SeriesShape]]]:
    """(instance type name, its kept series) for types picked at random until they hold
    `results` series (the last type cut short), each series of plain parameters."""
    from benchmarks.models import InstanceType, Region, SeriesStatistics

    vendor_of = dict(
        InstanceType.objects.filter(series__isnull=False).distinct().values_list("name", "vendor")
    )
    known = set(Region.objects.values_list("code", flat=True))
    names = sorted(vendor_of)
    random.Random(seed).shuffle(names)
    picked: list[tuple[str, list[SeriesShape]]] = []
    total = 0
    for start in range(0, len(names), 50):
        if total >= results:
            break
        chunk = names[start : start + 50]
        rows = (
            SeriesStatistics.objects.filter(
                series__instance_type__name__in=chunk,
                measured_in=SeriesStatistics.ALL_REGIONS,
                only_flagged=False,
            )
            .order_by("series__instance_type__name", "series_id")
            .values_list(
                "series__instance_type__name",
                "series__benchmark__key",
                "series__benchmark__unit",
                "series__benchmark__higher_is_better",
                "series__params",
                "series__variant",
                "sole_region",
                "regions",
                "cpu_models",
                "median",
            )
        )
        by_type: dict[str, list[SeriesShape]] = {}
        for name, key, unit, higher, params, variant, sole, regions, models, median in rows:
            if not _plain(params) or median is None or median <= 0:
                continue
            region = sole or next((code for code in regions if code), None)
            region = region or REGIONS.get(vendor_of[name])
            if region not in known:
                continue
            model = max(models, key=models.get) if models else ""
            by_type.setdefault(name, []).append(
                SeriesShape(key, unit, higher, params, variant, region, model, median)
            )
        for name in chunk:
            series = by_type.get(name)
            if not series or total >= results:
                continue
            series = series[: results - total]
            # Another cloud's type as vendor:name, as a table names it.
            vendor = vendor_of[name]
            picked.append((name if vendor == "aws" else f"{vendor}:{name}", series))
            total += len(series)
    return picked


def _plain(params: dict) -> bool:
    """Parameters a table's cells give back as they are: numbers, and text that does not
    read as a number (a CSV cell "1" becomes the number 1)."""
    for value in params.values():
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            return False
        if isinstance(value, str):
            try:
                float(value)
                return False
            except ValueError:
                pass
            if "," in value or '"' in value or "\n" in value or not value.strip():
                return False
    return True


def csv_table(
    machines: list[tuple[str, list[SeriesShape]]], *, day: str = DAY, seed: int = 56
) -> bytes:
    """The machines' series as one CSV table measured on `day`, values near their medians."""
    chooser = random.Random(seed)
    names = sorted({name for _type, series in machines for s in series for name in s.params})
    header = ["benchmark", "instance_type", "region", "value", "unit", "higher_is_better",
              "variant", "measured_at", "cpu_model"]  # fmt: skip
    header.extend(f"param.{name}" for name in names)
    lines = [",".join(header)]
    for type_name, series in machines:
        for s in series:
            value = s.median * chooser.uniform(0.97, 1.03)
            cells = [s.benchmark, type_name, s.region, repr(value), s.unit,
                     "true" if s.higher_is_better else "false", s.variant, day,
                     s.cpu_model.replace(",", " ")]  # fmt: skip
            cells.extend(_cell(s.params.get(name)) for name in names)
            lines.append(",".join(cells))
    return ("\n".join(lines) + "\n").encode()


def _cell(value) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.contextmanager
def database_copy(url: str, *, attempts: int = 60) -> Iterator[str]:
    """A copy of the PostgreSQL database at `url` (its template), dropped on exit: its URL.

    CREATE DATABASE ... TEMPLATE waits for nobody: while another session is connected to
    the template it fails, and is tried again every few seconds.
    """
    import psycopg

    template = urlsplit(url).path.lstrip("/")
    name = f"bench_{uuid.uuid4().hex[:12]}"
    admin = _with_database(url, "postgres")
    for attempt in range(attempts):
        try:
            with psycopg.connect(admin, autocommit=True) as connection:
                connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            break
        except psycopg.errors.ObjectInUse:
            if attempt == attempts - 1:
                raise
            time.sleep(5)
    try:
        yield _with_database(url, name)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def upload_machines(count: int, rows: int) -> list[tuple[str, list[SeriesShape]]]:
    """`count` instance types of at least `rows` series each, with their first `rows`."""
    picked: list[tuple[str, list[SeriesShape]]] = []
    wanted = count * rows * 2
    while True:
        machines = machines_of(wanted)
        picked = [(name, series[:rows]) for name, series in machines if len(series) >= rows]
        if len(picked) >= count or len(machines) < len(picked) + 50:
            break
        wanted *= 2
    if len(picked) < count:
        raise SystemExit(f"only {len(picked)} instance types hold {rows} series each")
    return picked[:count]


def upload_table(machine: tuple[str, list[SeriesShape]], number: int) -> bytes:
    """One upload: a machine's series measured again on a day of its own (`number`)."""
    day = datetime.date.fromisoformat(DAY) - datetime.timedelta(days=number % 300)
    return csv_table([machine], day=day.isoformat(), seed=number)
