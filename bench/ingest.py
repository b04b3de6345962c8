"""How fast a table of results is ingested, statistics kept included, on SQLite and PostgreSQL.

    .venv/bin/python bench/ingest.py [--results 50000] [--repeat 3] [--profile]

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
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

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
    common.setup_django(os.environ["DATABASE_URL"])
    from benchmarks import parsers
    from benchmarks.services import runs

    content = path.read_bytes()
    profiler = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    started, cpu = time.perf_counter(), time.process_time()
    if what == "parse":
        parsed = parsers.parse(content, format="csv")
        count = len(parsed.results)
    else:
        run, _ = runs.record_run(content=content, filename=path.name, format="csv")
        assert run.status == "done", run.error
        from benchmarks.models import Result

        count = Result.objects.count()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if profiler is not None:
        import pstats

        profiler.disable()
        print(f"--- {what} on {os.environ['DATABASE_URL'].split(':')[0]}", file=sys.stderr)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(35)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "results": count}))


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


def measure(what: str, path: Path, database_url: str, *, profile: bool = False) -> dict:
    env = {**os.environ, "DATABASE_URL": database_url, "BENCH_PROFILE": "1" if profile else ""}
    out = subprocess.run(
        [common.PYTHON, __file__, "--child", what, str(path)],
        cwd=common.ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True,
    ).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="print each one's cProfile")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]))
        return

    folder = Path(tempfile.mkdtemp(prefix="pricebench-bench-ingest-"))
    table = folder / "results.csv"
    machines = fargate_sizes()
    build_table(table, args.results, machines)
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
