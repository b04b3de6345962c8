"""How long `make run` takes on a fresh clone, after install: to its first page, and until the
whole demo is loaded.

    .venv/bin/python bench/cold_start.py [--no-rest]

Runs `make run`'s steps on a new SQLite file in a temporary folder, each timed: `migrate`,
`loaddemo --part first`, then `runserver` (as `make run` starts it, with its autoreloader)
until `/` answers 200 with a chart, and `loaddemo --part rest` (in the background under
`make run`; here after the first page, alone, so that its time is its own). The baseline,
measured in the same run: `manage.py check`, the cost of starting Django at all.
The targets (issue 26): the first page in under 10 s, the demo loaded in under 60 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)


def timed(command: list[str], env: dict) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=common.ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def timed_until(command: list[str], env: dict, marker: str) -> tuple[float, float]:
    """Seconds until the command prints a line holding `marker`, and until it ends."""
    started = time.perf_counter()
    until = None
    with subprocess.Popen(
        command, cwd=common.ROOT, env=env, stdout=subprocess.PIPE, text=True
    ) as process:
        for line in process.stdout:
            if until is None and marker in line:
                until = time.perf_counter() - started
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    total = time.perf_counter() - started
    return (total if until is None else until), total


def first_page(env: dict, port: int) -> float:
    """Seconds from starting runserver to `/` answering 200 with its chart data."""
    started = time.perf_counter()
    server = subprocess.Popen(
        [common.PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}"],
        cwd=common.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = started + 60
        while time.perf_counter() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
                    body = answer.read()
                if answer.status == 200 and b'id="chart-data"' in body:
                    return time.perf_counter() - started
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the first page did not answer within 60 s")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-rest", action="store_true", help="stop after the first page")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pricebench-bench-cold-"))
    folder.chmod(0o755)
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
        "DEBUG": "true",
    }
    manage = [common.PYTHON, "manage.py"]
    baseline = timed([*manage, "check"], env)
    steps = {
        "migrate": timed([*manage, "migrate", "--verbosity", "0"], env),
        "loaddemo --part first": timed([*manage, "loaddemo", "--part", "first"], env),
    }
    steps["runserver to the first page"] = first_page(env, common.free_port())
    to_first_page = sum(steps.values())
    if not args.no_rest:
        # The clouds' part names Hetzner Cloud, the first of them, in its first line.
        aws, total = timed_until([*manage, "loaddemo", "--part", "rest"], env, "Hetzner Cloud")
        steps["loaddemo --part rest: AWS's rest"] = aws
        steps["loaddemo --part rest: other clouds"] = total - aws
    print(f"baseline: manage.py check {baseline:.2f} s")
    for name, seconds in steps.items():
        print(f"{name:38} {seconds:7.2f} s  ({seconds / baseline:5.1f} x baseline)")
    print(f"{'first page after':38} {to_first_page:7.2f} s  (target < 10 s)")
    if not args.no_rest:
        demo = to_first_page + aws
        print(f"{'AWS demo loaded after':38} {demo:7.2f} s  (target: rest < 60 s)")
        print(f"{'every cloud loaded after':38} {demo + total - aws:7.2f} s")


if __name__ == "__main__":
    main()
