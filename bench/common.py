"""What the bench scripts share: a throwaway PostgreSQL, a fleet of results, gunicorn, wrk.

Everything runs on loopback and is stopped on exit. Debian packages the scripts need
(PostgreSQL, wrk, Chromium) are installed the way scripts/test.sh installs them.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

# A bench stopped with SIGTERM still stops its servers (the `finally` clauses run).
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
# Production settings (DEBUG off) served over plain http on loopback and unthrottled: the
# benches measure the answers, and the throttles would refuse wrk's load with 429.
for _name, _value in {
    "SECRET_KEY": "bench-" + "x" * 50,
    "PRICEBENCH_HTTPS": "false",
    "PRICEBENCH_THROTTLE_ANON": "100000000/minute",
    "PRICEBENCH_THROTTLE_USER": "100000000/minute",
    "PRICEBENCH_THROTTLE_UPLOADS": "100000000/minute",
}.items():
    os.environ.setdefault(_name, _value)
BENCHMARK = "bench:work"
REGIONS = ("us-east-1", "ap-northeast-1")
CPU_MODELS = ("Neoverse-V1", "AMD EPYC 9R14", "Intel(R) Xeon(R) Platinum 8488C")
# The columns a run copied in holds beside its figures, as the model's defaults give them: one
# machine observed, no identity proof (COPY takes no Django default).
UNVERIFIED_RUN = {"observations": 1, "verified_by": "", "verified_instance_type": "",
                  "verified_region": "", "verified_instance_id": "",
                  "verified_account": ""}  # fmt: skip


def ensure_debian(*packages_by_command: tuple[str, str]) -> None:
    """Install the Debian packages whose commands are missing (as root, or through sudo)."""
    missing = [package for command, package in packages_by_command if not _found(command)]
    if not missing:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print(f"installing from Debian: {' '.join(missing)}", file=sys.stderr)
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=True)
    subprocess.run(
        [*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq",
         *missing],
        check=True,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def _found(command: str) -> bool:
    if command.startswith("/"):
        return bool(list(Path("/").glob(command.lstrip("/"))))
    return shutil.which(command) is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def postgres(
    *, keep: Path | None = None, port: int | None = None, again: bool = False
) -> Iterator[PostgresCluster]:
    """A PostgreSQL cluster on a free loopback port in a temporary folder, with its URL; with
    `keep`, in that (new) folder on `port`, left there stopped, and how to start it printed;
    with `again` too, the cluster an earlier `keep` left in that folder."""
    ensure_debian(("/usr/lib/postgresql/*/bin/initdb", "postgresql"))
    cluster = PostgresCluster(keep=keep, port=port, again=again)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop(remove=keep is None)
        if keep is not None:
            print(f"\nthe database is kept in {cluster.data} (stopped); start it with\n"
                  f"  {cluster.start_command()}\nthen DATABASE_URL={cluster.url}")  # fmt: skip


class PostgresCluster:
    """initdb, pg_ctl start/stop; as the postgres user when running as root."""

    def __init__(
        self, *, keep: Path | None = None, port: int | None = None, again: bool = False
    ) -> None:
        self.bin = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]
        if keep is None:
            self.work = Path(tempfile.mkdtemp(prefix="pricebench-bench-"))
        else:
            keep.mkdir(parents=True, exist_ok=again)
            self.work = keep.resolve()
        self.work.chmod(0o755)
        self.data = self.work / "pg"
        self.port = port or free_port()
        self.url = f"postgres://pricebench@127.0.0.1:{self.port}/pricebench"

    def _as_pg(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, stdout=subprocess.DEVNULL)

    def start(self) -> None:
        if not self.data.exists():
            self.data.mkdir()
            if os.geteuid() == 0:
                shutil.chown(self.data, "postgres")
            self._as_pg(str(self.bin / "initdb"), "-D", str(self.data), "-U", "pricebench",
                        "-A", "trust", "-E", "UTF8", "--no-sync")  # fmt: skip
        self._as_pg(*self._start_arguments())
        subprocess.run(
            [str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
             "pricebench", "pricebench"],
            check=False,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def _start_arguments(self) -> list[str]:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c shared_buffers=256MB"
        )
        return [str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                str(self.data / "server.log"), "-w", "-o", options, "start"]  # fmt: skip

    def start_command(self) -> str:
        """The shell command that starts the cluster again (a kept one, later)."""
        as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        return shlex.join([*as_pg, *self._start_arguments()])

    def stop(self, *, remove: bool = False) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._as_pg(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "stop")
        if remove:
            shutil.rmtree(self.work, ignore_errors=True)

    def restart(self) -> None:
        """Stopped and started again: PostgreSQL's own buffers are empty afterwards."""
        self.stop()
        self.start()


