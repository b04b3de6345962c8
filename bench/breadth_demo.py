"""The full demo's breadth for bench/ten_million.py: its types, benchmarks, parameter sets and
runs, replicated in PostgreSQL to any number of results.

`DemoBreadth(path, seed)` copies from the loaded demo (SQLite, what `make run` loads) its
regions, instance types (every cloud's, with their processors), prices and benchmarks into
the bench database as they are, and its runs, series and results into staging tables. The
runs are then taken in an order shuffled by the seed, over and over: the first pass is the
demo's own runs and values (a database smaller than the demo holds a share of them, spread
over every type and benchmark); each later pass measures every run again a week earlier,
each value drawn around the demo's within its benchmark's kept noise (`noise.relative`),
deterministic by seed. So a series holds one run per pass, as the demo's hold one (or a few),
and the peer groups, coverage, parameter sets and spread per benchmark are the demo's. The
demo holds no result held by the screen and no flagged run (Spare Cores' data and the
studies are not screened), so neither does the copy.

Runs and results are written by INSERT ... SELECT in PostgreSQL; the kept statistics are
then rebuilt by ten_million.py as for the synthetic breadth (`rebuild_statistics`).
"""

from __future__ import annotations

import bisect
import random
import sqlite3
import urllib.parse
from collections import Counter
from pathlib import Path

# Copied as they are (ids kept), in this order: what the runs and series refer to.
COPIED = (
    "benchmarks_region",
    "benchmarks_instancetype",
    "benchmarks_price",
    "benchmarks_volumeprice",
    "benchmarks_fargaterate",
    "benchmarks_databaseprice",
    "benchmarks_aurorarate",
    "benchmarks_benchmark",
)
# Copied into staging tables shaped like their own (ten_million.py drops them at the end).
STAGED = {"benchmarks_run": "bench_demo_run", "benchmarks_series": "bench_demo_series",
          "benchmarks_result": "bench_demo_result"}  # fmt: skip
# A pass measures every run again this many days before the last.
DAYS_APART = 7
# The spread of a benchmark whose noise the demo did not measure.
DEFAULT_NOISE = 0.05
PRICED_IN = "us-east-1"


