"""A real Celery worker process on Redis, using pytest-django's test database."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


# scripts/test.sh starts Redis with this many databases: one for each pytest-xdist worker.
REDIS_DATABASES = 64


def xdist_worker() -> str:
    """This pytest process's xdist worker id (gw0, gw1 ...); "gw0" in a serial run."""
    return os.environ.get("PYTEST_XDIST_WORKER", "gw0")


def redis_url() -> str:
    """The test Redis, on a database of this xdist worker's own.

    Each worker's tests flush their database and start Celery workers on it: on a shared one
    they would flush each other's queued tasks, and one's Celery worker would take the other's.
    """
    url = os.environ.get("PRICEBENCH_TEST_REDIS_URL")
    if not url:
        message = "needs Redis and PostgreSQL: run the suite with `make test`"
        if os.environ.get("PRICEBENCH_REQUIRE_SERVICES"):
            pytest.fail(message)
        pytest.skip(message)
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("a worker test needs PostgreSQL (DATABASE_URL), not SQLite")
    number = int(xdist_worker().removeprefix("gw"))
    if number >= REDIS_DATABASES:
        pytest.fail(f"{number + 1} xdist workers: the test Redis has {REDIS_DATABASES} databases")
    return urlsplit(url)._replace(path=f"/{number}").geturl()


def worker_database_url() -> str:
    """The test database pytest-django made for this xdist worker (test_pricebench_gw0 ...)."""
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Worker:
    """Starts `celery worker` in a subprocess; kill() is SIGKILL, as a crash would be."""

    def __init__(self, broker_url: str, *, visibility_timeout: int = 5, log: Path | None = None):
        self.env = {
            **os.environ,
            "DATABASE_URL": worker_database_url(),
            "CELERY_BROKER_URL": broker_url,
            "CELERY_VISIBILITY_TIMEOUT": str(visibility_timeout),
            "PYTHONPATH": str(ROOT),
        }
        self.process: subprocess.Popen | None = None
        self.log_path = log or ROOT / "var" / f"test-worker-{xdist_worker()}.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115

    def start(self) -> Worker:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "dashboard",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        return self

    def received_task_ids(self) -> list[str]:
        """Task ids in the order this worker's log says it received them."""
        if not self.log.closed:
            self.log.flush()
        text = self.log_path.read_text(errors="replace")
        return re.findall(r"Task [\w.]+\[([0-9a-f-]+)\] received", text)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.log.close()


def wait_until(condition, *, timeout: float, interval: float = 0.2, message: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message or condition}")
