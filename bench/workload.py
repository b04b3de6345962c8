"""How long `POST /api/v1/workloads/predict/` takes: a process's first question, the next ones,
and the first after a change of the statistics.

    .venv/bin/python bench/workload.py --database var/pricebench.sqlite3 [--rounds 3]
    .venv/bin/python bench/workload.py --database-url postgres://... [--baseline ../checkout]
    .venv/bin/python bench/workload.py --ten-million 1000000   # or --demo-postgres

`--ten-million RESULTS` and `--demo-postgres` build a throwaway PostgreSQL database first
(bench/common.py): the one bench/ten_million.py builds, at RESULTS results (its own code), or
the whole bundled demo (`loaddemo`); both store the matrix as `rebuild_statistics` does.

Each measure is a new process (Django set up and `/healthz` answered first, so that the first
question's time is the workload's own): its first question, the median of the next five, and
then, with the data's stamps changed in the process only, the first question after a change
(the kept matrix answers while a thread reads the statistics) and the first once the thread
has read them. The same-run baselines, in turn with it each round:

- `statistics`: this checkout reading the kept statistics for its first question as before
  the stored matrix (models.WorkloadMatrix), the stored one ignored and none written;
- `--baseline PATH`: another checkout (a `git worktree` of the code before), as it is.

Every answer's JSON is hashed: the same digest in every row says the answers did not change.
The database is read, except that this checkout stores the matrix when none is stored (the
first measure then prints `stored it`), and the change is never written.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

URL = "/api/v1/workloads/predict/"
# The three figures and two more (docs/workload.md's example), on AWS in us-east-1.
QUESTION = {
    "figures": [
        {"instance_type": "c7g.xlarge", "value": 1200},
        {"instance_type": "c7i.xlarge", "value": 1500},
        {"instance_type": "m6a.xlarge", "value": 900},
        {"instance_type": "r7g.large", "value": 650},
        {"instance_type": "c6i.2xlarge", "value": 2600},
    ],
    "unit": "req/s",
    "region": "us-east-1",
}
NEXT = 5


def measure(root: Path, mode: str) -> dict:
    """In a checkout's own process: its answer times in seconds, and the answer's digest."""
    sys.path.insert(0, str(root))  # that checkout's code, not this one's
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    import django

    django.setup()
    from django.test import Client

    client = Client()
    assert client.get("/healthz").status_code == 200
    stored_before = None
    if mode != "baseline":
        from benchmarks.models import WorkloadMatrix
        from benchmarks.selectors.subjects import workload_vectors

        stored_before = WorkloadMatrix.objects.exists()
        if mode == "statistics":
            workload_vectors._stored = lambda: None
            workload_vectors._store = lambda stamps, matrix: None

    def ask() -> tuple[float, str]:
        started = time.perf_counter()
        response = client.post(URL, QUESTION, content_type="application/json")
        elapsed = time.perf_counter() - started
        assert response.status_code == 200, response.content[:300]
        return elapsed, hashlib.sha256(response.content).hexdigest()[:12]

    first, digest = ask()
    following = [ask() for _ in range(NEXT)]
    found = {
        "first": first,
        "next": statistics.median(seconds for seconds, _ in following),
        "digests": sorted({digest, *(d for _, d in following)}),
        "stored_it": stored_before is False and mode == "stored",
    }
    if mode == "baseline":
        return found
    # A change seen by this process only: its stamps moved, nothing written (nor stored).
    read = workload_vectors._version
    workload_vectors._version = lambda: (*read()[:2], read()[2] + " changed")
    workload_vectors._store = lambda stamps, matrix: None
    found["after_change"], _ = ask()
    deadline = time.monotonic() + 120
    kept = workload_vectors._kept
    while time.monotonic() < deadline and not any(
        stamps.endswith(" changed") for stamps, _ in kept.values()
    ):
        time.sleep(0.1)
    found["after_read"], digest = ask()
    found["digests"] = sorted({*found["digests"], digest})
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database", type=Path, help="a SQLite file")
    where.add_argument("--database-url", help="postgres://... (or any DATABASE_URL)")
    where.add_argument(
        "--ten-million", type=int, metavar="RESULTS",
        help="a throwaway PostgreSQL database as bench/ten_million.py builds it",
    )  # fmt: skip
    where.add_argument(
        "--demo-postgres", action="store_true",
        help="a throwaway PostgreSQL database holding the whole demo (loaddemo)",
    )  # fmt: skip
    parser.add_argument(
        "--demo-database", type=Path,
        help="with --ten-million: the loaded full demo (SQLite) whose breadth it replicates"
        " (bench/breadth_demo.py); without it, ten_million.py's synthetic breadth",
    )  # fmt: skip
    parser.add_argument("--baseline", type=Path, help="another checkout, measured in turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure[0]), args.measure[1])))
        return

    if args.ten_million or args.demo_postgres:
        with common.postgres() as cluster:
            common.setup_django(cluster.url)
            started = time.monotonic()
            build(args.ten_million, args.demo_database)
            print(f"built in {time.monotonic() - started:.0f} s")
            rounds(cluster.url, args.baseline, args.rounds)
        return
    if args.database is None and args.database_url is None:
        parser.error("--database FILE, --database-url URL, --ten-million or --demo-postgres")
    rounds(args.database_url or f"sqlite:///{args.database.resolve()}", args.baseline, args.rounds)


def build(results: int | None, demo_database: Path | None = None) -> None:
    """The throwaway database's data: bench/ten_million.py's at `results` (the demo's breadth
    when `demo_database` names the loaded demo, else its synthetic one), else the demo."""
    if results:
        import ten_million

        if demo_database is not None:
            breadth = ten_million.DemoBreadth(demo_database, seed=56)
        else:
            breadth = ten_million.SyntheticBreadth()
        breadth.prepare()
        ten_million.load(breadth, results, 0)
    else:
        from django.core.management import call_command

        call_command("loaddemo", verbosity=0)
    from benchmarks.models import SeriesStatistics

    print(f"{SeriesStatistics.objects.count():,} kept statistics")


def rounds(url: str, baseline: Path | None, count: int) -> None:
    """Each checkout measured in its own process, in turn, `count` times; the medians."""
    checkouts = [("stored", common.ROOT), ("statistics", common.ROOT)]
    if baseline is not None:
        checkouts.append(("baseline", baseline.resolve()))
    env = {**os.environ, "DATABASE_URL": url, "LOG_LEVEL": "WARNING",
           "ALLOWED_HOSTS": "testserver", "PRICEBENCH_WORKLOAD_REFRESH_BEHIND": "true"}  # fmt: skip
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    figures: dict[str, list[dict]] = {name: [] for name, _ in checkouts}
    for round_number in range(count):
        for name, root in checkouts:
            output = subprocess.run(
                [common.PYTHON, str(Path(__file__).resolve()), "--measure", str(root), name],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
            )
            if output.returncode:
                sys.exit(f"{name} ({root}) failed:\n{output.stderr[-3000:]}")
            found = json.loads(output.stdout.strip().splitlines()[-1])
            figures[name].append(found)
            after = (
                f", after a change {found['after_change']:.2f} s, after its read"
                f" {found['after_read']:.2f} s"
                if "after_change" in found
                else ""
            )
            print(
                f"  round {round_number + 1} {name:>10}: first {found['first']:.2f} s, next"
                f" {found['next']:.2f} s{after}; answers {', '.join(found['digests'])}"
                + ("; stored it" if found.get("stored_it") else "")
            )
    print(f"\nmedians of the rounds (load average at the end: {os.getloadavg()[0]:.2f})")
    for name, _ in checkouts:
        rounds = figures[name]
        if name == "stored" and rounds[0].get("stored_it") and len(rounds) > 1:
            rounds = rounds[1:]  # its first round stored the matrix: it read the statistics
        line = ", ".join(
            f"{what} {statistics.median(r[what] for r in rounds):.2f} s"
            for what in ("first", "next", "after_change", "after_read")
            if what in rounds[0]
        )
        print(f"  {name:>10}: {line}")
    digests = {d for rounds in figures.values() for r in rounds for d in r["digests"]}
    print(f"answers: {'the same in every process' if len(digests) == 1 else sorted(digests)}")


if __name__ == "__main__":
    main()
