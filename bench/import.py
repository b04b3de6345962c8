"""How fast pricebench imports Spare Cores' whole inspector archive into PostgreSQL.

    .venv/bin/python bench/import.py [--archive PATH] [--jobs N]
    .venv/bin/python bench/import.py --profile 80    # cProfile of the first 80 types, one job

Starts a throwaway PostgreSQL (bench/common.py), loads the bundled price snapshot, then runs
`import_sparecores` on the archive (../shared/data/sparecores-inspector/aws.tar.xz, read in
place) in this process, without a broker, and prints its wall time, results per second and
runs per second. Then imports the same archive again (it must store nothing) and asks
`GET /api/v1/price-performance/?region=us-east-1` for one benchmark of each kind, printing
how many instance types each ranks. Exits non-zero when the second import stored anything or
a kind ranks fewer than MINIMUM_RANKED types.

With `--profile N`, imports only the archive's first N types, one at a time in this process
(`sparecores.import_machines`, what the command runs), under cProfile, and prints the CPU
seconds and the functions that took the most time, cumulative.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

ARCHIVE = common.ROOT.parent / "shared" / "data" / "sparecores-inspector" / "aws.tar.xz"
# Several hundred of the 909 types, per kind, priced in us-east-1 by the bundled snapshot.
MINIMUM_RANKED = 250
# One question per kind: a benchmark and the params that pick one series per type. Where a
# kind runs once per machine with its vCPU count (openssl and bw_mem processes, llm threads),
# the param is left open: each type answers with its whole machine. stress-ng's multi-core
# runs have workers = vCPUs beside the single-core runs' workers = 1, so only the latter rank
# across types; static_web's threads scale with the vCPUs, so one threads value covers only
# some sizes (threads=8: 291 types).
QUESTIONS = {
    "stressng(singlecore)": ("stress-ng:cpu", {"workers": 1}),
    "openssl": ("openssl:aes-256-cbc", {"block_size": 16384}),
    "redis": ("redis:set", {"threads": 1, "pipeline": 16}),
    "static_web": ("static_web:http", {"size": 1024, "threads": 8, "connections": 64}),
    "compression_text": ("compression:zstd-compress", {"level": 1, "threads": 1}),
    "bw_mem": ("bw_mem:rd", {"size": 262144}),
    "llm": ("llama-bench:prompt", {"model": "SmolLM-135M.Q4_K_M.gguf", "tokens": 16}),
    "geekbench": ("geekbench:multi-core", {}),
    "passmark": ("passmark:cpu-mark", {}),
}


def import_once(
    archive: Path, jobs: int | None, postmaster: int
) -> tuple[float, tuple[float, float], str]:
    """`import_sparecores ARCHIVE`: its wall time, the CPU seconds it cost (this process's,
    PostgreSQL's) and its summary."""
    from django.core.management import call_command
    from django.db import connections

    out = io.StringIO()
    options = ["--jobs", str(jobs)] if jobs else []
    connections.close_all()
    cpu = cpu_split(postmaster)
    started = time.perf_counter()
    call_command("import_sparecores", str(archive), *options, stdout=out, stderr=io.StringIO())
    wall = time.perf_counter() - started
    # Closed connections end their backends, whose CPU time then counts in the postmaster's.
    connections.close_all()
    time.sleep(0.5)
    after = cpu_split(postmaster)
    return wall, (after[0] - cpu[0], after[1] - cpu[1]), out.getvalue()


def cpu_seconds(postmaster: int) -> float:
    """CPU seconds used so far by this process and by PostgreSQL, from /proc."""
    return sum(cpu_split(postmaster))


def cpu_split(postmaster: int) -> tuple[float, float]:
    """(this process's CPU seconds, PostgreSQL's: the postmaster, its live children and the
    children it has reaped), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    own = usage.ru_utime + usage.ru_stime
    fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    postgres = sum(int(value) for value in fields[11:15]) / ticks  # utime stime cutime cstime
    for child in Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split():
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
            postgres += sum(int(value) for value in fields[11:13]) / ticks
    return own, postgres


def number(summary: str, pattern: str) -> int:
    return int(re.search(pattern, summary)[1].replace(",", ""))


def ranked(benchmark: str, params: dict) -> int:
    """How many priced instance types the API ranks for this question in us-east-1."""
    from rest_framework.test import APIClient

    query = {"benchmark": benchmark, "region": "us-east-1", **params}
    response = APIClient().get("/api/v1/price-performance/", query)
    if response.status_code != 200:
        raise SystemExit(f"{benchmark} {params}: {response.status_code} {response.content[:300]}")
    return len(response.json()["results"])


def profile(archive: Path, types: int, postmaster: int) -> None:
    """cProfile of importing the archive's first `types` types with one job."""
    import cProfile
    import pstats

    from django.db import connections

    from benchmarks import inspector
    from benchmarks.services import sparecores

    machines = inspector.read_source(archive)[:types]
    results = 0
    connections.close_all()
    cpu = cpu_seconds(postmaster)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for machine, summary in sparecores.import_machines(machines, jobs=1):
        if isinstance(summary, Exception):
            raise SystemExit(f"{machine.name}: {summary}")
        results += summary.results
    profiler.disable()
    wall = time.perf_counter() - started
    connections.close_all()
    time.sleep(0.5)
    print(
        f"{types} types, {results:,} results: {wall:.1f} s wall (under cProfile), "
        f"{cpu_seconds(postmaster) - cpu:.1f} CPU seconds (pricebench and PostgreSQL), "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    stats = pstats.Stats(profiler).sort_stats("cumulative")
    stats.print_stats(30)
    stats.sort_stats("tottime").print_stats(25)
    stats.print_callees("record_machine_runs|refresh_series|record_new_series")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--jobs", type=int, help="passed to import_sparecores (default: its own)")
    parser.add_argument("--profile", type=int, metavar="N", help="profile the first N types")
    args = parser.parse_args()
    failures = []
    # The API is asked through Django's test client, whose host is "testserver".
    os.environ["ALLOWED_HOSTS"] = "testserver"
    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        from django.db.models import Count

        from benchmarks.models import Result, Run
        from benchmarks.services import prices as price_services

        price_services.import_snapshot()
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
        if args.profile:
            profile(args.archive, args.profile, postmaster)
            return
        seconds, cpu, summary = import_once(args.archive, args.jobs, postmaster)
        results, runs = Result.objects.count(), Run.objects.count()
        print(summary)
        print(
            f"first import: {seconds:.1f} s wall, {runs:,} runs, {results:,} results: "
            f"{results / seconds:,.0f} results/s, {runs / seconds:,.1f} runs/s; "
            f"{sum(cpu):.1f} CPU seconds (pricebench {cpu[0]:.1f}, PostgreSQL {cpu[1]:.1f}) on "
            f"{os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f} at the end"
        )
        again, _, second = import_once(args.archive, args.jobs, postmaster)
        stored = number(second, r"runs: ([\d,]+) stored")
        print(f"second import: {again:.1f} s wall, runs stored {stored}")
        if stored or (Run.objects.count(), Result.objects.count()) != (runs, results):
            failures.append("the second import stored something")
        kinds = dict(Run.objects.values_list("format").annotate(n=Count("id")))
        print(f"runs per kind: {dict(sorted(kinds.items()))}")
        for kind, (benchmark, params) in QUESTIONS.items():
            count = ranked(benchmark, params)
            print(f"  {kind:<20} {benchmark} {params}: {count} types ranked in us-east-1")
            if count < MINIMUM_RANKED:
                failures.append(f"{benchmark} ranks {count} types, fewer than {MINIMUM_RANKED}")
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
