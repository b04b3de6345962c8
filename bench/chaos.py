"""A chaos run: mixed uploads, the CLI, price imports and readers, with a random fault at a
steady pace; at the end nothing accepted is lost, nothing is stored twice, the kept
statistics are true, and no answer was a 5xx but a 503 while a dependency was away.

    .venv/bin/python bench/chaos.py [--minutes 30] [--fault-every 60] [--seed N]

Serves pricebench as bench/faults.py does (gunicorn with 2 workers, a Celery worker with 2
processes and beat, on a throwaway PostgreSQL and a persisting Redis, all on loopback), then
for `--minutes` keeps four kinds of load going, each in its own thread with bounded loops:

- uploads, UPLOADS_PER_SECOND at most: good CSV tables (three rows each, each distinct,
  spread over 20 benchmarks), bad ones (a negative value: must be a 400) and good ones sent
  again (must answer with the same run);
- the CLI: `import_results` of a small table every 15 s (a new file each time);
- prices: `import_prices --offer-file` of AWS's 2016 c4.large offer file every 45 s (the
  same file: after the first, nothing new);
- readers: `price-performance/`, the comparison page and `runs/` in a loop.

Every `--fault-every` seconds one fault drawn at random (`--seed`): the Celery worker
SIGKILLed and started again, Redis restarted, PostgreSQL restarted (fast shutdown), or one
gunicorn worker SIGKILLed (its master starts another).

At the end, once every accepted upload has settled (at most 300 s): each answered 202/200 is
done, or failed with its reason; each done run holds its rows once; `rebuild_stats --check`
exits 0; no answer was a 5xx other than 503. Prints the counts and every violation; exits 1 if
there is one. `tests/test_chaos.py` runs the same for 3 minutes with a fault every 20 s.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)
import faults  # noqa: E402

SHARED = common.ROOT.parent / "shared" / "data"
OFFER_FILE = SHARED / "pricing" / "aws-samples" / "aws_ec2_offer_c4large_us-east-1_201612_lyft.json"
MACHINES = ("c7g.large", "c7a.large", "t2.micro")
ROWS = 3
BENCHMARKS = 20
# Uploads sent per second at most: a steady load the two worker processes keep up with, so
# that what the end measures is recovery, not a backlog.
UPLOADS_PER_SECOND = 8
CLI_EVERY = 15
PRICES_EVERY = 45
FAULTS = ("worker", "redis", "postgres", "gunicorn")
READS = (
    "/api/v1/price-performance/?benchmark=chaos:upload-1&region=us-east-1",
    "/",
    "/api/v1/runs/?limit=5",
)


def table(kind: str, number: int, *, bad: bool = False) -> bytes:
    """A CSV table of ROWS results, distinct by `kind` and `number`; `bad`: a negative value.
    Spread over BENCHMARKS benchmarks, as uploads from many agents are."""
    rows = "".join(
        f"chaos:{kind}-{number % BENCHMARKS},{MACHINES[row % len(MACHINES)]},us-east-1,"
        f"{-1 if bad and row == 1 else 1000 * (row + 1) + number},op/s\n"
        for row in range(ROWS)
    )
    return ("benchmark,instance_type,region,value,unit\n" + rows).encode()


@dataclass
class Record:
    """What the load saw: every answer, the accepted uploads, the violations."""

    answers: collections.Counter = field(default_factory=collections.Counter)
    accepted: dict[int, int] = field(default_factory=dict)  # run id -> upload number
    violations: list[str] = field(default_factory=list)
    cli: collections.Counter = field(default_factory=collections.Counter)
    prices: collections.Counter = field(default_factory=collections.Counter)
    faults: list[str] = field(default_factory=list)
    # While a fault is under way (and a few seconds after), a 503 or a refused connection is
    # what a dependency's absence looks like; any other 5xx never is.
    away_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def saw(self, what: str, status: int) -> None:
        with self.lock:
            self.answers[(what, status)] += 1
            if status >= 500 and status != 503:
                self.violations.append(f"{what} answered {status}")

    def violation(self, text: str) -> None:
        with self.lock:
            self.violations.append(text)


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except (OSError, http.client.HTTPException):
        return 0


def uploads(server, token: str, record: Record, stop: threading.Event, seed: int) -> None:
    number = 0
    sent: list[tuple[int, int]] = []  # (number, run id) of good uploads accepted
    chooser = random.Random(seed)
    while not stop.wait(1 / UPLOADS_PER_SECOND):
        number += 1
        kind = chooser.choices(("good", "bad", "again"), weights=(8, 1, 1))[0]
        if kind == "again" and sent:
            again, run_id = chooser.choice(sent)
            status, answered = faults.post(server.url, token, table("upload", again))
            record.saw("upload again", status)
            if status in (200, 202) and answered != run_id:
                record.violation(f"upload {again} sent again became run {answered}, not {run_id}")
            continue
        status, run_id = faults.post(server.url, token, table("upload", number, bad=kind == "bad"))
        record.saw(f"upload {kind}", status)
        if kind == "bad" and status in (200, 202):
            record.violation(f"bad upload {number} was accepted ({status})")
        if kind != "bad" and status in (200, 202):
            with record.lock:
                record.accepted[run_id] = number
            sent.append((number, run_id))


def readers(server, record: Record, stop: threading.Event) -> None:
    while not stop.is_set():
        for path in READS:
            record.saw(f"GET {path.split('?')[0]}", get(server.url + path))


def commands(env: dict, record: Record, stop: threading.Event, folder: Path) -> None:
    """The CLI's import_results every CLI_EVERY s, import_prices every PRICES_EVERY s."""
    number, next_cli, next_prices = 0, time.monotonic(), time.monotonic()
    while not stop.wait(1):
        now = time.monotonic()
        if now >= next_cli:
            number += 1
            path = folder / f"cli-{number}.csv"
            path.write_bytes(table("cli", number))
            done = subprocess.run(
                [common.PYTHON, "manage.py", "import_results", str(path),
                 "--instance-type", "c7g.large", "--region", "us-east-1"],
                cwd=common.ROOT, env=env, capture_output=True, text=True,
            )  # fmt: skip
            record.cli[done.returncode] += 1
            next_cli = now + CLI_EVERY
        if now >= next_prices:
            done = subprocess.run(
                [common.PYTHON, "manage.py", "import_prices", "--offer-file", str(OFFER_FILE)],
                cwd=common.ROOT, env=env, capture_output=True, text=True,
            )  # fmt: skip
            record.prices[done.returncode] += 1
            next_prices = now + PRICES_EVERY


