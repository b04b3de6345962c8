"""How long loading the whole demo takes, part by part: into a fresh SQLite file (`make run`'s
database), and into PostgreSQL on request.

    .venv/bin/python bench/demo_load.py [--runs N] [--postgresql] [--database-url URL]

Each run migrates a new database, then times `manage.py loaddemo --part first` (AWS's prices,
the studies and the comparison page's families: what `make run` loads before it serves) and
`manage.py loaddemo --part rest` (what it loads behind the server: AWS's other types, then
Hetzner Cloud, Google Cloud and Azure, then each benchmark's noise), split by the lines it
prints. Beside the wall-clock seconds, the loader's CPU seconds (user + system), which move
less on a shared host, and the host's speed (common.host_speed) at the start.
`--postgresql` runs the same on a throwaway PostgreSQL cluster (common.postgres), after the
SQLite runs; `--database-url` loads into that (empty) database instead of a new SQLite file.
The target (issues 54 and 56): the whole demo in under 5 minutes on SQLite, on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

TARGET_SECONDS = 300
# The line of `loaddemo --part rest` that ends each part (the clouds' in their loading order).
PART_ENDS = (
    ("AWS's other types", "Spare Cores demo data, Hetzner Cloud"),
    ("Hetzner Cloud", "Hetzner Cloud (hcloud) loaded"),
    ("Google Cloud", "Google Cloud (gcp) loaded"),
    ("Azure", "Microsoft Azure (azure) loaded"),
    ("noise of every benchmark", "noise measured for"),
)


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a command run to its end."""
    cpu, started = children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=common.ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started, children_cpu() - cpu


def timed_parts(command: list[str], env: dict) -> tuple[dict[str, float], float, float]:
    """Seconds of each part of `loaddemo --part rest` (until the line that ends it), and the
    whole command's wall and CPU seconds."""
    cpu, started = children_cpu(), time.perf_counter()
    ends: dict[str, float] = {}
    with subprocess.Popen(
        command, cwd=common.ROOT, env=env, stdout=subprocess.PIPE, text=True
    ) as process:
        for line in process.stdout:
            for part, marker in PART_ENDS:
                if part not in ends and marker in line:
                    ends[part] = time.perf_counter() - started
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    total = time.perf_counter() - started
    missing = [part for part, _ in PART_ENDS if part not in ends]
    if missing:
        raise RuntimeError(f"loaddemo did not say when these parts ended: {missing}")
    parts, before = {}, 0.0
    for part, _ in PART_ENDS:
        parts[part] = ends[part] - before
        before = ends[part]
    parts["the rest (the last commit, exit)"] = total - before
    return parts, total, children_cpu() - cpu


def load_once(database_url: str) -> dict[str, tuple[float, float | None]]:
    """One load of the whole demo into `database_url`: {step: (wall s, CPU s or None)}."""
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "true",
           "PYTHONUNBUFFERED": "1"}  # fmt: skip
    manage = [common.PYTHON, "manage.py"]
    steps: dict[str, tuple[float, float | None]] = {
        "migrate": timed([*manage, "migrate", "--verbosity", "0"], env),
        "loaddemo --part first": timed([*manage, "loaddemo", "--part", "first"], env),
    }
    parts, wall, cpu = timed_parts([*manage, "loaddemo", "--part", "rest"], env)
    for part, seconds in parts.items():
        steps[f"  {part}"] = (seconds, None)
    steps["loaddemo --part rest"] = (wall, cpu)
    return steps


def report(label: str, steps: dict[str, tuple[float, float | None]]) -> float:
    whole = steps["loaddemo --part first"][0] + steps["loaddemo --part rest"][0]
    cpu = steps["loaddemo --part first"][1] + steps["loaddemo --part rest"][1]
    print(f"{label}")
    for name, (seconds, used) in steps.items():
        spent = f"  cpu {used:7.1f} s" if used is not None else ""
        print(f"  {name:40} {seconds:7.1f} s{spent}")
    verdict = "within" if whole < TARGET_SECONDS else "OVER"
    print(f"  {'whole demo loaded (first + rest)':40} {whole:7.1f} s  cpu {cpu:7.1f} s"
          f"  ({verdict} the {TARGET_SECONDS} s target)")  # fmt: skip
    return whole


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="SQLite loads, each on a new file")
    parser.add_argument("--postgresql", action="store_true",
                        help="also load into a throwaway PostgreSQL cluster")  # fmt: skip
    parser.add_argument("--database-url", help="load into this empty database instead of SQLite")
    args = parser.parse_args()
    print(f"host speed {common.host_speed():.2f} ms; {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")  # fmt: skip
    if args.database_url:
        report(args.database_url.split("@")[-1], load_once(args.database_url))
        return
    wholes = []
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory(prefix="pricebench-bench-demo-") as folder:
            steps = load_once(f"sqlite:///{folder}/db.sqlite3")
        wholes.append(report(f"SQLite, run {run} of {args.runs}", steps))
    if len(wholes) > 1:
        print(f"SQLite whole demo: best {min(wholes):.1f} s, worst {max(wholes):.1f} s")
    if args.postgresql:
        with common.postgres() as cluster:
            report("PostgreSQL (throwaway cluster, fsync off)", load_once(cluster.url))
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
