"""Redis stopped for a while during a batch of uploads: every 202 must end done or failed.

    .venv/bin/python bench/fault_broker.py [--uploads 1000] [--outage-at 300] [--outage 10]

Starts a throwaway PostgreSQL, a Redis without persistence (a restart loses every queued
message: the worst case), gunicorn (2 workers, production settings), a Celery worker and
Celery beat (the `requeue-stale-runs` sweep every 60 s), all on loopback. Uploads
`--uploads` small CSV tables one after another through `POST /api/v1/runs/` with a token;
after `--outage-at` uploads Redis is stopped for `--outage` seconds and started again on
the same port. Then waits (at most `--wait` seconds) until no run is pending and prints:
the answers by status code, the runs by status, and how long after the last upload the last
pending run ended. PRICEBENCH_REQUEUE_AFTER_SECONDS is left at its default (120 s) unless
set in the environment.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: E402 (the bench folder is not a package)


class Redis:
    """redis-server in the foreground on a fixed loopback port, stopped and started again."""

    def __init__(self, work: Path) -> None:
        self.port = common.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.work = work
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.work)],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(0.5)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


def celery(command: str, env: dict, log: Path) -> subprocess.Popen:
    extra = ["--concurrency=2"] if command == "worker" else ["--schedule", str(log) + ".db"]
    return subprocess.Popen(
        [common.PYTHON, "-m", "celery", "-A", "dashboard", command, "--loglevel=WARNING",
         *extra],
        cwd=common.ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT,
    )  # fmt: skip


def multipart(fields: dict[str, str], filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: text/csv\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def upload(url: str, key: str, number: int) -> int:
    table = (
        "benchmark,instance_type,region,value,unit\n"
        f"wrk:http,c7g.large,us-east-1,{1000 + number},req/s\n"
    ).encode()
    body, content_type = multipart({}, f"results-{number}.csv", table)
    request = urllib.request.Request(
        f"{url}/api/v1/runs/",
        data=body,
        headers={"Authorization": f"Token {key}", "Content-Type": content_type},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0  # no answer at all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=1000)
    parser.add_argument("--outage-at", type=int, default=300)
    parser.add_argument("--outage", type=float, default=10)
    parser.add_argument("--wait", type=int, default=600)
    args = parser.parse_args()
    common.ensure_debian(("redis-server", "redis-server"))
    work = Path(tempfile.mkdtemp(prefix="pricebench-fault-"))
    redis = Redis(work)
    redis.start()
    os.environ["CELERY_BROKER_URL"] = redis.url
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        from django.contrib.auth import get_user_model

        from api.tokens import create_upload_token
        from benchmarks.models import InstanceType, Run

        InstanceType.objects.get_or_create(name="c7g.large")
        user, _ = get_user_model().objects.get_or_create(username="fault-bench")
        _, key = create_upload_token(user=user, name="fault bench")
        env = {**os.environ, "DATABASE_URL": cluster.url, "PYTHONPATH": str(common.ROOT)}
        worker = celery("worker", env, work / "worker.log")
        beat = celery("beat", env, work / "beat.log")
        answers: collections.Counter[int] = collections.Counter()
        returned_at = None
        try:
            with common.gunicorn(cluster.url) as server:
                started = time.monotonic()
                for number in range(args.uploads):
                    if number == args.outage_at:
                        redis.stop()
                        outage_started = time.monotonic()
                        print(f"Redis stopped after {number} uploads", flush=True)
                    if (
                        returned_at is None
                        and number >= args.outage_at
                        and (time.monotonic() - outage_started >= args.outage)
                    ):
                        redis.start()
                        returned_at = time.monotonic()
                        print(f"Redis back after {returned_at - outage_started:.1f} s, "
                              f"{number} uploads sent", flush=True)  # fmt: skip
                    answers[upload(server.url, key, number)] += 1
                if returned_at is None:
                    redis.start()
                    returned_at = time.monotonic()
                sent_at = time.monotonic()
                after_return = sent_at - returned_at
                print(f"{args.uploads} uploads sent in {sent_at - started:.1f} s, the last "
                      f"{after_return:.1f} s after Redis returned", flush=True)  # fmt: skip
                deadline = time.monotonic() + args.wait
                while Run.objects.filter(status="pending", parent=None).exists():
                    if time.monotonic() > deadline:
                        break
                    time.sleep(1)
                drained = time.monotonic() - sent_at
        finally:
            for process in (worker, beat):
                process.terminate()
                process.wait(timeout=60)
            redis.stop()
        statuses = collections.Counter(
            Run.objects.filter(parent=None).values_list("status", flat=True)
        )
        errors = collections.Counter(
            Run.objects.filter(parent=None, status="failed").values_list("error", flat=True)
        )
    print("answers by status code:", dict(sorted(answers.items())))
    print("runs by status:", dict(statuses))
    for error, count in errors.most_common(5):
        print(f"  failed ({count}): {error}")
    print(f"last pending run ended {drained:.1f} s after the last upload was sent"
          if not statuses.get("pending") else
          f"{statuses['pending']} runs still pending {args.wait} s after the batch")  # fmt: skip


if __name__ == "__main__":
    main()
