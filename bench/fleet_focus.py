"""How fast the fleet reader streams a FOCUS 1.2 export of a million rows, and that its memory
stays flat (issue 58's goal: under 60 s, memory not growing with the file).

    .venv/bin/python bench/fleet_focus.py [--rows 1000000] [--tracemalloc]

Writes a FOCUS file (AWS-shaped rows as tests/fleet/focus_rows.py's: 40 EC2 types in 4
regions, a tenth of the rows storage and monitoring, one in a thousand a Fargate row without
its task size) to a temporary directory, then reads a tenth of it and all of it through
`benchmarks.fleet.reader.read_fleet` over an open text file, as the API reads an upload.
Prints rows/s, seconds and the process's peak resident memory after each read (and, with
`--tracemalloc`, Python's own peak allocations during each read, which slows the read).
No database: the reader is pure.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.fleet.reader import read_fleet  # noqa: E402
from tests.fleet.focus_rows import HEADER, cloudwatch_row, focus_row  # noqa: E402

TYPES = [
    f"{family}.{size}"
    for family in ("m5", "c5", "r6i", "c7g", "m7i")
    for size in (
        "large",
        "xlarge",
        "2xlarge",
        "4xlarge",
        "8xlarge",
        "12xlarge",
        "16xlarge",
        "24xlarge",
    )
]
REGIONS = ("us-east-1", "us-west-2", "eu-west-1", "ap-southeast-2")


def write_focus(path: Path, rows: int) -> None:
    """`rows` rows of a month's hourly bill, written as they are made."""
    templates = [
        focus_row(instance_type=name, region=region, pricing_category=category)
        for name in TYPES
        for region in REGIONS
        for category in ("Standard", "Committed", "Dynamic")
    ]
    other = cloudwatch_row()
    fargate = focus_row(instance_type=None, service_name="AmazonECS")
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=HEADER)
        writer.writeheader()
        for number in range(rows):
            if number % 1000 == 999:
                writer.writerow(fargate)
            elif number % 10 == 9:
                writer.writerow(other)
            else:
                writer.writerow(templates[number % len(templates)])


def read(path: Path, trace: bool) -> dict:
    if trace:
        tracemalloc.start()
    started, cpu_started = time.perf_counter(), time.process_time()
    with path.open(encoding="utf-8-sig", newline="") as text:
        fleet = read_fleet(text)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    traced = tracemalloc.get_traced_memory()[1] if trace else None
    if trace:
        tracemalloc.stop()
    return {
        "rows": fleet.rows,
        "lines": len(fleet.lines),
        "other_rows": fleet.other_rows,
        "skipped": fleet.skipped_count,
        "seconds": seconds,
        # On a shared machine the wall clock waits for other processes; the CPU time does not.
        "cpu_seconds": cpu_seconds,
        "traced_peak_mib": traced / 2**20 if traced is not None else None,
        "max_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--tracemalloc", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for rows in (options.rows // 10, options.rows):
            path = Path(directory) / f"focus-{rows}.csv"
            write_focus(path, rows)
            figures = read(path, options.tracemalloc)
            size = path.stat().st_size / 2**20
            path.unlink()
            traced = figures["traced_peak_mib"]
            print(
                f"{figures['rows']:>9,} rows ({size:,.0f} MiB): {figures['seconds']:6.1f} s, "
                f"{figures['rows'] / figures['seconds']:,.0f} rows/s "
                f"({figures['cpu_seconds']:.1f} s of CPU); "
                f"{figures['lines']} lines, {figures['other_rows']:,} other rows, "
                f"{figures['skipped']:,} skipped; peak RSS {figures['max_rss_mib']:,.0f} MiB"
                + (f", traced peak {traced:.2f} MiB" if traced is not None else "")
            )
            sys.stdout.flush()
    print(json.dumps({"goal_seconds": 60}))


if __name__ == "__main__":
    main()