def setup_django(database_url: str) -> None:
    """Django in this process, on the bench database, migrated."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def type_names(count: int, families: int = 20) -> list[str]:
    """`count` EC2-like names spread over `families` families: bf00.s0, bf01.s0, ..."""
    return [f"bf{index % families:02d}.s{index // families}" for index in range(count)]


def create_fleet(names: list[str]) -> None:
    """Instance types priced on demand in both regions since 2024 (bulk inserts)."""
    import datetime
    from decimal import Decimal

    from benchmarks.models import InstanceType, Price, Region

    InstanceType.objects.bulk_create(
        [InstanceType(name=name, vcpus=2 + index % 64, architecture="arm64")
         for index, name in enumerate(names)],
        ignore_conflicts=True,
        batch_size=2000,
    )  # fmt: skip
    types = InstanceType.objects.filter(name__in=names)
    regions = list(Region.objects.filter(code__in=REGIONS))
    Price.objects.bulk_create(
        [
            Price(instance_type=instance_type, region=region, purchase_option="on_demand",
                  usd_per_hour=(
                      Decimal("0.05") * (1 + instance_type.pk % 40) * (1 + (region != regions[0]))
                  ),
                  effective_from=datetime.date(2024, 1, 1), source="bench")
            for instance_type in types
            for region in regions
        ],
        ignore_conflicts=True,
        batch_size=5000,
    )  # fmt: skip


def add_results(names: list[str], runs_per_type: int, *, first_run: int = 0) -> int:
    """Add `runs_per_type` one-result runs of BENCHMARK per type, with kept statistics.

    The bulk path: runs, series and results are copied in with PostgreSQL's COPY, then the
    statistics are recomputed by the ingest's own `statistics.refresh_series`, so that they
    are exactly what ingesting run by run keeps (`rebuild_stats` checks it).
    """
    from django.db import connection, transaction

    from benchmarks.models import Benchmark, InstanceType, Region, Run
    from benchmarks.services import statistics as kept

    benchmark, _ = Benchmark.objects.get_or_create(key=BENCHMARK, defaults={"unit": "op/s"})
    type_ids = dict(InstanceType.objects.filter(name__in=names).values_list("name", "pk"))
    region_ids = [Region.objects.get(code=code).pk for code in REGIONS]
    with transaction.atomic():
        kept.attach_series(
            [_unsaved_result(benchmark, type_ids[name]) for name in names]
        )  # creates the missing series
        series = dict(
            kept.Series.objects.filter(benchmark=benchmark).values_list("instance_type_id", "pk")
        )
        raw = connection.cursor().cursor
        run_columns = ("instance_type_id", "region_id", "variant", "cpu_model", "format",
                       "tool_version", "filename", "raw_output", "content_hash", "status",
                       "error", "warnings", "source", "licence", "created_at",
                       "queue_attempts", *UNVERIFIED_RUN.keys())  # fmt: skip
        with raw.copy(f"COPY benchmarks_run ({', '.join(run_columns)}) FROM STDIN") as copy:
            for number in range(first_run, first_run + runs_per_type):
                for index, name in enumerate(names):
                    copy.write_row(
                        (type_ids[name], region_ids[number % 2], "", CPU_MODELS[index % 3],
                         "csv", "", "", "", "", Run.Status.DONE, "", "[]", "bench", "",
                         "2026-01-01T00:00:00Z", 0, *UNVERIFIED_RUN.values())
                    )  # fmt: skip
        raw.execute(
            "INSERT INTO benchmarks_result (run_id, benchmark_id, params, value, notes, "
            "series_id) SELECT r.id, %s, '{}', 1000 + (r.id %% 997) * (1 + r.instance_type_id "
            "%% 13), '', s.id FROM benchmarks_run r JOIN benchmarks_series s ON "
            "s.instance_type_id = r.instance_type_id AND s.benchmark_id = %s AND s.variant = '' "
            "WHERE r.source = 'bench' AND NOT EXISTS (SELECT 1 FROM benchmarks_result x WHERE "
            "x.run_id = r.id)",
            [benchmark.pk, benchmark.pk],
        )
        added = raw.rowcount
        kept.refresh_series(series.values())
    # As an operator would after a bulk load: vacuumed and analysed now, rather than by
    # autovacuum in the middle of the measurements that follow (two cores here).
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
    return added


def _unsaved_result(benchmark, instance_type_id: int):
    from benchmarks.models import Result, Run

    return Result(benchmark=benchmark, params={}, run=Run(instance_type_id=instance_type_id))


@contextlib.contextmanager
def gunicorn(
    database_url: str,
    *,
    workers: int = 2,
    extra_env: dict | None = None,
    log: Path | None = None,
) -> Iterator[Server]:
    """gunicorn serving pricebench (`Server`); its warnings and errors written to `log` when
    given, else dropped."""
    server = Server(database_url, workers=workers, extra_env=extra_env, log=log)
    # With DEBUG off the pages' scripts (Chart.js among them) come from collected files, as
    # in a deployment (the Dockerfile collects them too).
    subprocess.run(
        [PYTHON, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=ROOT,
        env=server.env,
        check=True,
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()


class Server:
    """gunicorn serving pricebench on a free loopback port, with production-like settings."""

    def __init__(
        self,
        database_url: str,
        *,
        workers: int,
        extra_env: dict | None = None,
        log: Path | None = None,
    ) -> None:
        self.port = free_port()
        self.log = log
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            **(extra_env or {}),
            "DATABASE_URL": database_url,
            "DATABASE_CONN_MAX_AGE": "60",
            "DEBUG": "false",
            "SECRET_KEY": "bench-" + "x" * 50,
            "ALLOWED_HOSTS": "127.0.0.1",
            "GUNICORN_WORKERS": str(workers),
            "GUNICORN_BIND": f"127.0.0.1:{self.port}",
            "LOG_LEVEL": "WARNING",
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        errors = self.log.open("a") if self.log else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "gunicorn"), "dashboard.wsgi",
                 "--access-logfile", "/dev/null"],
                cwd=ROOT,
                env=self.env,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )  # fmt: skip
        finally:
            if self.log:
                errors.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/healthz", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer /healthz within 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def restart(self) -> None:
        self.stop()
        self.start()


def timed_get(url: str, headers: dict | None = None) -> tuple[float, int, int]:
    """(milliseconds, status, bytes as sent) of one GET on a new connection.

    This process's own garbage collector is held off while the clock runs, as `timeit` does:
    a bench that has just loaded a million rows holds enough objects for one collection to
    take tens of milliseconds, which would be counted as the server's.
    """
    collecting = gc.isenabled()
    gc.disable()
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}),
                                    timeout=60) as response:  # fmt: skip
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        body, status = error.read(), error.code
    finally:
        elapsed = (time.perf_counter() - started) * 1000
        if collecting:
            gc.enable()
    return elapsed, status, len(body)


def host_speed(rounds: int = 31) -> float:
    """Milliseconds (median of `rounds`) of a fixed piece of pure-Python work shaped like an
    answer's (a thousand rows built as dicts, sorted, written as JSON): the host's speed at the
    time, printed beside the figures so that runs on a host whose speed moves can be compared
    (the figures divided by it move less than the figures)."""
    times = []
    collecting = gc.isenabled()
    for _ in range(rounds):
        # This process's collector held off, as in `timed_get`: a bench holding a large heap
        # would otherwise time its own collections, not the host.
        gc.collect()
        gc.disable()
        started = time.perf_counter()
        rows = [
            {"name": f"t{index}.large", "median": index * 1.5, "usd": 0.1 + index / 1e4}
            for index in range(1200)
        ]
        rows.sort(key=lambda row: (-row["median"] / row["usd"], row["name"]))
        json.dumps(rows)
        times.append((time.perf_counter() - started) * 1000)
        if collecting:
            gc.enable()
    return statistics.median(times)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def summary(latencies: list[float]) -> str:
    return (
        f"p50 {statistics.median(latencies):7.1f} ms  p99 {percentile(latencies, 0.99):7.1f} ms"
        f"  max {max(latencies):7.1f} ms  (n={len(latencies)})"
    )


def wrk(url: str, *, seconds: int = 10, connections: int = 4) -> dict:
    """Requests per second and latency percentiles of a steady load from one wrk thread."""
    ensure_debian(("wrk", "wrk"))
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    figures: dict = {"raw": out}
    for line in io.StringIO(out):
        words = line.split()
        if line.startswith("Requests/sec:"):
            figures["rps"] = float(words[1])
        elif len(words) == 2 and words[0] in ("50%", "99%"):
            figures[words[0]] = _milliseconds(words[1])
        elif "Non-2xx" in line:
            figures["errors"] = int(words[-1])
    return figures


def _milliseconds(text: str) -> float:
    for suffix, factor in (("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)
