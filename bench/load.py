"""Drives the cluster (`make cluster`) through its load balancer with Locust, headless.

    .venv/bin/python bench/load.py --seconds 120 [--rate 100] [--users 40]
        [--kill-web-host-at 60] [--kill-worker-host-at S] [--kill-replica-at S]
        [--kill-redis-at S] [--revive-at S]
        [--host http://10.59.0.2] [--uploads-per-second 5]

Reads: questions drawn Zipf-like from 10,000 distinct ones (bench/load_questions.py) at
`--rate` requests a second in all (`--users` clients, each at most rate/users a second).
Uploads: `--uploads-per-second` CSV uploads with an upload token, each new content, retried
(the same content) until accepted, as the agent does; each accepted upload's status polled
every second. At the end, every accepted upload must be done, stored once (distinct runs,
each holding its rows). Prints per kind requests, p50, p99, 4xx and errors (5xx and failed
connections), and for each host killed what it cost: errors after it, seconds until the
p99 of the reads (over 5-second windows) was back under its value before the kill, and
uploads lost. Exit status 1 when an upload was lost.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import gevent
from locust import FastHttpUser, constant_throughput, events, task
from locust.env import Environment

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_questions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HOSTS = ROOT / "scripts" / "cluster" / "hosts.sh"
ROWS = 2
# Every request: (seconds since start, kind, milliseconds, status; 0 = no answer).
LOG: list[tuple[float, str, float, int]] = []
STARTED = time.monotonic()


def record(kind: str, started: float, status: int) -> None:
    now = time.monotonic()
    LOG.append((now - STARTED, kind, (now - started) * 1000, status))


class Reader(FastHttpUser):
    """Asks questions drawn Zipf-like from the universe."""

    questions: list = []
    draw = None

    @task
    def ask(self):
        kind, path = self.questions[self.draw()]
        started = time.monotonic()
        with self.client.get(path, name=kind, catch_response=True) as response:
            status = response.status_code or 0
            # A question the data cannot answer (400) is not the cluster's failure.
            if 400 <= status < 500:
                response.success()
        record(kind, started, status)


class Uploads:
    """Uploads at a steady rate, each retried until accepted; statuses polled."""

    def __init__(self, base: str, token: str, per_second: float):
        from geventhttpclient import URL, HTTPClient

        self.url = URL(base)
        self.client = HTTPClient.from_url(self.url, concurrency=20, network_timeout=30)
        self.token, self.per_second = token, per_second
        self.accepted: dict[str, int] = {}  # content id -> run id
        self.done: dict[int, tuple[str, float]] = {}  # run id -> (status, seconds to done)
        self.sent_at: dict[int, float] = {}
        self.greenlets = []

    def start(self, seconds: float):
        for number in range(int(seconds * self.per_second)):
            at = number / self.per_second
            self.greenlets.append(gevent.spawn_later(at, self.send, number))
        self.greenlets.append(gevent.spawn(self.poll))

    def body(self, number: int) -> tuple[bytes, str]:
        name = f"{uuid.uuid4().hex[:12]}-{number}"
        rows = "".join(
            f"load:upload,c7g.large,us-east-1,{1000 + row + number * 10},op/s\n"
            for row in range(ROWS)
        )
        csv = f"benchmark,instance_type,region,value,unit\n{rows}".encode()
        boundary = uuid.uuid4().hex
        part = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                f'filename="{name}.csv"\r\nContent-Type: text/csv\r\n\r\n')  # fmt: skip
        return part.encode() + csv + f"\r\n--{boundary}--\r\n".encode(), boundary

    def send(self, number: int):
        body, boundary = self.body(number)
        headers = {"Authorization": f"Token {self.token}",
                   "Content-Type": f"multipart/form-data; boundary={boundary}"}  # fmt: skip
        while True:
            started = time.monotonic()
            try:
                response = self.client.post("/api/v1/runs/", body=body, headers=headers)
                status, text = response.status_code, response.read()
            except Exception:  # noqa: BLE001 (refused, reset, cut: sent again)
                status, text = 0, b""
            record("upload", started, status)
            if status in (200, 201, 202):
                run = json.loads(text)["id"]
                self.accepted[f"{number}"] = run
                self.sent_at[run] = time.monotonic()
                return
            gevent.sleep(0.5)

    def poll(self):
        while True:
            for run in [r for r in self.sent_at if r not in self.done]:
                started = time.monotonic()
                try:
                    response = self.client.get(f"/api/v1/runs/{run}/")
                    status, text = response.status_code, response.read()
                except Exception:  # noqa: BLE001
                    status, text = 0, b""
                record("upload status", started, status)
                if status == 200:
                    state = json.loads(text)["status"]
                    if state != "pending":
                        self.done[run] = (state, time.monotonic() - self.sent_at[run])
            gevent.sleep(1)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(rows) -> None:
    print(f"{'kind':<24}{'requests':>9}{'p50 ms':>9}{'p99 ms':>9}{'4xx':>7}{'errors':>8}")
    by_kind = collections.defaultdict(list)
    for _, kind, ms, status in rows:
        by_kind[kind].append((ms, status))
    # Every read together: the mix's p99, which the rate held is judged by.
    by_kind["(all reads)"] = [
        e for k, es in by_kind.items() if not k.startswith("upload") for e in es
    ]
    for kind in sorted(by_kind):
        entries = by_kind[kind]
        times = [ms for ms, _ in entries]
        rejected = sum(400 <= status < 500 for _, status in entries)
        errors = sum(status == 0 or status >= 500 for _, status in entries)
        print(f"{kind:<24}{len(entries):>9}{percentile(times, .5):>9.1f}"
              f"{percentile(times, .99):>9.1f}{rejected:>7}{errors:>8}")  # fmt: skip


def windows_p99(rows, width=5) -> dict[int, float]:
    """p99 of the reads in each `width`-second window, keyed by the window's start."""
    buckets = collections.defaultdict(list)
    for at, kind, ms, _ in rows:
        if not kind.startswith("upload"):
            buckets[int(at // width) * width].append(ms)
    return {start: percentile(times, 0.99) for start, times in sorted(buckets.items())}


def cost(name: str, at: float, until: float) -> None:
    """What killing a host at `at` cost: errors, and when the p99 came back."""
    after = [row for row in LOG if at <= row[0] < until]
    errors = sum(status == 0 or status >= 500 for *_, status in after)
    last_error = max((row[0] for row in after if row[3] == 0 or row[3] >= 500), default=at)
    before = [row for row in LOG if at - 30 <= row[0] < at and not row[1].startswith("upload")]
    bound = percentile([row[2] for row in before], 0.99) * 1.2 + 5
    p99s = windows_p99(after)
    recovered = next((start for start, p99 in p99s.items()
                      if all(v <= bound for s, v in p99s.items() if s >= start)), None)  # fmt: skip
    back = "never in the run" if recovered is None else f"{max(0, recovered - at):.0f} s"
    print(f"{name} killed at {at:.0f} s: {errors} errors (the last {last_error - at:.1f} s "
          f"after), p99 back under {bound:.0f} ms (before + 20%) after {back}")  # fmt: skip


def act(command: str, host: str) -> None:
    print(f"[{time.monotonic() - STARTED:6.1f} s] {command} {host}", flush=True)
    subprocess.run(["bash", str(HOSTS), command, host], check=True)


def manage(*args: str) -> str:
    """A management command run with the cluster's settings; its last line."""
    out = subprocess.run(["bash", str(ROOT / "scripts" / "cluster" / "manage.sh"), *args],
                         check=True, capture_output=True, text=True).stdout  # fmt: skip
    return out.strip().splitlines()[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="http://10.59.0.2")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--rate", type=float, default=100, help="reads a second, in all")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--uploads-per-second", type=float, default=5)
    parser.add_argument("--token", help="an upload token (default: one made for the run)")
    parser.add_argument(
        "--drain-seconds",
        type=int,
        default=240,
        help="how long accepted uploads may take to be done after the end",
    )
    for what in ("web-host", "worker-host", "replica", "redis"):
        parser.add_argument(f"--kill-{what}-at", type=float, metavar="S")
    parser.add_argument("--revive-at", type=float, metavar="S")
    args = parser.parse_args()

    questions = load_questions.universe(args.host)
    Reader.questions, Reader.draw = questions, load_questions.ZipfDraw(len(questions), seed=1)
    Reader.wait_time = constant_throughput(args.rate / args.users)
    token = args.token or manage("create_upload_token", "load", "--name", "bench/load.py")
    environment = Environment(user_classes=[Reader], host=args.host, events=events)
    runner = environment.create_local_runner()
    kills = {"web1": args.kill_web_host_at, "worker1": args.kill_worker_host_at,
             "db2": args.kill_replica_at, "redis": args.kill_redis_at}  # fmt: skip
    for host, at in kills.items():
        if at is not None:
            gevent.spawn_later(at, act, "kill", host)
            if args.revive_at is not None:
                gevent.spawn_later(args.revive_at, act, "start", host)
    global STARTED
    STARTED = time.monotonic()
    uploads = Uploads(args.host, token, args.uploads_per_second)
    uploads.start(args.seconds)
    runner.start(args.users, spawn_rate=args.users)
    load = os.getloadavg()
    gevent.sleep(args.seconds)
    runner.quit()
    end = time.monotonic() - STARTED
    deadline = time.monotonic() + args.drain_seconds
    while time.monotonic() < deadline and (
        len(uploads.done) < len(uploads.accepted) or not all(g.dead for g in uploads.greenlets[:-1])
    ):
        gevent.sleep(1)

    print(f"\n{len(questions)} distinct questions, {args.rate:g} reads/s asked by {args.users} "
          f"clients for {args.seconds} s; load average at start {load[0]:.2f}, "
          f"at end {os.getloadavg()[0]:.2f}")  # fmt: skip
    reads = [row for row in LOG if row[0] < end]
    answered = sum(not row[1].startswith("upload") for row in reads)
    print(f"reads answered per second: {answered / end:.1f}")
    report(reads)
    failed = collections.Counter(row[3] for row in reads if row[3] == 0 or row[3] >= 500)
    if failed:
        print(f"errors by status (0: no answer): {dict(sorted(failed.items()))}")
        seconds = collections.Counter(int(row[0]) for row in LOG if row[3] == 0 or row[3] >= 500)
        print(f"errors by second of the run: {dict(sorted(seconds.items()))}")
    names = ("web host", "worker host", "replica", "Redis")
    for (host, at), name in zip(kills.items(), names, strict=True):
        if at is not None:
            cost(f"{name} ({host})", at, args.revive_at or end)
    states = collections.Counter(state for state, _ in uploads.done.values())
    runs = list(uploads.accepted.values())
    lost = len(runs) - sum(state == "done" for state, _ in uploads.done.values())
    slowest = max((seconds for _, seconds in uploads.done.values()), default=0)
    print(f"uploads: {int(args.seconds * args.uploads_per_second)} sent, {len(runs)} accepted "
          f"as {len(set(runs))} distinct runs, states {dict(states)}, slowest to done "
          f"{slowest:.1f} s; lost: {lost}")  # fmt: skip
    # A table's upload is a parent run; its rows are stored on a child run per machine.
    query = f"Q(run_id__in={runs!r}) | Q(run__parent_id__in={runs!r})"
    stored = manage("shell", "-c", "from django.db.models import Q; from benchmarks.models "
                    f"import Result; print(Result.objects.filter({query}).count())")  # fmt: skip
    print(f"results stored for them: {stored} (expected {len(set(runs)) * ROWS}: once each)")
    return 1 if lost or len(set(runs)) != len(runs) or int(stored) != len(runs) * ROWS else 0


if __name__ == "__main__":
    sys.exit(main())
