"""Two `loaddemo` processes at once, on the test PostgreSQL: both exit 0, the second waits
for the first, and the database holds one load's rows with statistics that check clean."""

import os
import subprocess
import sys
import time

import pytest
from django.core.management import CommandError, call_command

from benchmarks.management.commands.loaddemo import LOCK
from benchmarks.models import Result, Run
from benchmarks.services import locks, statistics
from tests.commands.test_loaddemo import bundled
from tests.worker import ROOT, worker_database_url

pytestmark = pytest.mark.django_db(transaction=True)

FAMILIES = {"m5", "h1"}


def loaddemo(*arguments: str, database_url: str | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "loaddemo", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url or worker_database_url()},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_loads_at_once_both_end_well_and_store_one_load(reference_data, tmp_path):
    arguments = ("--part", "rest", "--families", ",".join(sorted(FAMILIES)))
    first, second = loaddemo(*arguments), loaddemo(*arguments)
    outputs = [process.communicate(timeout=600) for process in (first, second)]
    for process, (out, err) in zip((first, second), outputs, strict=True):
        assert process.returncode == 0, err
        assert "demo loaded" in out
    # One of them loaded, the other waited and then found every run stored.
    stored = sorted(out.splitlines()[-1].split("runs stored ")[1] for out, _ in outputs)
    types, paths, figures = bundled(FAMILIES)
    assert stored == [f"0, already present {len(paths)}", f"{len(paths)}, already present 0"]
    assert sum("waiting for it to end" in out for out, _ in outputs) <= 1
    assert Run.objects.filter(parent=None).exclude(instance_type=None).count() == len(paths)
    assert Result.objects.count() == figures
    assert not Run.objects.exclude(status="done").exists()
    assert statistics.check_statistics().clean


def test_two_first_parts_at_once_both_end_well_and_store_the_studies_once(reference_data):
    first, second = loaddemo("--part", "first"), loaddemo("--part", "first")
    outputs = [process.communicate(timeout=600) for process in (first, second)]
    for process, (_out, err) in zip((first, second), outputs, strict=True):
        assert process.returncode == 0, err
    stored = sorted(int(out.split("runs stored ")[1].split(",")[0]) for out, _ in outputs)
    assert stored[0] == 0 and stored[1] > 0
    assert Run.objects.filter(source__startswith="Study S1", parent=None).count() == 14
    assert not Run.objects.exclude(status="done").exists()
    assert statistics.check_statistics().clean


def test_a_load_started_while_another_holds_the_lock_waits_for_it(reference_data):
    with locks.exclusive(LOCK):
        waiting = loaddemo("--part", "rest", "--families", "h1")
        deadline = time.monotonic() + 60
        line = ""
        while "waiting" not in line and time.monotonic() < deadline:
            line = waiting.stdout.readline()
        assert "another loaddemo is loading this database: waiting" in line
        time.sleep(1)
        assert waiting.poll() is None
        assert not Run.objects.exists()
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err
    assert Run.objects.filter(instance_type__name__startswith="h1.").exists()


def test_two_progress_files_written_at_once_never_trip_over_each_other(tmp_path):
    """What crashed before: both processes renamed the one shared temporary file."""
    path = tmp_path / "demo-loading.json"
    script = (
        "import sys; from benchmarks.services.demo import ProgressFile, SparecoresDemoSummary\n"
        "progress = ProgressFile(__import__('pathlib').Path(sys.argv[1]))\n"
        "for done in range(500): progress.update(done, 500, SparecoresDemoSummary())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dashboard.settings", "PYTHONPATH": str(ROOT)}
    setup = "import django; django.setup()\n"
    writers = [
        subprocess.Popen([sys.executable, "-c", setup + script, str(path)], cwd=ROOT, env=env,
                         stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]  # fmt: skip
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
    assert '"done": 499' in path.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["demo-loading.json"]


def test_families_are_refused_with_the_first_part():
    with pytest.raises(CommandError, match="--families chooses what the rest part loads"):
        call_command("loaddemo", "--part", "first", "--families", "m5")
    assert not Run.objects.exists()


def test_two_loads_at_once_on_sqlite_take_turns_on_a_file_lock(tmp_path):
    """What `make run` keeps: SQLite, whose second writer would otherwise fail as locked."""
    database_url = f"sqlite:///{tmp_path / 'pricebench.sqlite3'}"
    env = {**os.environ, "DATABASE_URL": database_url, "DEBUG": "true"}
    migrated = subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300)  # fmt: skip
    assert migrated.returncode == 0, migrated.stderr
    arguments = ("--part", "rest", "--families", "h1")
    loads = [loaddemo(*arguments, database_url=database_url) for _ in range(2)]
    outputs = [load.communicate(timeout=600) for load in loads]
    for load, (_out, err) in zip(loads, outputs, strict=True):
        assert load.returncode == 0, err
    _types, paths, _figures = bundled({"h1"})
    stored = sorted(out.splitlines()[-1].split("runs stored ")[1] for out, _ in outputs)
    assert stored == [f"0, already present {len(paths)}", f"{len(paths)}, already present 0"]
    assert (tmp_path / "pricebench.sqlite3.pricebench-loaddemo.lock").exists()