class DemoBreadth:
    """What ten_million.py asks of a breadth: the types, the questions, and runs added."""

    name = "demo"

    def __init__(self, path: Path, seed: int, questions: int = 200) -> None:
        self.path = path
        self.seed = seed
        self.questions = questions

    def prepare(self) -> None:
        """Copy the demo in, shuffle its runs, and choose the questions asked."""
        from django.db import connection, transaction

        source = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        with transaction.atomic():
            raw = connection.cursor().cursor
            # The rows refer to each other by the demo's ids; checked once all are in.
            raw.execute("SET CONSTRAINTS ALL DEFERRED")
            # What the migrations wrote (regions) gives way to the demo's rows.
            raw.execute(f"TRUNCATE {', '.join(COPIED)} CASCADE")
            for table in COPIED:
                _copy(source, raw, table, table)
            raw.execute("UPDATE benchmarks_benchmark SET sample_run_id = NULL")
            for table, staging in STAGED.items():
                raw.execute(f"DROP TABLE IF EXISTS {staging}")
                raw.execute(f"CREATE UNLOGGED TABLE {staging} (LIKE {table})")
                _copy(source, raw, table, staging)
            raw.execute("CREATE INDEX ON bench_demo_result (run_id)")
            raw.execute("CREATE INDEX ON bench_demo_series (id)")
            for table in COPIED:
                raw.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                )
            counts = dict(
                source.execute("SELECT run_id, count(*) FROM benchmarks_result GROUP BY run_id")
            )
            self.order = sorted(counts)
            random.Random(self.seed).shuffle(self.order)
            raw.execute(
                "CREATE UNLOGGED TABLE bench_demo_order (pos int PRIMARY KEY, run_id bigint)"
            )
            with raw.copy("COPY bench_demo_order (pos, run_id) FROM STDIN") as copy:
                for pos, run_id in enumerate(self.order):
                    copy.write_row((pos, run_id))
            raw.execute("ANALYZE bench_demo_run, bench_demo_series, bench_demo_result, "
                        "bench_demo_order")  # fmt: skip
        self._learn(source, counts)
        source.close()

    def learn(self) -> None:
        """What `prepare` learns of the demo, without writing: for a database built before."""
        source = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        counts = dict(
            source.execute("SELECT run_id, count(*) FROM benchmarks_result GROUP BY run_id")
        )
        self.order = sorted(counts)
        random.Random(self.seed).shuffle(self.order)
        self._learn(source, counts)
        source.close()

    def _learn(self, source: sqlite3.Connection, counts: dict[int, int]) -> None:
        # Results written after this many runs (cumulative), one pass of the demo's runs.
        self.cumulative = []
        total = 0
        for run_id in self.order:
            total += counts[run_id]
            self.cumulative.append(total)
        self.type_ids = [
            pk for (pk,) in source.execute(
                "SELECT id FROM benchmarks_instancetype WHERE id IN "
                "(SELECT instance_type_id FROM benchmarks_series) ORDER BY name, vendor")
        ]  # fmt: skip
        self.asked = _questions(source, self.questions)
        self.benchmark_keys = [
            key for (key,) in source.execute(
                "SELECT b.key FROM benchmarks_series s JOIN benchmarks_benchmark b ON "
                "b.id = s.benchmark_id GROUP BY b.key ORDER BY count(*) DESC, b.key")
        ]  # fmt: skip
        self.series = source.execute("SELECT count(*) FROM benchmarks_series").fetchone()[0]

    def describe(self) -> str:
        vendors = Counter(_vendors(self.type_ids))
        shown = ", ".join(f"{vendor} {n:,}" for vendor, n in sorted(vendors.items()))
        return (
            f"the full demo's breadth ({self.path}, seed {self.seed}): {len(self.type_ids):,} "
            f"measured types ({shown}), {len(self.benchmark_keys)} benchmarks, "
            f"{self.series:,} series and {self.cumulative[-1]:,} results in "
            f"{len(self.order):,} runs per pass"
        )

    def runs_for(self, results: int) -> int:
        """The number of runs (counted over the passes) holding at least `results` results."""
        per_pass = self.cumulative[-1]
        passes, rest = divmod(results, per_pass)
        return passes * len(self.order) + bisect.bisect_left(self.cumulative, rest) + (rest > 0)

    def add_runs(self, first: int, count: int) -> None:
        """Runs number `first` to `first + count - 1` (run id = number + 1), their results,
        and the series they fill that the database no longer holds."""
        from django.db import connection

        raw = connection.cursor().cursor
        raw.execute("SET CONSTRAINTS ALL DEFERRED")
        raw.execute("SELECT column_name FROM information_schema.columns WHERE table_name = "
                    "'benchmarks_run' ORDER BY ordinal_position")  # fmt: skip
        columns = [name for (name,) in raw.fetchall()]
        passes = len(self.order)
        made = {
            "id": "n + 1",
            "measured_at": f"d.measured_at - (n / {passes})::int * {DAYS_APART}",
            "created_at": f"d.created_at - (n / {passes}) * interval '{DAYS_APART} days'",
            "finished_at": f"d.finished_at - (n / {passes}) * interval '{DAYS_APART} days'",
            "upload_key": "NULL",
            "parent_id": "NULL",
        }
        chosen = ", ".join(made.get(name, f'd."{name}"') for name in columns)
        quoted = ", ".join(f'"{name}"' for name in columns)
        raw.execute(
            f"INSERT INTO benchmarks_run ({quoted}) SELECT {chosen} "
            f"FROM generate_series(%s::bigint, %s::bigint) n "
            f"JOIN bench_demo_order o ON o.pos = n %% {passes} "
            f"JOIN bench_demo_run d ON d.id = o.run_id ORDER BY n",
            [first, first + count - 1],
        )
        raw.execute(
            "SELECT setval(pg_get_serial_sequence('benchmarks_run', 'id'), %s)",
            [first + count],
        )
        # The first pass keeps the demo's values; a later one draws each within the
        # benchmark's noise: exp(s * t), t triangular on [-1, 1] from two hashed uniforms.
        uniform = "((hashint8extended(r.id * 100003 + x.id, {}) & 16777215) / 16777216.0)"
        spread = f"ln(1 + coalesce((b.noise ->> 'relative')::float, {DEFAULT_NOISE}))"
        value = (
            f"CASE WHEN r.id <= {passes} THEN x.value ELSE x.value * exp({spread} * "
            f"({uniform.format(self.seed)} + {uniform.format(self.seed + 1)} - 1)) END"
        )
        raw.execute(
            "INSERT INTO benchmarks_result (run_id, benchmark_id, params, value, notes, series_id) "
            f"SELECT r.id, x.benchmark_id, x.params, {value}, x.notes, x.series_id "
            "FROM benchmarks_run r "
            f"JOIN bench_demo_order o ON o.pos = (r.id - 1) %% {passes} "
            "JOIN bench_demo_result x ON x.run_id = o.run_id "
            "JOIN benchmarks_benchmark b ON b.id = x.benchmark_id "
            "WHERE r.id > %s ORDER BY r.id, x.id",
            [first],
        )
        # The series these runs fill (a smaller database, or `rebuild_statistics`, dropped
        # those without results).
        raw.execute(
            "INSERT INTO benchmarks_series SELECT s.* FROM bench_demo_series s WHERE s.id IN "
            "(SELECT DISTINCT series_id FROM benchmarks_result WHERE run_id > %s) "
            "AND NOT EXISTS (SELECT 1 FROM benchmarks_series k WHERE k.id = s.id)",
            [first],
        )
        raw.execute(
            "SELECT setval(pg_get_serial_sequence('benchmarks_series', 'id'), "
            "(SELECT max(id) + 1 FROM bench_demo_series), false)"
        )

    def drop_staging(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            for staging in (*STAGED.values(), "bench_demo_order"):
                cursor.execute(f"DROP TABLE IF EXISTS {staging}")


def _copy(source: sqlite3.Connection, raw, table: str, into: str) -> None:
    """The SQLite table's rows into the PostgreSQL table `into`, by the columns both have."""
    raw.execute(
        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s",
        [into],
    )
    types = dict(raw.fetchall())
    columns = [row[1] for row in source.execute(f"PRAGMA table_info({table})") if row[1] in types]
    booleans = {index for index, name in enumerate(columns) if types[name] == "boolean"}
    quoted = ", ".join(f'"{name}"' for name in columns)
    rows = source.execute(f"SELECT {quoted} FROM {table}")
    with raw.copy(f"COPY {into} ({quoted}) FROM STDIN") as copy:
        for row in rows:
            if booleans:
                row = [bool(v) if i in booleans and v is not None else v for i, v in
                       enumerate(row)]  # fmt: skip
            copy.write_row(row)


def _questions(source: sqlite3.Connection, count: int) -> list[str]:
    """The query strings of the `count` benchmark and parameter sets most measured in the demo
    (most series first), each priced where most of its types are."""
    import json

    rows = source.execute(
        "SELECT b.key, s.params FROM benchmarks_series s JOIN benchmarks_benchmark b ON "
        "b.id = s.benchmark_id GROUP BY b.key, s.params_key ORDER BY count(*) DESC, b.key, "
        f"s.params_key LIMIT {count}"
    )
    return [
        urllib.parse.urlencode({"benchmark": key, "region": PRICED_IN, **json.loads(params)})
        for key, params in rows
    ]


def _vendors(type_ids: list[int]) -> list[str]:
    from benchmarks.models import InstanceType

    vendor = dict(InstanceType.objects.filter(pk__in=type_ids).values_list("pk", "vendor"))
    return [vendor[pk] for pk in type_ids]
