"""The benchmark vectors the workload model learns from: every well-covered benchmark and
parameter set's kept median per instance type, kept in the process and in the database.

The kept statistics (every region's, no variant) are the figures every answer reads. A
column is a benchmark with one parameter set measured on at least MINIMUM_TYPES types (a
parameter set on a handful of types predicts nothing elsewhere). A million medians take
seconds to read, a question under a second: the matrix read from them is kept in the process
and stored (models.WorkloadMatrix, one row), so that a process's first question reads one
value instead of every median (docs/workload.md: 4.4 s to 0.5 s at the full demo). Either is
read again only when a benchmark's statistics or noise or a type's specification changed
(`_version`), and then behind the answers (PRICEBENCH_WORKLOAD_REFRESH_BEHIND, on unless a
test turns it off): a question asked after a change is answered from the matrix kept (or
stored), while a thread reads the new one and stores it. So no answer waits for the read but
the first on a database with none stored (`rebuild_statistics` stores one). An upload moves
one type's medians among a million: the answer a few seconds behind it is the same model.
Nothing at ingest writes the stored matrix: the first read after a change does, once,
whatever the number of uploads before it.

One more column is no benchmark: VCPUS, each type's vCPU count, known for every type and
without noise. "It scales with the cores" is the first guess for any throughput, and the
model weighs it as one more benchmark (docs/workload.md: it took passmark's held-out error
from 49% to 13%). It is read from the types when the matrix is, not stored.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Max

from benchmarks.models import Benchmark, InstanceType, Region, SeriesStatistics, WorkloadMatrix
from benchmarks.noise import Noise
from benchmarks.selectors.answer.kept_series import COLUMNS, Machine, machine_of
from benchmarks.workload.matrix import Matrix
from benchmarks.workload.model import Vectors

logger = logging.getLogger(__name__)

MINIMUM_TYPES = 50
# A column whose noise is not measured counts this reach (ratio - 1): a typical benchmark's.
UNMEASURED_REACH = 0.05
# The vCPU count's column: its benchmark and tool (no stored benchmark key lacks a colon).
VCPUS = "vcpus"
# How a stored matrix was read, part of its stamps: a stored one read otherwise (another
# format, another MINIMUM_TYPES) is read again before it answers.
FORMAT = 2


@dataclass(frozen=True)
class Column:
    """What a column is: the benchmark and its parameter set."""

    benchmark: str
    tool: str
    params_key: str
    params: dict
    higher_is_better: bool

    @property
    def label(self) -> str:
        """As the answer and the validation table name it: `redis:set (pipeline=1,threads=1)`."""
        params = ",".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.benchmark} ({params})" if params else self.benchmark


@dataclass(frozen=True)
class Loaded:
    """The vectors, each column's description and each type's (id -> (vendor, name))."""

    vectors: Vectors
    columns: list[Column]
    types: dict[int, Machine]


# By database (alias, name): the stamps the vectors were read at, and the vectors.
_kept: dict[tuple, tuple[str, Loaded]] = {}
# The databases whose vectors a thread is reading.
_refreshing: set[tuple] = set()
_lock = threading.Lock()


def _version() -> tuple:
    """The database, then what its vectors are read from, as text: how they are read, the
    newest statistics and noise, and the newest write of specifications (a region's
    `prices_updated_at` is bumped by those too)."""
    latest = Benchmark.objects.aggregate(
        stats=Max("stats_updated_at"), noise=Max("noise_measured_at")
    )
    specifications = Region.objects.aggregate(latest=Max("prices_updated_at"))["latest"]
    database = (connection.alias, connection.settings_dict.get("NAME"))
    read = (_how_read(), latest["stats"], latest["noise"], specifications)
    return (*database, " ".join(str(part) for part in read))


def _how_read() -> str:
    return f"format={FORMAT},minimum_types={MINIMUM_TYPES}"


def load_vectors(*, current: bool = False) -> Loaded:
    """The vectors as the data stands: those kept (or stored) when they were read at the same
    stamps, or, after a change, while a thread reads the new ones (`_read_behind`); read here
    when none are kept or stored, when PRICEBENCH_WORKLOAD_REFRESH_BEHIND is off, or when
    `current` asks for them as the data stands (a question naming a type they lack)."""
    version = _version()
    database, stamps = version[:2], version[2]
    with _lock:
        found = _kept.get(database)
        if found is None:
            found = _stored()
            if found is not None:
                _kept[database] = found
        if found is not None and (found[0] == stamps or (not current and _read_behind(database))):
            return found[1]
        matrix = _read()
        loaded = _loaded(matrix)
        _kept[database] = (stamps, loaded)
        _store(stamps, matrix)
        return loaded


def keep_stored() -> None:
    """Read the matrix from the statistics and store it (`rebuild_statistics` calls this: a
    database whose every statistic was just written answers its first question quickly)."""
    _store(_version()[2], _read())


def forget() -> None:
    """Drop the kept vectors (a test's database is not the last one's)."""
    with _lock:
        _kept.clear()


def _read_behind(database: tuple) -> bool:
    """Start a thread reading `database`'s vectors, unless one is; True when answers may use
    the kept ones meanwhile. Called holding `_lock`."""
    if not settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND:
        return False
    if database not in _refreshing:
        _refreshing.add(database)
        threading.Thread(
            target=_refresh, args=(database,), name="workload-vectors", daemon=True
        ).start()
    return True


def _refresh(database: tuple) -> None:
    """The thread's work: the vectors as the data stands, kept with the stamps read before
    them (a change meanwhile is read again by the next question that sees it), then stored;
    or the stored ones, when another process stored them as the data stands (each worker
    would otherwise read the statistics after every change)."""
    try:
        stamps = _version()[2]
        stored = _stored()
        matrix = None
        if stored is not None and stored[0] == stamps:
            loaded = stored[1]
        else:
            matrix = _read()
            loaded = _loaded(matrix)
        with _lock:
            _kept[database] = (stamps, loaded)
        if matrix is not None:
            _store(stamps, matrix)
    except Exception:
        # The kept vectors go on answering; the next question after a change tries again.
        logger.exception("reading the workload vectors failed")
    finally:
        with _lock:
            _refreshing.discard(database)
        connection.close()


def _stored() -> tuple[str, Loaded] | None:
    """The stored matrix's stamps and vectors; None when none is stored, or one read
    otherwise than this code reads (`_how_read`)."""
    found = _stored_row()
    if found is None or not found[0].startswith(_how_read() + " "):
        return None
    try:
        matrix = Matrix.unpack(bytes(found[1]))
    except ValueError:
        logger.warning("the stored workload matrix could not be read; reading the statistics")
        return None
    return found[0], _loaded(matrix)


def _stored_row() -> tuple[str, bytes] | None:
    """The stored matrix's stamps and bytes, in one query."""
    table = connection.ops.quote_name(WorkloadMatrix._meta.db_table)
    sql = f"SELECT stamps, arrays FROM {table} WHERE id = %s"
    if connection.vendor == "postgresql":
        # psycopg's binary results hand the bytes over as stored; Django's cursor would
        # have PostgreSQL write them as hex text and decode it: 0.8 s against 0.25 s for
        # 27 MB (docs/workload.md).
        import psycopg

        connection.ensure_connection()
        with psycopg.Cursor(connection.connection) as cursor:
            cursor.execute(sql, [WorkloadMatrix.SOLE], binary=True)
            return cursor.fetchone()
    with connection.cursor() as cursor:
        cursor.execute(sql, [WorkloadMatrix.SOLE])
        return cursor.fetchone()


