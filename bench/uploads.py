"""Sustained ingest of agent-sized uploads through the real path, and the worker's memory.

    .venv/bin/python bench/uploads.py [--minutes 5] [--rows 400] [--baseline 40] [--profile]

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


def baseline(names: list[str], rows: int, count: int, *, profile: bool) -> float:
    """Results per second of `count` uploads ingested in this process."""
    from benchmarks.services import runs

    profiler = cProfile.Profile() if profile else None
    started = time.perf_counter()
    if profiler:
        profiler.enable()
    # Numbers far past the timed run's, so that both store new series.
    for number in range(10**6, 10**6 + count):
        run, _ = runs.submit_run(content=table(names, rows, number), format="csv")
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

    def __init__(self, url: str, token: str, names: list[str], rows: int) -> None:
        self.url, self.token, self.names, self.rows = url, token, names, rows
        self.stop = threading.Event()
        self.numbers = iter(range(10**9))
        self.lock = threading.Lock()
        self.answers: list[tuple[int, int | None]] = []
        self.pending = 0  # set by the monitoring loop

    def _loop(self) -> None:
        while not self.stop.is_set():
            if self.pending >= BACKLOG:
                time.sleep(0.05)
                continue
            with self.lock:
                number = next(self.numbers)
            answer = faults.post(self.url, self.token, table(self.names, self.rows, number))
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
    args = parser.parse_args()

    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        from django.db import connection
        from django.utils import timezone

        from benchmarks.models import Run

        names = common.type_names(TYPES)
        common.create_fleet(names)
        token = faults.upload_token()
        in_process = baseline(names, args.rows, args.baseline, profile=args.profile)
        print(f"{args.rows}-result uploads; PostgreSQL; {os.cpu_count()} CPUs")
        print(f"baseline, in this process ({args.baseline} uploads): {in_process:,.0f} results/s")

        redis = faults.Redis()
        redis.start()
        env, worker, _ = faults.celery_processes(cluster.url, redis.url)
        rss: list[tuple[float, float]] = []
        try:
            worker.start()
            with common.gunicorn(cluster.url, extra_env=env) as server:
                sender = Sender(server.url, token, names, args.rows)
                since, started = timezone.now(), time.monotonic()
                cpu_before = cpu_seconds_by_program()
                with ThreadPoolExecutor(THREADS) as pool:
                    sender.run(pool)
                    sampled = started
                    while time.monotonic() - started < args.minutes * 60:
                        time.sleep(0.5)
                        sender.pending = Run.objects.filter(status="pending").count()
                        if time.monotonic() - sampled >= 10:
                            sampled = time.monotonic()
                            rss.append(
                                (sampled - started, process_group_rss_mib(worker.process.pid))
                            )
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
        per_minute = minutes_of(accepted, since, args.minutes, args.rows)
        print(f"sent {len(sender.answers)} uploads in {args.minutes} min: {dict(answers)}")
        print("minute  results/s  worker RSS MiB (at the minute's end)")
        for minute, results in enumerate(per_minute):
            at = [mib for seconds, mib in rss if seconds <= (minute + 1) * 60]
            print(f"{minute + 1:>6}  {results / 60:>9,.0f}  {at[-1] if at else 0:>8.0f}")
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
        faults.check_statistics()


if __name__ == "__main__":
    main()
