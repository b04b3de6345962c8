"""How fast a table of results is ingested, statistics kept included, on SQLite and PostgreSQL.

    .venv/bin/python bench/ingest.py [--results 50000] [--repeat 3] [--profile]
    .venv/bin/python bench/ingest.py --database-url postgres://.../demo [--results 100000]
        [--repeat 1] [--code PATH] [--profile]

Builds a CSV of `--results` results of one benchmark over every Fargate task size a fresh
database knows (two params, four measuring dates, so runs, series and statistics all grow),
then, each in its own process on a fresh database:

- parse only: `parsers.parse` of the table, nothing written (the floor for any ingest);
- SQLite: `record_run` (what `import_results` and the demo call: check, store, parse, write
  results, refresh the kept statistics), on a new SQLite file;
- PostgreSQL: the same on a throwaway PostgreSQL cluster (bench/common.py).

Prints seconds and results per second for each (best of `--repeat`), the ratio of each
ingest to parsing alone, and the CPU seconds of the ingesting process (on SQLite all the
work; on PostgreSQL the server's share is left out), which a shared machine disturbs less.
The target (issue #8): about 5,000 results per second on SQLite.
With `--profile`, each measurement also prints its cProfile (most cumulative time first) on
stderr; its seconds then include the profiler's overhead.

With `--database-url` (a loaded PostgreSQL database: the full demo, issue 56), the table is
shaped like the database's own data instead (bench/demo_rows.py: whole instance types picked
at random, each series measured again on a new day near its kept median), and each
measurement ingests it into a fresh copy of that database (CREATE DATABASE ... TEMPLATE,
dropped after: the given database is never written). The same run measures the baselines:
parsing alone, and the synthetic Fargate table into a throwaway empty cluster. `--code PATH`
runs the ingests with another checkout's code (a `git worktree` of the code before), so that
before and after are measured in one session; the CPU seconds of PostgreSQL's backend are
printed beside the ingesting process's. With `--check`, `rebuild_stats --check` runs on the
last copy after its ingest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)
import demo_rows  # noqa: E402

DAYS = ("2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05")


def build_table(path: Path, results: int, machines: list[str]) -> None:
    """`results` rows: each machine, two block sizes, four days, values spread around 1e9."""
    chooser = random.Random(8)
    with path.open("w") as out:
        out.write("benchmark,instance_type,region,value,unit,measured_at,param.block_size\n")
        for number in range(results):
            machine = machines[number % len(machines)]
            day = DAYS[(number // len(machines)) % len(DAYS)]
            size = (1024, 16384)[number % 2]
            value = chooser.uniform(0.5e9, 1.5e9)
            out.write(f"bench:ingest,{machine},us-east-1,{value:.1f},B/s,{day},{size}\n")


def child(what: str, path: Path) -> None:
    """Runs in its own process with DATABASE_URL set: prints {"seconds": ...} as JSON."""
    if os.environ.get("BENCH_CODE"):
        common.ROOT = Path(os.environ["BENCH_CODE"])
    common.setup_django(os.environ["DATABASE_URL"])
    from django.db import connection

    from benchmarks import parsers
    from benchmarks.services import runs

    if what == "table":
        path.write_bytes(demo_rows.csv_table(demo_rows.machines_of(int(os.environ["BENCH_ROWS"]))))
        print(json.dumps({}))
        return
    if what == "check":
        from django.core.management import call_command

        call_command("rebuild_stats", "--check")
        print(json.dumps({}))
        return
    content = path.read_bytes()
    server = _backend_cpu(connection) if what == "ingest" else None
    before = result_count() if what == "ingest" else 0
    profiler = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        connection.execute_wrappers.append(_timed_statements)
        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu = time.perf_counter(), time.process_time()
    if what == "parse":
        parsed = parsers.parse(content, format="csv")
        count = len(parsed.results)
    else:
        run, _ = runs.record_run(content=content, filename=path.name, format="csv")
        assert run.status == "done", run.error
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    server_cpu = _backend_cpu(connection) - server if server is not None else 0.0
    if what != "parse":
        count = result_count() - before  # counted once the clocks stopped
    if profiler is not None:
        import pstats

        profiler.disable()
        print(f"--- {what} on {os.environ['DATABASE_URL'].split(':')[0]}", file=sys.stderr)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(35)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(20)
        print("--- the statements that took longest, in all (seconds, calls, SQL)", file=sys.stderr)
        for text, (spent, calls) in sorted(_STATEMENTS.items(), key=lambda item: -item[1][0])[:20]:
            print(f"{spent:8.2f} {calls:6} {text[:600]}", file=sys.stderr)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "server_cpu": server_cpu, "results": count}))


# SQL (its parameters left out, long IN lists shortened) -> (seconds, calls), with --profile.
_STATEMENTS: dict[str, list] = {}


def _timed_statements(execute, sql, params, many, context):
    started = time.perf_counter()
    try:
        return execute(sql, params, many, context)
    finally:
        text = re.sub(r"(%s, )+%s", "%s...", sql)
        figure = _STATEMENTS.setdefault(text, [0.0, 0])
        figure[0] += time.perf_counter() - started
        figure[1] += 1


def result_count() -> int:  # noqa: N802
    from benchmarks.models import Result

    return Result.objects.count()


def _backend_cpu(connection) -> float:
    """CPU seconds of this connection's PostgreSQL backend so far (the server is local);
    0 on SQLite, whose work is this process's."""
    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:13]) / os.sysconf("SC_CLK_TCK")