def _store(stamps: str, matrix: Matrix) -> None:
    """Keep `matrix` as the stored one. A failure (SQLite busy with an ingest) costs only
    the next process's first question the read: logged, never raised to the answer."""
    try:
        with transaction.atomic():
            WorkloadMatrix.objects.update_or_create(
                pk=WorkloadMatrix.SOLE, defaults={"stamps": stamps, "arrays": matrix.pack()}
            )
    except DatabaseError:
        logger.exception("storing the workload matrix failed")


def _read() -> Matrix:
    """The matrix from the kept statistics: every well-covered column's medians, in logs."""
    benchmarks = {
        benchmark.pk: benchmark
        for benchmark in Benchmark.objects.only("id", "key", "higher_is_better", "noise")
    }
    # A million rows: fetched whole and turned into arrays at once, not a Python step a row.
    rows = list(
        SeriesStatistics.objects.filter(
            measured_in=SeriesStatistics.ALL_REGIONS, variant="", median__gt=0
        ).values_list("benchmark_id", "params_key", "instance_type_id", "median")
    )
    # (zip(*rows) takes ten times as long as a comprehension a column.)
    benchmark_ids, params_keys, row_type_ids, medians = ([row[i] for row in rows] for i in range(4))
    del rows
    # A column is (benchmark, parameter set): each parameter set numbered, each column too.
    params_number = {key: number for number, key in enumerate(set(params_keys))}
    width = len(params_number)
    keys, column_of, counts = np.unique(
        np.asarray(benchmark_ids, np.int64) * width
        + np.fromiter(map(params_number.__getitem__, params_keys), np.int64, len(params_keys)),
        return_inverse=True,
        return_counts=True,
    )
    params_of_number = list(params_number)
    wide = {
        int(column): (int(keys[column]) // width, params_of_number[int(keys[column]) % width])
        for column in np.flatnonzero(counts >= MINIMUM_TYPES)
    }
    kept = sorted(wide, key=lambda column: (benchmarks[wide[column][0]].key, wide[column][1]))
    kept_columns = [wide[column] for column in kept]
    # Each row's place among the kept columns (-1: a column measured on too few types).
    place = np.full(len(keys), -1)
    place[kept] = np.arange(len(kept))
    placed = place[column_of]
    rows_kept = placed >= 0
    type_ids, type_rows = np.unique(
        np.asarray(row_type_ids, np.int64)[rows_kept], return_inverse=True
    )
    column_benchmarks = [benchmarks[b] for b, _ in kept_columns]
    signs = np.array(
        [1.0 if benchmark.higher_is_better else -1.0 for benchmark in column_benchmarks]
    )
    column_rows = placed[rows_kept]
    reaches = []
    for benchmark, (_, key) in zip(column_benchmarks, kept_columns, strict=True):
        noise = Noise.from_dict(benchmark.noise)
        reaches.append(noise.reach("", "", key)[1] if noise else UNMEASURED_REACH)
    return Matrix.of_figures(
        type_rows,
        column_rows,
        signs[column_rows] * np.log(np.asarray(medians, float)[rows_kept]),
        type_ids=type_ids,
        benchmark_ids=np.array([b for b, _ in kept_columns], np.int64),
        benchmark_keys=np.array([benchmark.key for benchmark in column_benchmarks], str),
        tools=np.array([benchmark.tool for benchmark in column_benchmarks], str),
        params_keys=np.array([key for _, key in kept_columns], str),
        higher_is_better=np.array([b.higher_is_better for b in column_benchmarks], bool),
        reaches=np.asarray(reaches, float),
    )


def _loaded(matrix: Matrix) -> Loaded:
    """The vectors of `matrix`, with each type's machine and its vCPU count as one more
    column, as price-performance reads them: what pricing and the burst model need."""
    type_ids = matrix.type_ids.tolist()
    types = {
        values[0]: machine_of(values)
        for values in InstanceType.objects.filter(pk__in=type_ids).values_list(*COLUMNS)
    }
    logs = matrix.logs(extra_columns=1)
    if len(types) < len(type_ids):
        # A type deleted since the matrix was read: its row goes (a stored matrix behind).
        present = np.array([type_id in types for type_id in type_ids], bool)
        logs = logs[present]
        type_ids = [type_id for type_id in type_ids if type_id in types]
    cores = np.array([types[type_id].vcpu_count or np.nan for type_id in type_ids], float)
    with np.errstate(invalid="ignore", divide="ignore"):
        logs[:, -1] = np.where(cores > 0, np.log(cores), np.nan)
    params_keys = matrix.params_keys.tolist()
    columns = [
        Column(
            benchmark=key,
            tool=tool,
            params_key=params_key,
            params=_params(params_key),
            higher_is_better=higher,
        )
        for key, tool, params_key, higher in zip(
            matrix.benchmark_keys.tolist(),
            matrix.tools.tolist(),
            params_keys,
            matrix.higher_is_better.tolist(),
            strict=True,
        )
    ]
    columns.append(Column(VCPUS, VCPUS, "", {}, higher_is_better=True))
    vectors = Vectors(
        types=type_ids,
        columns=[*zip(matrix.benchmark_ids.tolist(), params_keys, strict=True), (VCPUS, "")],
        logs=logs,
        reaches=np.append(matrix.reaches, 0.0),
        groups=np.array([column.benchmark for column in columns]),
    )
    return Loaded(vectors=vectors, columns=columns, types=types)


def _params(key: str) -> dict:
    """A parameter set's canonical text back to its values (JSON; {} where it is not)."""
    try:
        value = json.loads(key) if key else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
