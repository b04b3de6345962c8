"""How fast `GET /api/v1/price-performance/` answers at 10k, 100k and 1M results.

    .venv/bin/python bench/api.py [--types 1000] [--seconds 10]

Builds a throwaway PostgreSQL database with `--types` instance types priced in two regions
and one benchmark's results measured in both (bench/common.py: runs and results copied in,
statistics kept by the ingest's own function, then checked against `rebuild_stats`), serves
it with gunicorn (2 workers, gunicorn.conf.py's settings) and measures from this process
(one request at a time) and wrk (one thread, 4 connections):

- cold: the first answer to each of 30 questions nobody asked yet (distinct `at` days), once
  after restarting gunicorn and PostgreSQL, and once right after a new run has landed;
- warm: wrk's steady load on one question, beside `/healthz` in the same run;
- growth: the cold median of the same 1,000-row question at 10k, 100k and 1M results.

Prints every figure and the ratios the targets are stated in (issue #8): p99 cold under
50 ms, warm throughput at least half of `/healthz`'s, 1M/10k time at most 1.5.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

PATH = "/api/v1/price-performance/"


def question(rows: int, day: datetime.date | None = None) -> str:
    query = f"?benchmark={common.BENCHMARK}&region=ap-northeast-1"
    if rows == 50:
        query += "&families=bf03"
    if day:
        query += f"&at={day.isoformat()}"
    return PATH + query


def days(count: int, offset: int) -> list[datetime.date]:
    start = datetime.date(2025, 1, 1) + datetime.timedelta(days=offset)
    return [start + datetime.timedelta(days=index) for index in range(count)]


def cold(server: common.Server, rows: int, offset: int) -> list[float]:
    latencies = []
    for day in days(30, offset):
        ms, status, _ = common.timed_get(server.url + question(rows, day))
        assert status == 200, status
        latencies.append(ms)
    return latencies


def land_a_run(database_url: str, name: str) -> None:
    """A real upload through the ingest service, in its own process (as a worker would)."""
    script = (
        "from benchmarks.services import runs;"
        f"runs.record_run(content=b'benchmark,instance_type,region,value,unit\\n"
        f"{common.BENCHMARK},{name},us-east-1,1234,op/s\\n', format='csv')"
    )
    subprocess.run(
        [common.PYTHON, "manage.py", "shell", "-c", script],
        cwd=common.ROOT,
        env={**common.os.environ, "DATABASE_URL": database_url},
        check=True,
    )


def answer_of(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.loads(response.read())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()

    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        names = common.type_names(args.types)
        common.create_fleet(names)
        growth: dict[int, list[float]] = {}
        done = 0
        with common.gunicorn(cluster.url) as server:
            for total in (10_000, 100_000, 1_000_000):
                started = time.monotonic()
                runs = total // args.types - done
                common.add_results(names, runs, first_run=done)
                done += runs
                print(f"{total:>9,} results loaded in {time.monotonic() - started:.0f} s")
                server.restart()
                growth[total] = cold(server, 1000, offset=total % 997)
                print(f"  cold 1,000-row answers: {common.summary(growth[total])}")

            before = answer_of(server.url + question(1000))
            subprocess.run(
                [common.PYTHON, "manage.py", "rebuild_stats"],
                cwd=common.ROOT,
                env={**common.os.environ, "DATABASE_URL": cluster.url},
                check=True,
            )
            after = answer_of(server.url + question(1000))
            print(f"rebuild_stats changed the answer: {before != after}")

            results = {}
            for rows in (50, 1000):
                cluster.restart()
                server.restart()
                results[("cold after restart", rows)] = cold(server, rows, offset=100 + rows)
                land_a_run(cluster.url, names[3])
                # Web processes trust what they read of the data's last change this long.
                time.sleep(3)
                results[("cold after a new run", rows)] = cold(server, rows, offset=200 + rows)
            for (what, rows), latencies in results.items():
                print(f"{what:>22}, {rows:>5}-row answers: {common.summary(latencies)}")

            _, _, size = common.timed_get(server.url + question(1000))
            _, _, gzipped = common.timed_get(
                server.url + question(1000), headers={"Accept-Encoding": "gzip"}
            )
            print(
                f"1,000-row answer: {size / 1000:.0f} kB as served, {gzipped / 1000:.0f} kB to a"
                " client that accepts gzip"
            )
            warm = {
                "/healthz": common.wrk(server.url + "/healthz", seconds=args.seconds),
                "50 rows": common.wrk(server.url + question(50), seconds=args.seconds),
                "1,000 rows": common.wrk(server.url + question(1000), seconds=args.seconds),
            }
            for name, figures in warm.items():
                print(
                    f"warm {name:>10}: {figures['rps']:8.0f} requests/s  p50 {figures['50%']:6.1f}"
                    f" ms  p99 {figures['99%']:6.1f} ms  non-2xx {figures.get('errors', 0)}"
                )

    print("\nratios (targets: cold p99 < 50 ms, warm >= 0.5x /healthz, 1M/10k <= 1.5)")
    cold_runs = [*results.values(), *growth.values()]
    worst = max(common.percentile(values, 0.99) for values in cold_runs)
    print(f"  worst cold p99 (every cold series above, growth included): {worst:.1f} ms")
    for name in ("50 rows", "1,000 rows"):
        ratio = warm[name]["rps"] / warm["/healthz"]["rps"]
        print(f"  warm {name} / healthz throughput: {ratio:.2f}")
    ratio = statistics.median(growth[1_000_000]) / statistics.median(growth[10_000])
    print(f"  1M / 10k cold median time: {ratio:.2f}")


if __name__ == "__main__":
    main()
