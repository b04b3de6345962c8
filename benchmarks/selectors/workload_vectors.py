"""The benchmark vectors the workload model learns from: every well-covered benchmark and
parameter set's kept median per instance type, read in three queries and kept in the process.

The kept statistics (every region's, no variant) are the figures every answer reads. A
column is a benchmark with one parameter set measured on at least MINIMUM_TYPES types (a
parameter set on a handful of types predicts nothing elsewhere). The matrix is read again
only when a benchmark's statistics or noise or a type's specification changed (`_version`):
a million figures take seconds to read, a question under a second. Read again behind the
answers (PRICEBENCH_WORKLOAD_REFRESH_BEHIND, on unless a test turns it off): a question asked
after a change is answered from the vectors kept, while a thread reads the new ones, so no
answer waits for the read but a process's first (a worker's warm-up does not read them: the
read holds the interpreter for seconds, which the pages' first requests would wait out).
An upload moves one type's medians among a million: the answer a few seconds behind it is
the same model.

One more column is no benchmark: VCPUS, each type's vCPU count, known for every type and
without noise. "It scales with the cores" is the first guess for any throughput, and the
model weighs it as one more benchmark (docs/workload.md: it took passmark's held-out error
from 49% to 13%).
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass

import numpy as np
from django.conf import settings
from django.db import connection
from django.db.models import Max

from benchmarks.models import Benchmark, InstanceType, Region, SeriesStatistics
from benchmarks.noise import Noise
from benchmarks.selectors.kept_series import COLUMNS, Machine, machine_of
from benchmarks.workload.model import Vectors

logger = logging.getLogger(__name__)

MINIMUM_TYPES = 50
# A column whose noise is not measured counts this reach (ratio - 1): a typical benchmark's.
UNMEASURED_REACH = 0.05
# The vCPU count's column: its benchmark and tool (no stored benchmark key lacks a colon).
VCPUS = "vcpus"


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
_kept: dict[tuple, tuple[tuple, Loaded]] = {}
# The databases whose vectors a thread is reading.
_refreshing: set[tuple] = set()
_lock = threading.Lock()


def _version() -> tuple:
    """What the kept vectors were read from: the newest statistics and noise, and the newest
    write of specifications (a region's `prices_updated_at` is bumped by those too)."""
    latest = Benchmark.objects.aggregate(
        stats=Max("stats_updated_at"), noise=Max("noise_measured_at")
    )
    specifications = Region.objects.aggregate(latest=Max("prices_updated_at"))["latest"]
    database = (connection.alias, connection.settings_dict.get("NAME"))
    return (*database, latest["stats"], latest["noise"], specifications)


def load_vectors() -> Loaded:
    """The vectors as the data stands: those kept when they were read at the same stamps, or,
    after a change, while a thread reads the new ones (`_read_behind`); read here when none
    are kept (or PRICEBENCH_WORKLOAD_REFRESH_BEHIND is off)."""
    version = _version()
    database, stamps = version[:2], version[2:]
    with _lock:
        found = _kept.get(database)
        if found is not None and (found[0] == stamps or _read_behind(database)):
            return found[1]
        loaded = _read()
        _kept[database] = (stamps, loaded)
        return loaded


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
    them (a change meanwhile is read again by the next question that sees it)."""
    try:
        stamps = _version()[2:]
        loaded = _read()
        with _lock:
            _kept[database] = (stamps, loaded)
    except Exception:
        # The kept vectors go on answering; the next question after a change tries again.
        logger.exception("reading the workload vectors failed")
    finally:
        with _lock:
            _refreshing.discard(database)
        connection.close()


def _read() -> Loaded:
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
    type_ids = [int(type_id) for type_id in type_ids]
    signs = np.array([1.0 if benchmarks[b].higher_is_better else -1.0 for b, _ in kept_columns])
    logs = np.full((len(type_ids), len(kept_columns)), np.nan)
    column_rows = placed[rows_kept]
    logs[type_rows, column_rows] = signs[column_rows] * np.log(
        np.asarray(medians, float)[rows_kept]
    )
    columns, reaches = [], []
    for key in kept_columns:
        benchmark = benchmarks[key[0]]
        columns.append(
            Column(
                benchmark=benchmark.key,
                tool=benchmark.tool,
                params_key=key[1],
                params=_params(key[1]),
                higher_is_better=benchmark.higher_is_better,
            )
        )
        noise = Noise.from_dict(benchmark.noise)
        reaches.append(noise.reach("", "", key[1])[1] if noise else UNMEASURED_REACH)
    # Machines, as price-performance reads them: what pricing and the burst model need.
    types = {
        values[0]: machine_of(values)
        for values in InstanceType.objects.filter(pk__in=type_ids).values_list(*COLUMNS)
    }
    cores = np.array(
        [getattr(types.get(type_id), "vcpu_count", None) or np.nan for type_id in type_ids], float
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        logs = np.hstack([logs, np.where(cores > 0, np.log(cores), np.nan)[:, None]])
    kept_columns.append((VCPUS, ""))
    columns.append(Column(VCPUS, VCPUS, "", {}, higher_is_better=True))
    reaches.append(0.0)
    vectors = Vectors(
        types=type_ids,
        columns=kept_columns,
        logs=logs,
        reaches=np.asarray(reaches, float),
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
