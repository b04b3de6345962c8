"""Faults during uploads and price imports: nothing accepted is lost, nothing is stored twice.

    .venv/bin/python bench/faults.py [--uploads 1000] [--only redis,worker,postgres,prices]
        [--results 2] [--redis-down 10] [--redis-without-persistence]

Serves pricebench with gunicorn (2 workers) on a throwaway PostgreSQL, with a Redis broker, a
Celery worker (prefork, 2 processes) and Celery beat (the sweep that queues pending runs
again), all on loopback. Each scenario sends `--uploads` distinct CSV uploads of `--results`
rows through `POST /api/v1/runs/` from 8 threads and breaks something on the way:

- redis: the broker (persisting to an append-only file, as docker-compose's, or with
  `--redis-without-persistence` keeping nothing, so that every message it held is lost)
  stopped for `--redis-down` seconds after a third of the uploads, then started again;
- worker: the worker SIGKILLed once a third of the runs are done, started again 2 s later;
- postgres: PostgreSQL restarted (fast shutdown) once a third of the runs are done;
- prices: `import_prices --offer-file` of a 32 MB offer file, PostgreSQL restarted while it
  writes the prices (a trigger slows each row to 20 ms so the restart lands mid-write); then
  the same import again, and a third time.

For the uploads it prints the answers by status, how many runs answered 202 ended done,
failed or still pending, how long after the fault the last one ended, and whether every done
run holds its results exactly once; at the end, what `rebuild_stats --check` says of the kept
statistics. For the prices, the prices stored after the broken import (all or none) and after
the second one. Settings: the web and the worker use the defaults (sweep every 5 s, runs the
broker no longer holds queued again at once, deliveries of a lost worker put back in the
queue once 5 s old, PRICEBENCH_REQUEUE_AFTER_SECONDS=120, Celery's visibility timeout an hour).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

THREADS = 8
SETTLE_SECONDS = 300


class Redis:
    """redis-server on a fixed loopback port, persisting as docker-compose's does (append-only
    file), stopped (SIGTERM, as `docker compose stop` does) and started again at will."""

    def __init__(self, *, persistent: bool = True) -> None:
        common.ensure_debian(("redis-server", "redis-server"))
        self.persistence = (
            ["--appendonly", "yes"] if persistent else ["--appendonly", "no", "--save", ""]
        )
        self.port = common.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = tempfile.mkdtemp(prefix="pricebench-faults-redis-")
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", self.dir,
             *self.persistence],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        time.sleep(0.5)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)


class Celery:
    """A Celery worker or beat in its own process group."""

    def __init__(self, env: dict, *arguments: str) -> None:
        self.env, self.arguments = env, arguments
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="pricebench-faults-", suffix=".log")  # noqa: SIM115

    def start(self) -> Celery:
        self.process = subprocess.Popen(
            [common.PYTHON, "-m", "celery", "-A", "dashboard", *self.arguments,
             "--loglevel=WARNING"],
            cwd=common.ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        return self

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def celery_processes(database_url: str, broker_url: str) -> tuple[dict, Celery, Celery]:
    """The environment of the web and Celery processes, and a worker (prefork, 2 processes)
    and beat on it, not started."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "SECRET_KEY": "bench-" + "x" * 50,
        "PYTHONPATH": str(common.ROOT),
    }
    worker = Celery(env, "worker", "--concurrency=2", "--without-gossip", "--without-mingle")
    beat_schedule = Path(tempfile.mkdtemp(prefix="pricebench-beat-")) / "schedule"
    return env, worker, Celery(env, "beat", "--schedule", str(beat_schedule))


def upload_token() -> str:
    """A user with an upload token, made in the bench database."""
    from django.contrib.auth import get_user_model

    from api.tokens import create_upload_token

    user, _ = get_user_model().objects.get_or_create(username="faults")
    return create_upload_token(user=user, name="fault bench")[1]


RESULTS = 2  # rows per upload (--results)
MACHINES = ("c7g.large", "c7a.large")


def csv_upload(scenario: str, number: int) -> bytes:
    rows = "".join(
        f"faults:{scenario},{MACHINES[row % 2]},us-east-1,{1000 * (row + 1) + number},op/s\n"
        for row in range(RESULTS)
    )
    return ("benchmark,instance_type,region,value,unit\n" + rows).encode()


def post(url: str, token: str, content: bytes) -> tuple[int, int | None]:
    """(status, run id) of one multipart upload; status 0 when the connection failed."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\n'
            "Content-Type: text/csv\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        url + "/api/v1/runs/",
        data=body,
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())["id"]
    except urllib.error.HTTPError as error:
        return error.code, None
    except (OSError, http.client.HTTPException):  # refused, reset, or cut mid-answer
        return 0, None


class Uploads:
    """Sends the scenario's uploads from a thread pool; `sent` counts answers so far."""

    def __init__(self, url: str, token: str, scenario: str, count: int) -> None:
        self.url, self.token, self.scenario, self.count = url, token, scenario, count
        self.answers: list[tuple[int, int | None]] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run)

    def _one(self, number: int) -> None:
        answer = post(self.url, self.token, csv_upload(self.scenario, number))
        with self.lock:
            self.answers.append(answer)

    def _run(self) -> None:
        with ThreadPoolExecutor(THREADS) as pool:
            list(pool.map(self._one, range(self.count)))

    @property
    def sent(self) -> int:
        with self.lock:
            return len(self.answers)

    def accepted(self) -> list[int]:
        return [run_id for status, run_id in self.answers if status in (200, 202)]


