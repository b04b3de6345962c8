"""`make run`'s site for tests: the embedded default, SQLite, migrated and loaded with the first
part of the demo, and Django's development server on it (static files as `make run` serves
them). The suite runs on PostgreSQL; what only SQLite refuses shows here."""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(directory: Path, *, cloud_families: str = "") -> dict[str, str]:
    """The environment of a SQLite database in `directory`, migrated and loaded as `make run`
    loads it first; with `cloud_families` (cax,t2a), the other clouds' part of the demo for
    those families too."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{directory}/demo.sqlite3",
        "DEBUG": "true",
        "DJANGO_SETTINGS_MODULE": "dashboard.settings",
        "PYTHONPATH": str(ROOT),
        "CELERY_BROKER_URL": "",
    }
    commands = [["migrate", "--verbosity", "0"], ["loaddemo", "--part", "first"]]
    if cloud_families:
        commands.append(["loaddemo", "--part", "clouds", "--families", cloud_families])
    for command in commands:
        done = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True,
            text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
    return env


@contextlib.contextmanager
def served(env: dict[str, str], log: Path):
    """`manage.py runserver` on the database of `env`, on a free port, its requests logged to
    `log`: its address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as output:
        server = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"{url}/agent/", timeout=5)
                    break
                except urllib.error.HTTPError:
                    break  # it answers
                except OSError:
                    assert server.poll() is None, log.read_text()[-3000:]
                    assert time.monotonic() < deadline, "the development server did not answer"
                    time.sleep(0.2)
            yield url
        finally:
            server.terminate()
            server.wait(timeout=30)
