"""The kept statistics of a question's series, read as plain tuples (no model instances).

One query for every series a question covers, whatever the number of results: the
statistics kept at ingest (`services/statistics`), with what pricing and the burst model
need of each instance type. Single values are read apart, only for the rows that draw them.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

import orjson
import psycopg
from django.db import connections, router
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

from benchmarks import freshness
from benchmarks.models import (
    Benchmark,
    InstanceType,
    Region,
    SeriesStatistics,
    family_of,
    in_family,
)
from benchmarks.selectors.answer.lookups import prices_stamp, types_named
from benchmarks.services.statistics.attach import params_key

if TYPE_CHECKING:
    from benchmarks.questions.price_performance import PricePerformanceQuery
    from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow


class Machine(NamedTuple):
    """What pricing and the burst model need of an instance type (read with its series): its
    COLUMNS as stored, then what they give, worked out once when it is read (`machine_of`):
    a thousand-row answer asks each of every row, and the machines are kept between answers."""

    pk: int
    name: str
    kind: str
    vcpus: Decimal | None
    memory_gib: Decimal | None
    architecture: str
    burstable: bool
    baseline_share: Decimal | None
    network_performance: str
    cpu_allocation: str
    vendor: str
    # Derived: `family_of`; `dedicated`, `shared` or `burstable` ("" where unknown); vCPUs
    # as a float.
    family: str
    allocation: str
    vcpu_count: float | None


# The instance type's columns a Machine is made of, in its order.
COLUMNS = Machine._fields[: Machine._fields.index("vendor") + 1]


def machine_of(values) -> Machine:
    """A Machine from the values of its COLUMNS, in their order."""
    _pk, name, kind, vcpus, _memory, _arch, burstable, _share, _network, allocation, _vendor = (
        values
    )
    return Machine(
        *values,
        family_of(kind, name),
        allocation or ("burstable" if burstable else ""),
        float(vcpus) if vcpus is not None else None,
    )


class KeptSeries(NamedTuple):
    """One series' kept statistics in the question's scope, as read (no model instances)."""

    statistics_id: int
    machine: Machine
    variant: str
    params: dict
    runs: int
    results: int
    median: float
    minimum: float
    maximum: float
    first_quartile: float
    third_quartile: float
    flagged_runs: int | None
    only_flagged: bool
    verified_runs: int
    # Kept as JSON: read as text and decoded with orjson, faster than Django's converters.
    cpu_models: dict
    regions: list
    # EXTRAS, in its order.
    sources: list
    flags: list
    samples: list


_MACHINE = [f"instance_type__{name}" for name in COLUMNS]
# The plain columns after the machine, in the tuple's order: variant ... verified_runs.
_PLAIN = ["variant", "params_key", *KeptSeries._fields[4:14]]
_JSON = ("cpu_models", "regions")
# Read only for the page (and `include=values`); samples last: the page reads them apart.
EXTRAS = ("sources", "flags", "samples")


@functools.lru_cache(maxsize=8192)
def params_of(text: str) -> Any:
    """A series' parameters, processors or regions from their JSON text, read once for every
    row with the same text (a fleet's rows share a few hundred of each).

    The value is shared: never change it."""
    return orjson.loads(text)


def statistics_in_scope(
    benchmark: Benchmark,
    query: PricePerformanceQuery,
    params: dict[str, Any],
    *,
    vendor: str | None = None,
) -> QuerySet:
    """The kept statistics of every series the question covers; with `vendor`, only of that
    vendor's types (those a region of it can price)."""
    if query.measured_in:
        # Per-region rows exist only for series measured in several regions.
        scope = Q(measured_in=query.measured_in) | Q(
            measured_in=SeriesStatistics.ALL_REGIONS, sole_region=query.measured_in
        )
    else:
        scope = Q(measured_in=SeriesStatistics.ALL_REGIONS)
    key = exact_params_key(benchmark, params)
    if key is not None:
        # Every parameter named: one key, read through the `statistics_peers` index.
        rows = SeriesStatistics.objects.filter(scope, benchmark=benchmark, params_key=key)
    else:
        # The series' own benchmark, filtered beside their parameters: a question naming a
        # few types then reads only their series of the benchmark.
        rows = SeriesStatistics.objects.filter(
            scope,
            series__benchmark=benchmark,
            **{f"series__params__{name}": value for name, value in params.items()},
        )
    if vendor is not None:
        rows = rows.filter(instance_type__vendor=vendor)
    if query.instance_types:
        # A query of the types' ids, not a join on their names, and through the series (the
        # statistics' own copy of the type has no index): the planner then looks each type's
        # series up in the series' index rather than scanning the benchmark's series or
        # statistics (36 ms, not 2, for an instance-type page's similar types at 10M).
        named = InstanceType.objects.filter(types_named(query.instance_types)).values("pk")
        rows = rows.filter(series__instance_type__in=named)
    if query.families:
        rows = rows.filter(
            series__instance_type__in=InstanceType.objects.filter(
                in_families(query.families)
            ).values("pk")
        )
    shape = {
        name: value
        for name, value in (("vcpus", query.vcpus), ("memory_gib", query.memory_gib))
        if value is not None
    }
    if shape:
        rows = rows.filter(
            series__instance_type__in=InstanceType.objects.filter(**shape).values("pk")
        )
    return rows


def question_rows(
    benchmark: Benchmark,
    query: PricePerformanceQuery,
    params: dict[str, Any],
    *,
    region: Region,
    extras: tuple[str, ...] = (),
) -> list[KeptSeries]:
    """The kept statistics of a question priced in `region` (its vendor's types), read by
    `read_kept_series`: a new list each time (the caller's to extend).

    A question of every type, without every value, shares what an earlier one read of the
    same benchmark, parameters and scope (another day, currency, way to buy, order or basis;
    another region of the vendor reads its own copy): kept in the process while the
    benchmark's statistics and the region's stamp stay the same (`freshness.kept_read`,
    LARGE_KEYS of them). The read is a third of a thousand-row answer (docs/performance.md).
    """

    def read() -> list[KeptSeries]:
        if not narrowed and not query.measured_in:
            key = exact_params_key(benchmark, params)
            found = None if key is None else read_by_key(benchmark, key, extras, region=region)
            if found is not None:
                return found
        statistics = statistics_in_scope(benchmark, query, params, vendor=region.vendor)
        return read_kept_series(statistics, extras, region=region)

    narrowed = query.instance_types or query.families or query.vcpus or query.memory_gib
    stamp = (benchmark.stats_updated_at, prices_stamp(region))
    if narrowed or "samples" in extras or None in stamp:
        return read()
    key = "|".join(
        (
            "question-rows",
            str(benchmark.pk),
            str(region.pk),
            query.measured_in or "",
            params_key(params),
            ",".join(extras),
        )
    )
    # The query is built only to be read: its conditions cost half a millisecond.
    return list(freshness.kept_read(key, read, stamp=stamp, large=True))


# SQLite refuses an expression more than 1,000 deep, and each family's condition adds a level
# or two to `a OR b OR ...`: beyond this many, families are asked in subqueries of this many.
FAMILIES_PER_QUERY = 100


def in_families(families) -> Q:
    """Instance types of any of `families` (however many; none: every type), as a query on
    the type."""
    families = tuple(families)
    if len(families) > FAMILIES_PER_QUERY:
        wanted = Q()
        for start in range(0, len(families), FAMILIES_PER_QUERY):
            chunk = families[start : start + FAMILIES_PER_QUERY]
            wanted |= Q(pk__in=InstanceType.objects.filter(in_families(chunk)).values("pk"))
        return wanted
    wanted = Q()
    for family in families:
        wanted |= in_family(family)
    return wanted


def exact_params_key(benchmark: Benchmark, params: dict[str, Any]) -> str | None:
    """The series' parameter key (`Series.params_key`) when `params` name a value of every
    parameter the benchmark was measured with (its kept summary), else None.

    Each value is taken as the summary stores it, so that the key is the one the series
    were stored under and matches what comparing the values as JSON would: `threads=8.0`
    finds the series measured with 8, and `true` never equals 1.
    """
    if set(params) != set(benchmark.params):
        return None
    stored = {}
    for name, value in params.items():
        same = (
            known
            for known in benchmark.params[name]
            if isinstance(known, bool) == isinstance(value, bool) and known == value
        )
        stored[name] = next(same, None)
        if stored[name] is None:
            return None
    return params_key(stored)


def read_kept_series(
    rows: QuerySet, extras: tuple[str, ...], *, region: Region | None = None
) -> list[KeptSeries]:
    """The statistics as plain tuples (one query); `extras`: a start of EXTRAS to read.

    Each row is read in the tuple's own order (the machine's columns in a row of their own),
    so that it is built with slices, not a value at a time: a thousand rows a question.
    The machines a question reads are kept in the process for the freshness window
    (`freshness.keep`), or, for a question priced in `region`, while the region's stamp
    stays the same (every write of specifications moves it): meanwhile a question reads its
    rows' type ids instead of the machines' eleven columns (a third of the time a thousand
    rows take), and one query more for the machines of types not seen yet.
    """
    texts = _JSON + extras
    ordered = rows.order_by("instance_type__name", "variant", "series_id").annotate(
        **{f"{name}_text": Cast(name, TextField()) for name in texts}
    )
    text_columns = [f"{name}_text" for name in texts]
    missing = ([],) * (len(EXTRAS) - len(extras))
    key, stamp = _MACHINES, None
    if region is not None:
        key, stamp = f"{_MACHINES}:{region.pk}", prices_stamp(region)
    known: dict[int, Machine] | None = freshness.kept(key, stamp=stamp)
    if known is None:
        found = ordered.values_list("pk", *_MACHINE, *_PLAIN, *text_columns)
        machine_end = 1 + len(_MACHINE)
        series = [_kept(row, machine_of(row[1:machine_end]), machine_end, missing) for row in found]
        freshness.keep(key, {kept.machine.pk: kept.machine for kept in series}, stamp=stamp)
        return series
    found = list(ordered.values_list("pk", "instance_type_id", *_PLAIN, *text_columns))
    return _with_machines(found, known, missing)


def _with_machines(found: list[tuple], known: dict[int, Machine], missing: tuple) -> list:
    """KeptSeries from rows of (id, type id, plain columns, texts), their machines from
    `known` (kept), the types new to it read and added."""
    unknown = {row[1] for row in found} - known.keys()
    if unknown:
        # Types new to this window, added to what it keeps (read now: fresher than the rest,
        # and gone with them when the window ends).
        for values in InstanceType.objects.filter(pk__in=unknown).values_list(*COLUMNS):
            known[values[0]] = machine_of(values)
    return [_kept(row, known[row[1]], 2, missing) for row in found]


def keep_every_machine(region: Region) -> None:
    """Keep every type of `region`'s vendor as the machines its questions read (one query),
    beside those kept already, while the region's stamp stays the same.

    For a web worker's warm-up (dashboard/warmup.py): a worker's first question of another
    benchmark in the region then reads none of its types' columns (a few hundred, 4 ms of a
    first thousand-row answer at 10M results) and its statistics by `read_by_key`."""
    key, stamp = f"{_MACHINES}:{region.pk}", prices_stamp(region)
    known: dict[int, Machine] | None = freshness.kept(key, stamp=stamp)
    if known is None:
        known = {}
        freshness.keep(key, known, stamp=stamp)
    for values in InstanceType.objects.filter(vendor=region.vendor).values_list(*COLUMNS):
        if values[0] not in known:
            known[values[0]] = machine_of(values)


# The commonest question's read, written out (`read_by_key`): `read_kept_series`' columns and
# order for the series of one benchmark and parameter key, measured anywhere, of one vendor.
_BY_KEY = (
    "SELECT s.id, s.instance_type_id, {plain}, {texts} "
    'FROM "benchmarks_seriesstatistics" s '
    'INNER JOIN "benchmarks_instancetype" t ON s.instance_type_id = t.id '
    "WHERE s.measured_in = %s AND s.benchmark_id = %s AND s.params_key = %s AND t.vendor = %s "
    "ORDER BY t.name ASC, s.variant ASC, s.series_id ASC"
)


def read_by_key(
    benchmark: Benchmark, key: str, extras: tuple[str, ...], *, region: Region
) -> list[KeptSeries] | None:
    """`read_kept_series` of `statistics_in_scope` for a question naming every parameter (one
    `key`), measured anywhere and priced in `region`, in one statement written out: the
    same rows, without the ORM building the query (a fifth of the read; the rows' values
    are the database driver's own, as the ORM's are on PostgreSQL). None where the machines
    are not kept yet, or on another database (SQLite gives booleans as integers, which the
    ORM converts): `read_kept_series` reads them then."""
    connection = connections[router.db_for_read(SeriesStatistics)]
    if connection.vendor != "postgresql":
        return None
    known: dict[int, Machine] | None = freshness.kept(
        f"{_MACHINES}:{region.pk}", stamp=prices_stamp(region)
    )
    if known is None:
        return None
    texts = _JSON + extras
    sql = _BY_KEY.format(
        plain=", ".join(f"s.{name}" for name in _PLAIN),
        texts=", ".join(f"CAST(s.{name} AS text)" for name in texts),
    )
    with _binary_cursor(connection) as cursor:
        cursor.execute(sql, [SeriesStatistics.ALL_REGIONS, benchmark.pk, key, region.vendor])
        found = cursor.fetchall()
    return _with_machines(found, known, ([],) * (len(EXTRAS) - len(extras)))


@contextlib.contextmanager
def _binary_cursor(connection):
    """A cursor of `connection` (PostgreSQL) whose rows come in binary: a thousand rows'
    floats are then copied rather than parsed from text, a fifth of `read_by_key`'s time
    (docs/performance.md). Binary results need the parameters bound by the server, not by the
    client as Django's own cursors do; wrapped as Django wraps its own, so that the query is
    logged and counted alike, after the same health check."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = psycopg.Cursor(connection.connection)
        raw.format = psycopg.pq.Format.BINARY
    if connection.queries_logged:
        cursor = connection.make_debug_cursor(raw)
    else:
        cursor = connection.make_cursor(raw)
    with cursor:
        yield cursor


def _kept(row: tuple, machine: Machine, plain_start: int, missing: tuple) -> KeptSeries:
    """A KeptSeries from a row of `read_kept_series`: its id, the machine's columns (or
    id) up to `plain_start`, the plain columns, the JSON texts."""
    plain_end = plain_start + len(_PLAIN)
    extras_start = plain_end + len(_JSON)
    # Made by position, as one tuple, not through the named tuple's 19 arguments (a tenth
    # of a thousand rows' read).
    return tuple.__new__(
        KeptSeries,
        (
            row[0],
            machine,
            row[plain_start],
            params_of(row[plain_start + 1]),
            *row[plain_start + 2 : plain_end],
            *map(params_of, row[plain_end:extras_start]),
            *map(orjson.loads, row[extras_start:]),
            *missing,
        ),
    )


# What `read_kept_series` keeps of the machines it read, by id (`freshness.keep`).
_MACHINES = "kept-series-machines"


def read_samples(rows: list[PricePerformanceRow]) -> None:
    """Fill the kept samples of `rows` (read without them), in one query."""
    wanted = {row.statistics_id: row for row in rows if row.statistics_id is not None}
    if not wanted:
        return
    found = (
        SeriesStatistics.objects.filter(pk__in=wanted)
        .annotate(samples_text=Cast("samples", TextField()))
        .values_list("pk", "samples_text")
    )
    for pk, text in found:
        wanted[pk].samples = orjson.loads(text)


@dataclass(kw_only=True)
class BenchmarkAnswer:
    """What every per-dollar answer of one benchmark in a region holds: its priced rows and
    the rows with results but no price, with why."""

    benchmark: Benchmark
    region: str
    at: datetime.date
    params: dict[str, Any]
    results: list = field(default_factory=list)
    unpriced: list = field(default_factory=list)


def figures(row) -> dict[str, Any]:
    """A series' kept figures as the answers' rows name them: runs, median, min and max."""
    return {"runs": row.runs, "median": row.median, "min": row.minimum, "max": row.maximum}