def runs_by_status(run_ids: list[int]) -> collections.Counter:
    from django.db import close_old_connections

    from benchmarks.models import Run

    close_old_connections()
    for _ in range(30):
        try:
            return collections.Counter(
                Run.objects.filter(pk__in=run_ids).values_list("status", flat=True)
            )
        except Exception:  # noqa: BLE001 (the database may be restarting)
            close_old_connections()
            time.sleep(1)
    raise RuntimeError("the database did not come back")


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise RuntimeError(f"timed out waiting for {what}")


def settle(run_ids: list[int], since: float) -> tuple[collections.Counter, float]:
    """Waits until no run is pending (at most SETTLE_SECONDS): (statuses, seconds since)."""
    deadline = time.monotonic() + SETTLE_SECONDS
    statuses = runs_by_status(run_ids)
    while statuses.get("pending") and time.monotonic() < deadline:
        time.sleep(1)
        statuses = runs_by_status(run_ids)
    return statuses, time.monotonic() - since


def not_held_once(run_ids: list[int], rows: int) -> tuple[int, list[int]]:
    """(how many of these runs are done, those of them not holding their `rows` results
    once): a table's results belong to its row runs."""
    from django.db.models import Count

    from benchmarks.models import Result, Run

    done = list(Run.objects.filter(pk__in=run_ids, status="done").values_list("pk", flat=True))
    per_run = dict(
        Result.objects.filter(run__parent__in=done)
        .values_list("run__parent")
        .annotate(n=Count("pk"))
        .values_list("run__parent", "n")
    )
    return len(done), [run_id for run_id in done if per_run.get(run_id) != rows]


def stored_once(run_ids: list[int]) -> str:
    done, wrong = not_held_once(run_ids, RESULTS)
    return f"{done - len(wrong)} of {done} done runs hold their {RESULTS} results once"


def report(name: str, uploads: Uploads, statuses: collections.Counter, seconds: float) -> None:
    answers = collections.Counter(status for status, _ in uploads.answers)
    print(f"\n{name}")
    print(f"  answers: {dict(sorted(answers.items()))}  (0: connection refused or reset)")
    print(f"  runs answered 200/202: {dict(sorted(statuses.items()))}")
    print(f"  last run ended {seconds:.0f} s after the fault was over")
    print(f"  {stored_once(uploads.accepted())}")


def scenario_redis(env, server, redis, token, count, down: float) -> None:
    from django.db.models import Max
    from django.utils import timezone

    from benchmarks.models import Run

    uploads = Uploads(server.url, token, "redis", count)
    uploads.thread.start()
    wait_for(lambda: uploads.sent >= count // 3, 300, "a third of the uploads")
    down_from = timezone.now()
    redis.stop()
    time.sleep(down)
    redis.start()
    back, back_at = time.monotonic(), timezone.now()
    uploads.thread.join()
    statuses, seconds = settle(uploads.accepted(), back)
    kept = "persisting" if "yes" in redis.persistence else "without persistence"
    report(f"Redis ({kept}) stopped for {down:g} s during the uploads", uploads, statuses, seconds)
    during = Run.objects.filter(
        pk__in=uploads.accepted(), created_at__gte=down_from, created_at__lte=back_at
    )
    last = during.aggregate(last=Max("finished_at"))["last"]
    ended = f"{(last - back_at).total_seconds():.0f} s" if last else "-"
    print(f"  {during.count()} runs uploaded while Redis was down; the last ended {ended} after")
    before = Run.objects.filter(pk__in=uploads.accepted(), created_at__lt=down_from)
    again = before.filter(queue_attempts__gt=1).count()
    print(f"  {again} of the {before.count()} runs uploaded before were queued again (lost)")


def scenario_worker(env, server, worker, token, count) -> None:
    def kill_and_start() -> str:
        worker.kill()
        time.sleep(2)
        worker.start()
        return "Celery worker SIGKILLed mid-batch, started again 2 s later"

    interrupt_ingest(server, token, "worker", count, kill_and_start)


def scenario_postgres(env, server, cluster, token, count) -> None:
    def restart() -> str:
        started = time.monotonic()
        cluster.restart()
        return f"PostgreSQL restarted mid-ingest (down {time.monotonic() - started:.1f} s)"

    interrupt_ingest(server, token, "postgres", count, restart)


def interrupt_ingest(server, token, label: str, count: int, interrupt) -> None:
    """Uploads `count` runs; once a third are done, `interrupt()` breaks something and says
    what; then reports how the uploads and runs came through."""
    uploads = Uploads(server.url, token, label, count)
    uploads.thread.start()
    wait_for(
        lambda: runs_by_status(uploads.accepted()).get("done", 0) >= count // 3,
        300,
        "a third of the runs done",
    )
    name = interrupt()
    back = time.monotonic()
    uploads.thread.join()
    statuses, seconds = settle(uploads.accepted(), back)
    report(name, uploads, statuses, seconds)


SLOW_WRITES = """
CREATE OR REPLACE FUNCTION bench_slow_write() RETURNS trigger AS $$
BEGIN PERFORM pg_sleep(0.02); RETURN NEW; END $$ LANGUAGE plpgsql;
CREATE TRIGGER bench_slow_write BEFORE INSERT ON benchmarks_price
FOR EACH ROW EXECUTE FUNCTION bench_slow_write();
"""


def writing_prices() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' "
            "AND query LIKE 'INSERT INTO \"benchmarks_price\"%%'"
        )
        return cursor.fetchone()[0] > 0


