"""What a 400-result upload costs to ingest as the series it lands in grow.

    .venv/bin/python bench/ingest_series.py [--uploads 250] [--rows 400]

On a throwaway PostgreSQL, `--uploads` CSV tables of `--rows` results each go through the
upload path in this process (`submit_run`, then `ingest_run` as the worker calls it), in two
shapes: every upload's rows in the same two series (two machines, one benchmark: a series
grows by `rows / 2` results per upload), and every row in a series of its own (no series
grows). Prints the milliseconds per upload over each quarter of the run, and where the
ingest's time goes (parse, storing the results, refreshing the kept statistics). The
baseline, in the same run: the second shape.
"""

from __future__ import annotations

import argparse
import collections
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)


def growing(names: list[str], rows: int, number: int) -> bytes:
    lines = "".join(
        f"bench:grow,{names[row % 2]},us-east-1,{1000 * (row + 1) + number},op/s\n"
        for row in range(rows)
    )
    return ("benchmark,instance_type,region,value,unit\n" + lines).encode()


def spread(names: list[str], rows: int, number: int) -> bytes:
    lines = "".join(
        f"bench:spread{row % 10},{names[number % len(names)]},us-east-1,"
        f"{1000 + row + number},op/s,{number % 9 + 1},{row // 10}\n"
        for row in range(rows)
    )
    header = "benchmark,instance_type,region,value,unit,param.day,param.n\n"
    return (header + lines).encode()


def timed(module, name: str, spent: collections.Counter) -> None:
    function = getattr(module, name)

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - started

    setattr(module, name, wrapper)


def measure(shape, names: list[str], uploads: int, rows: int) -> None:
    from benchmarks import parsers
    from benchmarks.services import results, runs, statistics

    spent: collections.Counter = collections.Counter()
    for module, name in ((parsers, "parse"), (results, "store"), (statistics, "refresh_stored")):
        timed(module, name, spent)
    quarters = []
    for quarter in range(4):
        started = time.perf_counter()
        count = uploads // 4
        for number in range(quarter * count, (quarter + 1) * count):
            run, _ = runs.submit_run(content=shape(names, rows, number), format="csv")
            assert runs.ingest_run(run_id=run.pk).status == "done"
        quarters.append((time.perf_counter() - started) / count * 1000)
    print(f"{shape.__name__}: ms per upload, by quarter of the run: "
          + ", ".join(f"{ms:.0f}" for ms in quarters))  # fmt: skip
    total = uploads // 4 * 4
    print("  of which: " + ", ".join(f"{name} {seconds / total * 1000:.0f} ms"
                                    for name, seconds in spent.most_common()))  # fmt: skip
    for module, name in ((parsers, "parse"), (results, "store"), (statistics, "refresh_stored")):
        setattr(module, name, getattr(module, name).__wrapped__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=250)
    parser.add_argument("--rows", type=int, default=400)
    args = parser.parse_args()
    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        names = common.type_names(200)
        common.create_fleet(names)
        print(f"{args.uploads} uploads of {args.rows} results each, PostgreSQL")
        measure(spread, names, args.uploads, args.rows)
        measure(growing, names, args.uploads, args.rows)


if __name__ == "__main__":
    main()