def fargate_sizes() -> list[str]:
    """Every Fargate task size a fresh database knows (the reference data, read in place)."""
    with tempfile.TemporaryDirectory() as folder:
        script = (
            "import sys; sys.path.insert(0, 'bench'); import common, os;"
            "common.setup_django(os.environ['DATABASE_URL']);"
            "from benchmarks.models import InstanceType;"
            "print(','.join(InstanceType.objects.filter(kind='fargate')"
            ".values_list('name', flat=True)))"
        )
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/sizes.sqlite3"}
        out = subprocess.run(
            [common.PYTHON, "-c", script], cwd=common.ROOT, env=env, check=True,
            capture_output=True, text=True,
        ).stdout  # fmt: skip
    return out.strip().splitlines()[-1].split(",")


def measure(
    what: str, path: Path, database_url: str, *, profile: bool = False, code: Path | None = None,
    rows: int = 0,
) -> dict:  # fmt: skip
    env = {**os.environ, "DATABASE_URL": database_url, "BENCH_PROFILE": "1" if profile else "",
           "BENCH_CODE": str(code or ""), "BENCH_ROWS": str(rows)}  # fmt: skip
    out = subprocess.run(
        [common.PYTHON, __file__, "--child", what, str(path)],
        cwd=code or common.ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def on_database(args, folder: Path, table: Path) -> None:
    """The demo-shaped table into fresh copies of the database at --database-url."""
    demo_table = folder / "demo.csv"
    with demo_rows.database_copy(args.database_url) as copy:
        measure("table", demo_table, copy, rows=args.results)
    size = demo_table.stat().st_size / 1e6
    print(f"{args.results:,} results shaped like the database's, {size:.1f} MB of CSV")
    best: dict[str, dict] = {}
    for attempt in range(args.repeat):
        figures = {"parse only": measure("parse", demo_table, "sqlite:///:memory:")}
        with common.postgres() as cluster:
            figures["empty PostgreSQL, synthetic table"] = measure("ingest", table, cluster.url)
        with demo_rows.database_copy(args.database_url) as copy:
            figures["the database's copy"] = measure(
                "ingest", demo_table, copy, profile=args.profile, code=args.code
            )
            if args.check and attempt == args.repeat - 1:
                started = time.perf_counter()
                measure("check", demo_table, copy, code=args.code)
                print(f"rebuild_stats --check after the ingest: clean "
                      f"({time.perf_counter() - started:.0f} s)")  # fmt: skip
        for name, figure in figures.items():
            if name not in best or figure["seconds"] < best[name]["seconds"]:
                best[name] = figure
    floor = best["parse only"]["seconds"]
    for name, figure in best.items():
        seconds, results = figure["seconds"], figure["results"]
        cpu, server = figure["cpu"], figure.get("server_cpu", 0.0)
        print(f"{name:>34}: {seconds:6.2f} s  {results / seconds:9,.0f} results/s"
              f"  ({seconds / floor:5.1f}x parsing alone);  CPU: this process {cpu:6.2f} s,"
              f" PostgreSQL's backend {server:6.2f} s:"
              f" {results / (cpu + server):9,.0f} results per CPU second")  # fmt: skip
    print(f"code: {args.code or common.ROOT}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print each one's cProfile")
    parser.add_argument("--database-url", help="a loaded PostgreSQL database, copied per ingest")
    parser.add_argument("--code", type=Path, help="another checkout's code for the ingests")
    parser.add_argument("--check", action="store_true", help="rebuild_stats --check after")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return

    folder = Path(tempfile.mkdtemp(prefix="pricebench-bench-ingest-"))
    table = folder / "results.csv"
    machines = fargate_sizes()
    build_table(table, args.results, machines)
    if args.database_url:
        on_database(args, folder, table)
        return
    print(f"{args.results:,} results over {len(machines)} Fargate sizes, "
          f"{table.stat().st_size / 1e6:.1f} MB of CSV")  # fmt: skip

    best: dict[str, float] = {}
    best_cpu: dict[str, float] = {}
    for attempt in range(args.repeat):
        sqlite = folder / f"ingest-{attempt}.sqlite3"
        profile = args.profile
        figures = {"parse only": measure("parse", table, f"sqlite:///{sqlite}", profile=profile)}
        figures["SQLite"] = measure("ingest", table, f"sqlite:///{sqlite}", profile=profile)
        with common.postgres() as cluster:
            figures["PostgreSQL"] = measure("ingest", table, cluster.url, profile=profile)
        for name, figure in figures.items():
            assert figure["results"] == args.results, figure
            best[name] = min(best.get(name, float("inf")), figure["seconds"])
            best_cpu[name] = min(best_cpu.get(name, float("inf")), figure["cpu"])
    floor = best["parse only"]
    for name, seconds in best.items():
        print(f"{name:>11}: {seconds:6.2f} s  {args.results / seconds:9,.0f} results/s"
              f"  ({seconds / floor:4.1f}x parsing alone);"
              f"  this process's CPU {best_cpu[name]:6.2f} s:"
              f" {args.results / best_cpu[name]:9,.0f} results per CPU second")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
