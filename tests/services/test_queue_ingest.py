"""Queueing a run's ingest from a process that never imported benchmarks.tasks (a web
process, a command): services/runs.py finds the task by its registered name, as it does not
import the tasks module (tasks call services, not the other way round)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
import django

django.setup()
assert "benchmarks.tasks" not in sys.modules, "imported before the lookup"
from benchmarks.services import runs

task = runs._ingest_task()
print(task.name, "benchmarks.tasks" in sys.modules)
"""


def test_it_finds_the_ingest_task_in_a_process_that_never_imported_the_tasks():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"DJANGO_SETTINGS_MODULE": "dashboard.settings", "DEBUG": "true", "PATH": "/usr/bin"},
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["benchmarks.tasks.ingest_run", "True"]