def scenario_prices(env, cluster) -> None:
    import offer_file
    from django.db import close_old_connections, connection

    from benchmarks.models import Price

    folder = Path(tempfile.mkdtemp(prefix="pricebench-faults-offer-"))
    json_path, csv_path = folder / "offer.json", folder / "offer.csv"
    offer_file.build_files(json_path, csv_path, 32 * offer_file.MB)
    command = [common.PYTHON, "manage.py", "import_prices", "--offer-file", str(json_path)]
    before = Price.objects.count()
    # SLOW_WRITES makes each price row wait 20 ms, so the restart lands while they are written.
    with connection.cursor() as cursor:
        cursor.execute(SLOW_WRITES)
    importing = subprocess.Popen(
        command, cwd=common.ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    wait_for(writing_prices, 300, "the import to write prices")
    time.sleep(1)
    cluster.restart()
    _, error = importing.communicate(timeout=600)
    close_old_connections()
    after_fault = Price.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER bench_slow_write ON benchmarks_price")
    again = subprocess.run(command, cwd=common.ROOT, env=env, capture_output=True, text=True)
    after_again = Price.objects.count()
    third = subprocess.run(command, cwd=common.ROOT, env=env, capture_output=True, text=True)
    more = Price.objects.count() - after_again
    last_line = (error.decode().strip().splitlines() or ["(nothing)"])[-1]
    print("\nimport_prices --offer-file (32 MB), PostgreSQL restarted while prices are written")
    print(f"  exit {importing.returncode}: {last_line[:160]}")
    print(f"  prices before {before}, after the broken import {after_fault}")
    print(f"  after importing again: {after_again} (exit {again.returncode})")
    print(f"  a third import stores {more} more (exit {third.returncode})")


def statistics_verdict() -> tuple[bool, str]:
    """Whether `rebuild_stats --check` finds the kept statistics clean, and its last line."""
    import io

    from django.core.management import CommandError, call_command
    from django.db import close_old_connections

    close_old_connections()
    output = io.StringIO()
    try:
        call_command("rebuild_stats", "--check", stdout=output, stderr=output)
        clean = True
    except CommandError as error:
        clean, output = False, io.StringIO(f"{output.getvalue()}\n{error}")
    return clean, (output.getvalue().strip().splitlines() or ["(nothing)"])[-1]


def check_statistics() -> None:
    """What `rebuild_stats --check` says once every scenario has settled."""
    clean, last = statistics_verdict()
    print(f"\nrebuild_stats --check: {'clean' if clean else 'NOT clean'}: {last[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=1000)
    parser.add_argument("--only", default="redis,worker,postgres,prices")
    parser.add_argument("--results", type=int, default=2, help="rows per upload")
    parser.add_argument("--redis-down", type=float, default=10, help="seconds Redis is away")
    parser.add_argument("--redis-without-persistence", action="store_true")
    args = parser.parse_args()
    wanted = args.only.split(",")
    global RESULTS
    RESULTS = args.results

    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        from benchmarks.models import InstanceType

        for name in ("c7g.large", "c7a.large"):
            InstanceType.objects.get_or_create(name=name)
        token = upload_token()
        redis = Redis(persistent=not args.redis_without_persistence)
        redis.start()
        env, worker, beat = celery_processes(cluster.url, redis.url)
        try:
            worker.start()
            beat.start()
            with common.gunicorn(cluster.url, extra_env=env) as server:
                if "redis" in wanted:
                    scenario_redis(env, server, redis, token, args.uploads, args.redis_down)
                if "worker" in wanted:
                    scenario_worker(env, server, worker, token, args.uploads)
                if "postgres" in wanted:
                    scenario_postgres(env, server, cluster, token, args.uploads)
            if "prices" in wanted:
                scenario_prices(env, cluster)
            check_statistics()
        finally:
            with contextlib.suppress(Exception):
                beat.stop()
                worker.stop()
            redis.stop()


if __name__ == "__main__":
    main()
