"""Sustained ingest of agent-sized uploads through the real path, and the worker's memory.

    .venv/bin/python bench/uploads.py [--minutes 5] [--rows 400] [--baseline 40] [--profile]
    .venv/bin/python bench/uploads.py --database-url postgres://.../demo [--uploads 250]
        [--rows 400] [--baseline 40] [--check]

On a throwaway PostgreSQL with a Redis broker, gunicorn (2 workers) and a Celery worker
(prefork, 2 processes), all on loopback: 8 threads send CSV uploads of `--rows` results each
through `POST /api/v1/runs/` for `--minutes`, each upload one machine's results of ten
benchmarks over 40 parameter values (`--rows` series; a series gets a second result once
every machine and day has been sent, as an agent's monthly runs would). The senders keep
`BACKLOG` runs waiting for the worker, so the figure is the worker's, and the web's share of
the two cores is what the uploads need rather than all it can take.

Prints, per minute, the results of the runs that ended done in that minute (from each run's
`finished_at`) and the worker's resident memory (its main process and children, from /proc),
then the whole run's results per second, whether every done run holds its results once, and
what `rebuild_stats --check` says. The baseline, in the same run and on the same database:
`--baseline` of the same uploads ingested in this process, one after another (`submit_run`,
then `ingest_run` as the worker calls it), no HTTP, no broker, one process.
With `--profile`, that in-process baseline runs under cProfile (printed on stderr).

With `--database-url` (a loaded PostgreSQL database: the full demo, issue 56), everything
runs on a fresh copy of it (CREATE DATABASE ... TEMPLATE, dropped at the end: the given
database is never written), each upload one of its instance types with `--rows` of its own
series measured again (bench/demo_rows.py), sent with an upload token (so screened), one
upload per type; the senders stop after `--uploads`, and the figure is their results over
the time from the first sent to the last done. The in-process baseline sends other types'
uploads with the same token. `rebuild_stats --check` (minutes on the full demo) runs only
with `--check` then.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import cProfile
import io
import os
import pstats
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)
import demo_rows  # noqa: E402
import faults  # noqa: E402

THREADS = 8
TYPES = 200
BACKLOG = 40  # pending runs the senders keep queued, at most


def table(names: list[str], rows: int, number: int) -> bytes:
    """Upload `number`: one machine, ten benchmarks, `rows` series of one result each."""
    machine, day = names[number % len(names)], number // len(names) % 9 + 1
    lines = "".join(
        f"upload:kind{row % 10},{machine},us-east-1,{1000 + row * 7 + number % 97},op/s,"
        f"{day},{row // 10}\n"
        for row in range(rows)
    )
    return ("benchmark,instance_type,region,value,unit,param.day,param.n\n" + lines).encode()


def baseline(
    names: list[str], rows: int, count: int, *, profile: bool, tables=None, token=None
) -> float:
    """Results per second of `count` uploads ingested in this process (`tables(number)`
    each upload's table, when given; `token` the upload token they are sent with)."""
    from benchmarks.services import runs

    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    # Numbers far past the timed run's, so that both store new series.
    for number in range(10**6, 10**6 + count):
        content = tables(number) if tables else table(names, rows, number)
        run, _ = runs.submit_run(content=content, format="csv", upload_token=token)
        assert runs.ingest_run(run_id=run.pk).status == "done"
    if profiler:
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(45)
        print(out.getvalue(), file=sys.stderr)
    return count * rows / (time.perf_counter() - started)


def process_group_rss_mib(leader: int) -> float:
    """Resident memory of `leader` and every process in its group (Celery's children)."""
    total = 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = Path(f"/proc/{entry.name}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[2]) != leader:  # the process group
                continue
            for line in Path(f"/proc/{entry.name}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def cpu_seconds_by_program() -> collections.Counter:
    """CPU seconds (user + system) of every gunicorn, Celery and PostgreSQL process so far,
    children that ended included (from /proc: their parents' cutime and cstime)."""
    tick = os.sysconf("SC_CLK_TCK")
    spent: collections.Counter = collections.Counter()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            command = Path(f"/proc/{entry.name}/cmdline").read_bytes().replace(b"\0", b" ")
            program = next(
                (name for name in ("gunicorn", "celery", "postgres") if name.encode() in command),
                None,
            )
            if program:
                fields = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
                spent[program] += sum(int(value) for value in fields[11:15]) / tick
    return spent


class Sender:
    """Sends uploads from THREADS threads until `stop` is set."""

    def __init__(
        self, url: str, token: str, names: list[str], rows: int, tables=None, uploads=10**9
    ) -> None:
        self.url, self.token, self.names, self.rows = url, token, names, rows
        self.tables = tables or (lambda number: table(names, rows, number))
        self.stop = threading.Event()
        self.numbers = iter(range(uploads))
        self.lock = threading.Lock()
        self.answers: list[tuple[int, int | None]] = []
        self.pending = 0  # set by the monitoring loop

    def _loop(self) -> None:
        while not self.stop.is_set():
            if self.pending >= BACKLOG:
                time.sleep(0.05)
                continue
            with self.lock:
                number = next(self.numbers, None)
            if number is None:
                return
            answer = faults.post(self.url, self.token, self.tables(number))
            with self.lock:
                self.answers.append(answer)

    def run(self, pool: ThreadPoolExecutor) -> list:
        return [pool.submit(self._loop) for _ in range(THREADS)]


def minutes_of(run_ids: list[int], since, minutes: int, rows: int) -> list[int]:
    """Results of the runs that ended done in each minute since `since`."""
    from benchmarks.models import Run

    counts = collections.Counter()
    for finished in Run.objects.filter(pk__in=run_ids, status="done").values_list(
        "finished_at", flat=True
    ):
        counts[int((finished - since).total_seconds() // 60)] += rows
    return [counts.get(minute, 0) for minute in range(minutes)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=int, default=5)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--baseline", type=int, default=40, help="uploads ingested in process")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--database-url", help="a loaded PostgreSQL database, copied first")
    parser.add_argument("--uploads", type=int, default=250, help="with --database-url")
    parser.add_argument("--check", action="store_true", help="with --database-url")
    args = parser.parse_args()
    if args.database_url:
        with demo_rows.database_copy(args.database_url) as url:
            measure(args, url, demo=True)
    else:
        with common.postgres() as cluster:
            measure(args, cluster.url, demo=False)


def measure(args, url: str, *, demo: bool) -> None:
    """The whole bench on the database at `url`: the demo's copy, or a throwaway one."""
    common.setup_django(url)
    from django.db import connection
    from django.utils import timezone

    from api.models import UploadToken
    from benchmarks.models import Run

    token = faults.upload_token()
    if demo:
        machines = demo_rows.upload_machines(args.uploads + args.baseline, args.rows)
        names: list[str] = []

        def tables(number: int) -> bytes:
            index = number if number < 10**6 else args.uploads + number - 10**6
            return demo_rows.upload_table(machines[index], number)

        token_object = UploadToken.objects.order_by("-pk").first()
        in_process = baseline(names, args.rows, args.baseline, profile=args.profile,
                              tables=tables, token=token_object)  # fmt: skip
        uploads, limit = args.uploads, 60 * 60
    else:
        names = common.type_names(TYPES)
        common.create_fleet(names)
        tables = None
        in_process = baseline(names, args.rows, args.baseline, profile=args.profile)
        uploads, limit = 10**9, args.minutes * 60
    print(f"{args.rows}-result uploads; PostgreSQL; {os.cpu_count()} CPUs")
    print(f"baseline, in this process ({args.baseline} uploads): {in_process:,.0f} results/s")

    redis = faults.Redis()
    redis.start()
    env, worker, _ = faults.celery_processes(url, redis.url)
    rss: list[tuple[float, float]] = []
    try:
        worker.start()
        with common.gunicorn(url, extra_env=env) as server:
            sender = Sender(server.url, token, names, args.rows, tables, uploads)
            since, started = timezone.now(), time.monotonic()
            cpu_before = cpu_seconds_by_program()
            with ThreadPoolExecutor(THREADS) as pool:
                futures = sender.run(pool)
                sampled = started
                while time.monotonic() - started < limit:
                    time.sleep(0.5)
                    sender.pending = Run.objects.filter(status="pending").count()
                    if time.monotonic() - sampled >= 10:
                        sampled = time.monotonic()
                        rss.append((sampled - started, process_group_rss_mib(worker.process.pid)))
                    if demo and all(f.done() for f in futures) and not sender.pending:
                        break
                sender.stop.set()
                cpu = cpu_seconds_by_program()
                cpu.subtract(cpu_before)
            accepted = [run_id for status, run_id in sender.answers if status in (200, 202)]
            load = os.getloadavg()[0]
    finally:
        with contextlib.suppress(Exception):
            worker.stop()
        redis.stop()

    answers = collections.Counter(status for status, _ in sender.answers)
    minutes = args.minutes if not demo else int((time.monotonic() - started) // 60) + 1
    per_minute = minutes_of(accepted, since, minutes, args.rows)
    print(f"sent {len(sender.answers)} uploads: {dict(answers)}")
    print("minute  results/s  worker RSS MiB (at the minute's end)")
    for minute, results in enumerate(per_minute):
        at = [mib for seconds, mib in rss if seconds <= (minute + 1) * 60]
        print(f"{minute + 1:>6}  {results / 60:>9,.0f}  {at[-1] if at else 0:>8.0f}")
    if demo:
        last = max(Run.objects.filter(pk__in=accepted).values_list("finished_at", flat=True))
        seconds = (last - since).total_seconds()
        sustained = len(accepted) * args.rows / seconds
        print(
            f"sustained: {sustained:,.0f} results/s, {len(accepted)} uploads done in "
            f"{seconds:.1f} s ({sustained / in_process:.2f} x the in-process baseline); "
            f"load average {load:.1f}"
        )
    else:
        sustained = sum(per_minute) / (args.minutes * 60)
        print(
            f"sustained: {sustained:,.0f} results/s over {args.minutes} min "
            f"({sustained / in_process:.2f} x the in-process baseline); load average {load:.1f}"
        )
    print(
        "CPU seconds per upload sent: "
        + ", ".join(
            f"{program} {cpu[program] / len(sender.answers) * 1000:.0f} ms"
            for program in ("gunicorn", "celery", "postgres")
        )
    )
    if rss:
        print(f"worker RSS: first {rss[0][1]:.0f} MiB, last {rss[-1][1]:.0f} MiB")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, seq_scan, seq_tup_read, idx_scan, last_autoanalyze "
            "FROM pg_stat_user_tables WHERE relname IN ('benchmarks_result', "
            "'benchmarks_series', 'benchmarks_seriesstatistics', 'benchmarks_run') "
            "ORDER BY relname"
        )
        for name, scans, read, index_scans, analysed in cursor.fetchall():
            print(
                f"{name}: {scans} sequential scans ({read:,} rows read), "
                f"{index_scans} index scans, last analysed {analysed:%H:%M:%S}"
                if analysed
                else f"{name}: {scans} sequential scans ({read:,} rows read), never analysed"
            )
    done, wrong = faults.not_held_once(accepted, args.rows)
    print(f"{done - len(wrong)} of {done} done runs hold their {args.rows} results once")
    connection.close()
    if not demo or args.check:
        faults.check_statistics()


if __name__ == "__main__":
    main()
