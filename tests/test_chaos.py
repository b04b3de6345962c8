"""The chaos run of bench/chaos.py, for 3 minutes with a fault every 20 s: its own PostgreSQL,
Redis, gunicorn, Celery worker and beat on loopback, mixed uploads, the CLI, price imports
and readers, and a random fault (worker SIGKILL, Redis or PostgreSQL restart, a gunicorn
worker SIGKILL) every 20 s. It exits 0 only when every accepted upload settled (done, or
failed with its reason), each is stored once, `rebuild_stats --check` is clean and no answer
was a 5xx other than 503."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.worker


def test_three_minutes_of_faults_lose_nothing_and_store_nothing_twice():
    done = subprocess.run(
        [sys.executable, "bench/chaos.py", "--minutes", "3", "--fault-every", "20", "--seed", "7"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    report = done.stdout + done.stderr[-3000:]
    assert done.returncode == 0, report
    assert "no violation" in done.stdout, report
    faults = re.search(r"^faults: (\d+) \((.*)\)$", done.stdout, re.MULTILINE)
    assert int(faults[1]) == 8, report
    # The seed draws each kind of fault at least once in these eight.
    assert {"worker", "redis", "postgres", "gunicorn"} <= set(
        re.findall(r"\d+ s: (\w+)", faults[2])
    )
    # Every accepted upload ended (done, or failed with its reason: checked by the run).
    accepted = re.search(r"^accepted uploads: (\d+): (.*)$", done.stdout, re.MULTILINE)
    assert accepted and int(accepted[1]) > 100 and "pending" not in accepted[2], report
