"""The synthetic breadth for bench/ten_million.py (`--breadth synthetic`): every AWS type the
demo bundles, ten of Spare Cores' benchmarks with 20 parameter sets each, synthetic values.

The demo bundles of prices and specifications give the types (priced as in the demo); the
benchmarks are ten of the demo's, each with its 20 parameter sets most common in the demo
(real keys, units and parameters; synthetic values, a deterministic function of the run and
the series). Every run measures one type on one day in one of three regions, all 200 of its
series: runs are copied in with COPY, their results written by one INSERT ... SELECT.
"""

from __future__ import annotations

import collections
import csv
import datetime
import json
import lzma
import urllib.parse

import common

# Ten of the benchmarks the demo bundles, each with its most common parameter sets.
BENCHMARKS = (
    "static_web:http",
    "llama-bench:prompt",
    "compression:lz4-compress",
    "bw_mem:rd",
    "compression:zstd-compress",
    "redis:set",
    "openssl:sha256",
    "compression:brotli-compress",
    "compression:gzip-compress",
    "llama-bench:generate",
)
PARAM_SETS = 20
MEASURED_IN = ("us-east-1", "eu-central-1", "ap-northeast-1")
PRICED_IN = "us-east-1"
FIRST_DAY = datetime.date(2024, 1, 1)
DAYS = 1000


class SyntheticBreadth:
    """What ten_million.py asks of a breadth: the types, the questions, and runs added."""

    name = "synthetic"
    benchmark_keys = BENCHMARKS

    def __init__(self, types: int | None = None) -> None:
        # The first `types` EC2 types by name (None: all): the suite's small version.
        self.types = types

    def prepare(self) -> None:
        self.type_ids = _load_fleet()[: self.types]
        self.per_run, self.asked = _create_series(self.type_ids)

    def describe(self) -> str:
        return (
            f"synthetic breadth: {len(self.type_ids):,} EC2 types, {self.per_run} series each "
            f"({len(BENCHMARKS)} benchmarks x {PARAM_SETS} parameter sets)"
        )

    def runs_for(self, results: int) -> int:
        return results // self.per_run

    def add_runs(self, first: int, count: int) -> None:
        _add_runs(self.type_ids, first, count)

    def drop_staging(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE IF EXISTS bench_synthetic_series")


def demo_benchmarks() -> dict[str, tuple[str, bool, list[dict]]]:
    """{key: (unit, higher is better, its PARAM_SETS most common parameter sets)}."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    units: dict[str, tuple[str, bool]] = {}
    demo = common.ROOT / "benchmarks" / "demo" / "sparecores_inspector.csv.xz"
    with lzma.open(demo, "rt", newline="") as lines:
        for row in csv.DictReader(lines):
            if row["benchmark"] in BENCHMARKS:
                counts[row["benchmark"]][row["params"]] += 1
                units[row["benchmark"]] = (row["unit"], row["higher_is_better"] == "1")
    return {
        key: (*units[key], [json.loads(text) for text, _ in counts[key].most_common(PARAM_SETS)])
        for key in BENCHMARKS
    }


def _load_fleet() -> list[int]:
    """The demo's prices and specifications; the ids of the EC2 types, in name order."""
    from benchmarks.models import InstanceType
    from benchmarks.services import prices

    prices.import_snapshot()
    prices.import_bundled_specs()
    return list(
        InstanceType.objects.filter(kind=InstanceType.Kind.EC2)
        .order_by("name")
        .values_list("pk", flat=True)
    )


def _create_series(type_ids: list[int]) -> tuple[int, list[str]]:
    """Every type's series of every benchmark and parameter set: how many per type, and the
    query string of each benchmark and parameter set, the first benchmark's first parameter
    set first (what the charts ask)."""
    from django.db import connection

    from benchmarks.models import Benchmark
    from benchmarks.services import statistics as kept

    per_type = []
    measured = demo_benchmarks()
    for key, (unit, higher, param_sets) in measured.items():
        benchmark, _ = Benchmark.objects.get_or_create(
            key=key, defaults={"unit": unit, "higher_is_better": higher}
        )
        per_type += [(benchmark.pk, params, kept.params_key(params)) for params in param_sets]
    raw = connection.cursor().cursor
    columns = "benchmark_id, instance_type_id, variant, params, params_key"
    with raw.copy(f"COPY benchmarks_series ({columns}) FROM STDIN") as copy:
        for type_id in type_ids:
            for benchmark_id, params, key in per_type:
                copy.write_row((benchmark_id, type_id, "", json.dumps(params), key))
    # Kept aside: `rebuild_statistics` deletes the series of types no run measured yet, and
    # a later size's runs measure them (_add_runs puts them back).
    raw.execute("CREATE UNLOGGED TABLE bench_synthetic_series AS SELECT * FROM benchmarks_series")
    raw.execute("CREATE INDEX ON bench_synthetic_series (instance_type_id)")
    asked = [
        urllib.parse.urlencode({"benchmark": key, "region": PRICED_IN, **params})
        for index in range(PARAM_SETS)
        for key, (_unit, _higher, param_sets) in measured.items()
        if index < len(param_sets)
        for params in [param_sets[index]]
    ]
    return len(per_type), asked


def _add_runs(type_ids: list[int], first: int, count: int) -> None:
    """Runs number `first` to `first + count - 1`, then their results, in PostgreSQL."""
    from django.db import connection

    from benchmarks.models import Region, Run

    region_ids = [Region.objects.get(code=code).pk for code in MEASURED_IN]
    raw = connection.cursor().cursor
    raw.execute("SELECT coalesce(max(id), 0) FROM benchmarks_run")
    (last_run,) = raw.fetchone()
    columns = ("instance_type_id", "region_id", "variant", "cpu_model", "measured_at", "format",
               "tool_version", "filename", "raw_output", "content_hash", "status", "error",
               "warnings", "source", "licence", "created_at", "queue_attempts",
               *common.UNVERIFIED_RUN.keys())  # fmt: skip
    with raw.copy(f"COPY benchmarks_run ({', '.join(columns)}) FROM STDIN") as copy:
        for number in range(first, first + count):
            type_id = type_ids[number % len(type_ids)]
            day = FIRST_DAY + datetime.timedelta(days=number * DAYS // 60_000 % DAYS)
            copy.write_row(
                (type_id, region_ids[number // len(type_ids) % 3], "",
                 common.CPU_MODELS[type_id % 3], day, "csv", "", "", "", "", Run.Status.DONE,
                 "", "[]", "bench", "", f"{day.isoformat()}T12:00:00Z", 0,
                 *common.UNVERIFIED_RUN.values())
            )  # fmt: skip
    # A value per run and series: a level per series, and up to 10% spread between runs.
    raw.execute(
        "INSERT INTO benchmarks_result (run_id, benchmark_id, params, value, notes, series_id) "
        "SELECT r.id, s.benchmark_id, s.params, "
        "1000.0 * (1 + s.id %% 97) * (1 + ((r.id * 31 + s.id * 17) %% 101) / 1000.0), '', s.id "
        "FROM benchmarks_run r JOIN bench_synthetic_series s "
        "ON s.instance_type_id = r.instance_type_id WHERE r.id > %s ORDER BY r.id, s.id",
        [last_run],
    )
    raw.execute(
        "INSERT INTO benchmarks_series SELECT s.* FROM bench_synthetic_series s "
        "WHERE s.instance_type_id IN (SELECT instance_type_id FROM benchmarks_run WHERE id > %s) "
        "AND NOT EXISTS (SELECT 1 FROM benchmarks_series k WHERE k.id = s.id)",
        [last_run],
    )