def guarded(record: Record, target, *args) -> threading.Thread:
    """A load thread whose crash is a violation, not a silent stop of that load."""

    def run() -> None:
        try:
            target(*args)
        except Exception as error:  # noqa: BLE001 (any crash of the load is reported)
            record.violation(f"the {target.__name__} load crashed: {error!r}")

    return threading.Thread(target=run, name=target.__name__)


def gunicorn_workers(server) -> list[int]:
    """The gunicorn master's children (its workers), from /proc."""
    workers = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            # pid (comm) state ppid ...: comm may hold spaces, the fields after it do not.
            after = stat.read_text().rsplit(")", 1)[1].split()
            if int(after[1]) == server.process.pid:
                workers.append(int(stat.parent.name))
    return workers


def inflict(fault: str, *, cluster, redis, worker, server) -> None:
    if fault == "worker":
        worker.kill()
        time.sleep(1)
        worker.start()
    elif fault == "redis":
        redis.stop()
        time.sleep(2)
        redis.start()
    elif fault == "postgres":
        cluster.restart()
    elif fault == "gunicorn":
        pids = gunicorn_workers(server)
        if pids:
            os.kill(random.choice(pids), signal.SIGKILL)


def check_outcome(record: Record, statuses: collections.Counter) -> None:
    from benchmarks.models import Run

    if statuses.get("pending"):
        record.violation(f"{statuses['pending']} accepted uploads still pending after settling")
    # Every run stored, the accepted uploads and those whose answer a killed gunicorn worker
    # cut short (and the CLI's): none left pending, each done one holding its rows once.
    ids = list(Run.objects.filter(parent=None).values_list("pk", flat=True))
    pending = Run.objects.filter(pk__in=ids, status="pending").count()
    if pending > statuses.get("pending", 0):
        record.violation(f"{pending} runs in all still pending after settling")
    no_reason = Run.objects.filter(pk__in=ids, status="failed", error="").count()
    if no_reason:
        record.violation(f"{no_reason} failed runs give no reason")
    _, wrong = faults.not_held_once(ids, ROWS)
    if wrong:
        record.violation(f"{len(wrong)} done runs do not hold their {ROWS} rows once: {wrong[:5]}")
    clean, last = faults.statistics_verdict()
    if not clean:
        record.violation(f"rebuild_stats --check: {last}")


