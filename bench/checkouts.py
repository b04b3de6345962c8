"""Two checkouts of pricebench answering the same price-performance questions, in turn.

A refactor must not slow the answers, and on a machine whose speed drifts only a baseline
measured in the same run says so. One throwaway PostgreSQL database (1,000 types, 100,000
results) serves both; each checkout answers in its own process, in turn, several times:
cold 1,000-row answers (no rendered answer kept: a new `at` day each) and warm ones (the
kept answer), through the whole Django stack in process (no gunicorn, no network).

    .venv/bin/python bench/checkouts.py --baseline ../baseline-checkout
    git worktree add ../baseline-checkout <commit>   # a baseline to compare with

The baseline checkout needs the same database schema (no migration in between).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

QUESTION = f"/api/v1/price-performance/?benchmark={common.BENCHMARK}&region=ap-northeast-1"


def measure(root: Path, cold_count: int, warm_count: int) -> dict:
    """In a checkout's own process: its cold and warm answer times, in ms."""
    sys.path.insert(0, str(root))  # that checkout's code, not this one's
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    django.setup()
    from django.core.cache import caches
    from django.test import Client

    client = Client()
    first = datetime.date(2025, 1, 1)

    def ask(day: datetime.date) -> float:
        started = time.perf_counter()
        response = client.get(f"{QUESTION}&at={day.isoformat()}")
        elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, response.content[:200]
        return elapsed

    for _ in range(20):  # what a process does once: its first answers are not measured
        ask(first)
    cold = []
    for index in range(cold_count):
        caches["answers"].clear()
        gc.collect()
        cold.append(ask(first + datetime.timedelta(days=index + 1)))
    warm = [ask(first) for _ in range(warm_count)]
    return {"cold": statistics.median(cold), "warm": statistics.median(warm)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="the other checkout (required)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--types", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=100, help="results per type")
    parser.add_argument("--cold", type=int, default=300)
    parser.add_argument("--warm", type=int, default=2000)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.cold, args.warm)))
        return

    if args.baseline is None:
        parser.error("--baseline PATH is required")
    checkouts = {"baseline": args.baseline.resolve(), "this": common.ROOT}
    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        names = common.type_names(args.types)
        common.create_fleet(names)
        common.add_results(names, args.runs)
        print(f"{args.types:,} types, {args.runs * args.types:,} results; {args.rounds} rounds")
        figures: dict[str, list[dict]] = {name: [] for name in checkouts}
        for round_number in range(args.rounds):
            for name, root in checkouts.items():
                output = subprocess.run(
                    [common.PYTHON, str(Path(__file__).resolve()), "--measure", str(root),
                     "--cold", str(args.cold), "--warm", str(args.warm)],
                    cwd=root,
                    env={**os.environ, "DATABASE_URL": cluster.url, "LOG_LEVEL": "WARNING",
                         "ALLOWED_HOSTS": "testserver"},
                    capture_output=True,
                    text=True,
                )  # fmt: skip
                if output.returncode:
                    sys.exit(f"{name} ({root}) failed:\n{output.stderr[-2000:]}")
                found = json.loads(output.stdout.strip().splitlines()[-1])
                figures[name].append(found)
                print(
                    f"  round {round_number + 1} {name:>8}: cold p50"
                    f" {found['cold']:6.2f} ms, warm p50 {found['warm']:6.3f} ms"
                )
    print("\nmedians of the rounds, and this checkout against the baseline")
    for what in ("cold", "warm"):
        this = statistics.median(round_[what] for round_ in figures["this"])
        baseline = statistics.median(round_[what] for round_ in figures["baseline"])
        print(f"  {what}: {this:.3f} ms against {baseline:.3f} ms: ratio {this / baseline:.3f}")


if __name__ == "__main__":
    main()