def run_chaos(*, minutes: float, fault_every: float, seed: int, out=sys.stdout) -> Record:
    """The whole run; returns what it saw (its `violations` empty when all went well)."""
    chooser = random.Random(seed)
    record = Record()
    folder = Path(tempfile.mkdtemp(prefix="pricebench-chaos-"))
    server_log = folder / "gunicorn.log"
    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        from benchmarks.models import InstanceType

        for name in MACHINES:
            InstanceType.objects.get_or_create(name=name)
        token = faults.upload_token()
        redis = faults.Redis(persistent=True)
        redis.start()
        env, worker, beat = faults.celery_processes(cluster.url, redis.url)
        stop = threading.Event()
        try:
            worker.start()
            beat.start()
            with common.gunicorn(cluster.url, extra_env=env, log=server_log) as server:
                threads = [
                    guarded(record, uploads, server, token, record, stop, seed),
                    guarded(record, readers, server, record, stop),
                    guarded(record, commands, env, record, stop, folder),
                ]
                for thread in threads:
                    thread.start()
                started = time.monotonic()
                end = started + minutes * 60
                while time.monotonic() + fault_every <= end:
                    time.sleep(fault_every)
                    fault = chooser.choice(FAULTS)
                    at = time.monotonic() - started
                    inflict(fault, cluster=cluster, redis=redis, worker=worker, server=server)
                    record.faults.append(f"{at:.0f} s: {fault}")
                    print(f"  {at:5.0f} s  {fault}", file=out, flush=True)
                time.sleep(max(0.0, end - time.monotonic()))
                stop.set()
                for thread in threads:
                    thread.join(timeout=120)
                statuses, _ = faults.settle(list(record.accepted), time.monotonic())
                check_outcome(record, statuses)
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                beat.stop()
                worker.stop()
            redis.stop()
    report(record, statuses, out)
    if any(" answered 5" in violation for violation in record.violations):
        print_server_errors(server_log, out)
    return record


def print_server_errors(log: Path, out) -> None:
    """The web's errors (a 500's traceback among them) from its log, so that a 5xx other
    than 503 says where it came from."""
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    errors, keep = [], False
    for line in lines:
        if " ERROR " in line or " CRITICAL " in line:
            keep = " Service Unavailable: " not in line
        elif line[:4].isdigit() and line[4:5] == "-":
            keep = False  # the next dated line ends a traceback
        if keep:
            errors.append(line)
    print(f"the web's errors ({log}):", file=out)
    print("\n".join(errors[-200:]) or "  (none logged)", file=out)


def report(record: Record, statuses: collections.Counter, out) -> None:
    print(f"faults: {len(record.faults)} ({', '.join(record.faults)})", file=out)
    for (what, status), count in sorted(record.answers.items()):
        print(f"  {what:28} {status:3}  x {count}", file=out)
    print(f"accepted uploads: {len(record.accepted)}: {dict(sorted(statuses.items()))}", file=out)
    print(f"import_results exits: {dict(record.cli)}; import_prices exits: {dict(record.prices)}",
          file=out)  # fmt: skip
    if record.violations:
        print(f"VIOLATIONS ({len(record.violations)}):", file=out)
        for violation in record.violations[:50]:
            print(f"  {violation}", file=out)
    else:
        print("no violation: every accepted upload settled, stored once, statistics clean, "
              "no 5xx but 503", file=out)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--fault-every", type=float, default=60)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    print(f"chaos: {args.minutes:g} min, a fault every {args.fault_every:g} s, seed {args.seed}")
    record = run_chaos(minutes=args.minutes, fault_every=args.fault_every, seed=args.seed)
    sys.exit(1 if record.violations else 0)


if __name__ == "__main__":
    main()
