"""Ten million results on PostgreSQL: the growth from one million, page by page and list by list.

    .venv/bin/python bench/ten_million.py [--results 10000000] [--first 1000000] [--loads 30]
        [--questions 200] [--breadth demo|synthetic] [--demo-database var/pricebench.sqlite3]
        [--seed 56] [--keep DIR | --again DIR] [--port PORT]

Builds a throwaway PostgreSQL database (bench/common.py; with `--keep`, in DIR, left there
stopped, and the command that starts it and its DATABASE_URL printed) holding results of
one of two breadths:

- `demo` (the default, bench/breadth_demo.py): the full demo's (`make run`'s SQLite file):
  every cloud's types with their processors, prices, its 153 benchmarks and every parameter
  set, its runs taken in a shuffled order and measured again, pass after pass, a week
  earlier each time, with values drawn around the demo's within each benchmark's noise;
- `synthetic` (bench/breadth_synthetic.py): every AWS type the demo bundles, ten of Spare
  Cores' benchmarks with 20 parameter sets each, synthetic values, 200 series per run.

Either way runs and results are written in PostgreSQL (COPY, INSERT ... SELECT), the series'
statistics, the benchmarks' summaries, coverage and noise by `rebuild_statistics` (the code
`rebuild_stats` and the ingest use), then the tables are vacuumed and analysed, and
everything written is flushed to disk before anything is timed.

At `--first` results, then at `--results`, it prints:

- what the database holds and where the space goes (heap, indexes, TOAST per table), per
  million results;
- in this process (Django's test client, PostgreSQL restarted first so that its buffers are
  empty, then the process warmed up as a gunicorn worker is, dashboard/warmup.py, and its
  collector kept between requests as there, gunicorn.conf.py): server
  time and SQL queries of the instance-type page for types nobody opened yet,
  of `instance-types/NAME/` in the API, of the comparison page charting every type, of the
  compare page (3 types), `/benchmarks/`, a benchmark's page, `/runs/`, its pages a third,
  two thirds and all the way in, and a run's page, and of every list endpoint's first page;
  the comparison page at its default question, and the compare page issue 56 timed;
- served by gunicorn (2 workers), timed from this process: the price-performance API cold
  (`--questions` questions nobody asked yet: distinct `at` days, after restarting gunicorn
  and PostgreSQL; 200, so that the 99th percentile is one and not the slowest of a few);
  then as many of every benchmark and parameter set in turn (each also on a day of its own),
  whose statistics no earlier question read, in the process or in PostgreSQL's buffers
  (the first series shares, from its second question on, the statistics rows its first
  read: `kept_series.question_rows`); and every list endpoint over `--loads` pages spread
  over the whole list;
- in Debian's headless Chromium: the comparison page charting every type, first chart on
  screen (`--loads` // 3 loads, each a question nobody asked yet).

The same-run baseline is the first size: the ratios printed are the second size's medians
over the first's. Targets (issue 26): price-performance cold p99 < 50 ms and 10M/1M <= 1.3;
first chart < 1 s with <= 10 queries; instance-type page < 100 ms cold with <= 10 queries;
`instance-types/NAME/` < 50 ms with <= 6; every list endpoint p99 < 100 ms with <= 6.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import gc
import json
import os
import statistics
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)
from breadth_demo import DemoBreadth  # noqa: E402
from breadth_synthetic import SyntheticBreadth  # noqa: E402
from page import CHROMIUM_ARGS  # noqa: E402

# The comparison the issue 56 measured (every breadth holds these AWS types).
COMPARED = "c7g.xlarge,c7a.xlarge,c7i.xlarge&baseline=c7a.xlarge"
# The bundled prices are in force from 2026-07-20: questions are asked `at` days after it.
ASKED_FROM = datetime.date(2026, 7, 21)
# The price-performance API's questions are asked this many days after ASKED_FROM and on
# (past the pages' days, so that none of them was asked before).
API_DAYS = 200
COLD_TARGET_MS = 50
# The host's speed at the time: a fixed piece of Python work (common.host_speed).
HOST_SPEED = "host speed (fixed Python work)"
LISTS = ("regions", "instance-types", "prices", "fargate-rates", "benchmarks", "runs")


def load(breadth, results: int, done_runs: int) -> int:
    """Grow to `results` results; the number of runs then stored."""
    from django.db import connection, transaction

    from benchmarks.services import statistics as kept

    runs = breadth.runs_for(results) - done_runs
    started = time.monotonic()
    with transaction.atomic():
        breadth.add_runs(done_runs, runs)
    copied = time.monotonic()
    with transaction.atomic():
        kept.rebuild_statistics()
    rebuilt = time.monotonic()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
        vacuumed = time.monotonic()
        # The load's gigabytes on disk before anything is timed: the kernel otherwise writes
        # them back while the pages are asked (its threshold here is 10% of memory), and the
        # figures then measure that as much as the server.
        cursor.execute("CHECKPOINT")
    os.sync()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM benchmarks_result")
        (stored,) = cursor.fetchone()
    print(
        f"\n== {results:,} results ({stored:,} stored): {runs:,} runs added, results written in "
        f"{copied - started:.0f} s, statistics rebuilt in {rebuilt - copied:.0f} s, "
        f"vacuumed and analysed in {vacuumed - rebuilt:.0f} s, "
        f"on disk in {time.monotonic() - vacuumed:.0f} s"
    )
    return done_runs + runs


def database_size(results: int) -> None:
    """Print the database's size per million results, and each table's heap, indexes and
    TOAST, and the indexes of the four big tables."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, c.reltuples::bigint, pg_table_size(c.oid) - "
            "coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0), "
            "pg_indexes_size(c.oid), "
            "coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0) "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r' "
            "ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8"
        )
        tables = cursor.fetchall()
        cursor.execute("SELECT pg_database_size(current_database())")
        (whole,) = cursor.fetchone()
    mb = 1024 * 1024
    millions = results / 1e6
    print(f"database: {whole / mb:,.0f} MB, {whole / mb / millions:,.0f} MB per million results")
    print(f"  {'table':32} {'rows':>11} {'heap MB':>9} {'index MB':>9} {'TOAST MB':>9}")
    for name, rows, heap, indexes, toast in tables:
        sizes = " ".join(f"{size / mb:>9,.0f}" for size in (heap, indexes, toast))
        print(f"  {name:32} {rows:>11,} {sizes}")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) FROM "
            "pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname IN "
            "('benchmarks_result', 'benchmarks_seriesstatistics', 'benchmarks_series', "
            "'benchmarks_run') ORDER BY 2 DESC"
        )
        print("  indexes: " + "; ".join(f"{name} {size / mb:,.0f} MB" for name, size in cursor))


def in_process(
    cluster, type_names: list[str], run_ids: list[int], question: str, keys: list[str]
) -> dict[str, list]:
    """{page: [(ms, queries), ...]} through Django's test client, PostgreSQL just restarted."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.models import Run
    from benchmarks.selectors.pages.catalogue import RUNS_PER_PAGE

    connection.close()
    cluster.restart()
    client = Client()
    figures: dict[str, list] = collections.defaultdict(list)
    # As a gunicorn worker does before its first request (gunicorn.conf.py): the process's own
    # first-request costs are not any one type's. The type it opens is not measured.
    from django.core.wsgi import get_wsgi_application

    from dashboard.warmup import warm_up

    warmed = {url for url, _status in warm_up(get_wsgi_application())}
    type_names = [name for name in type_names if f"/instance-types/{name}/" not in warmed]
    # And as a worker keeps its collector (gunicorn.conf.py): what the process holds by now
    # (here the load's leftovers too) out of its way, its garbage taken between requests.
    gc.collect()
    gc.freeze()

    def ask(label: str, path: str) -> None:
        gc.collect()
        with CaptureQueriesContext(connection) as captured:
            began = time.perf_counter()
            response = client.get(path)
            elapsed = (time.perf_counter() - began) * 1000
        assert response.status_code == 200, (path, response.status_code)
        figures[label].append((elapsed, len(captured)))

    for _ in range(3):
        ask("/healthz (baseline)", "/healthz")
    for name in type_names:
        ask("/instance-types/NAME/ (cold)", f"/instance-types/{name}/")
    for name in type_names:
        ask("/api/v1/instance-types/NAME/", f"/api/v1/instance-types/{name}/")
    for day in range(3):
        at = ASKED_FROM + datetime.timedelta(days=100 + day)
        ask("/ (every type charted)", f"/?{question}&families=&at={at}")
    for day in range(3):
        at = ASKED_FROM + datetime.timedelta(days=110 + day)
        ask("/ (its default question)", f"/?at={at}")
    for start in range(0, 9, 3):
        ask("/compare/ (3 types)", f"/compare/?types={','.join(type_names[start : start + 3])}")
    for _ in range(3):
        ask("/compare/ (issue 56's 3 types)", f"/compare/?types={COMPARED}")
    for key in keys[:3]:
        ask("/benchmarks/", "/benchmarks/")
        ask("/benchmarks/KEY/", f"/benchmarks/{key}/")
    for run_id in run_ids[:3]:
        ask("/runs/", "/runs/")
        ask("/runs/ID/", f"/runs/{run_id}/")
    pages = -(-Run.objects.count() // RUNS_PER_PAGE)
    for page in (pages // 3, 2 * pages // 3, pages):
        ask("/runs/?page=N (far in)", f"/runs/?page={max(page, 1)}")
    for name in LISTS:
        for _ in range(3):
            ask(f"/api/v1/{name}/", f"/api/v1/{name}/")
    return figures


def served(
    cluster, server, asked: list[str], questions: int, loads: int, offset: int
) -> dict[str, list[float]]:
    """{what: latencies} from gunicorn: price-performance cold (the first of `asked` on
    days nobody asked, then each of `asked` in turn), and list pages."""
    from django.db import connection

    connection.close()
    cluster.restart()
    server.restart()
    latencies: dict[str, list[float]] = {}
    series = {
        "price-performance (cold)": [asked[0]] * questions,
        "price-performance (cold statistics)": [
            asked[index % len(asked)] for index in range(questions)
        ],
    }
    for number, (label, question_strings) in enumerate(series.items()):
        cold = []
        for index, question in enumerate(question_strings):
            day = ASKED_FROM + datetime.timedelta(days=offset + number * questions + index)
            path = f"/api/v1/price-performance/?{question}&at={day}"
            ms, status, _ = common.timed_get(server.url + path)
            assert status == 200, (path, status, _body(server.url + path))
            cold.append(ms)
        slowest = max(range(len(cold)), key=cold.__getitem__)
        print(
            f"  {label}: the first answer {cold[0]:.1f} ms; the slowest, "
            f"{cold[slowest]:.1f} ms, was answer {slowest + 1} of {len(cold)}; "
            f"{sum(ms >= COLD_TARGET_MS for ms in cold)} took {COLD_TARGET_MS} ms or more"
        )
        latencies[label] = cold
    for name in LISTS:
        count = json.loads(_body(f"{server.url}/api/v1/{name}/?limit=1"))["count"]
        pages = []
        for index in range(loads):
            offset_in_list = count * index // loads
            path = f"/api/v1/{name}/?limit=50&offset={offset_in_list}"
            ms, status, _ = common.timed_get(server.url + path)
            assert status == 200, (path, status)
            pages.append(ms)
        print(f"  /api/v1/{name}/ lists {count:,} rows")
        latencies[f"/api/v1/{name}/ served"] = pages
    return latencies


def _body(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


MARKS = "performance.getEntriesByType('mark').map(m => [m.name, m.startTime])"


def first_charts(server, question: str, loads: int, offset: int) -> tuple[list[float], list[float]]:
    """Milliseconds from navigation to the first chart, and to every chart, per load."""
    from playwright.sync_api import sync_playwright

    first, every = [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        for index in range(loads):
            day = ASKED_FROM + datetime.timedelta(days=offset + index)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.goto(f"{server.url}/?{question}&families=&at={day}")
            page.wait_for_selector("body[data-charts-ready=true]", timeout=60_000)
            marks = dict(page.evaluate(MARKS))
            assert not errors, errors
            first.append(marks["pricebench:first-chart"])
            every.append(marks["pricebench:charts-ready"])
            page.close()
        browser.close()
    return first, every


def show(figures: dict[str, list]) -> dict[str, float]:
    """Print each page's time and queries; return their median milliseconds."""
    medians = {}
    print(f"  {'in process (server time)':40} {'median ms':>10} {'max ms':>8} {'queries':>8}")
    for label, rows in figures.items():
        times = [ms for ms, _ in rows]
        medians[label] = statistics.median(times)
        print(
            f"  {label:40} {medians[label]:>10.1f} {max(times):>8.1f} "
            f"{max(queries for _, queries in rows):>8}"
        )
    return medians


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=10_000_000, help="results at the end")
    parser.add_argument(
        "--first", type=int, default=1_000_000, help="results of the baseline measured first"
    )
    parser.add_argument(
        "--loads", type=int, default=30, choices=range(3, 31), metavar="3-30",
        help="loads of each page in the browser",
    )  # fmt: skip
    parser.add_argument(
        "--questions", type=int, default=200, choices=range(30, 1001), metavar="30-1000",
        help="cold questions asked of the API at each size",
    )  # fmt: skip
    parser.add_argument(
        "--breadth", choices=("demo", "synthetic"), default="demo",
        help="demo: the full demo's types, benchmarks and runs, replicated (bench/breadth_demo.py);"
        " synthetic: every AWS type, ten benchmarks x 20 parameter sets, synthetic values",
    )  # fmt: skip
    parser.add_argument(
        "--demo-database", type=Path, default=common.ROOT / "var" / "pricebench.sqlite3",
        help="the loaded full demo (SQLite, read only) the demo breadth copies",
    )  # fmt: skip
    parser.add_argument(
        "--seed", type=int, default=56, help="the demo breadth's shuffle and values"
    )
    parser.add_argument(
        "--keep", type=Path, metavar="DIR",
        help="build the database in DIR (new) and leave it there, stopped, to be started again",
    )  # fmt: skip
    parser.add_argument(
        "--again", type=Path, metavar="DIR",
        help="measure again, without loading, the database an earlier --keep DIR left (the"
        " demo breadth, the same --demo-database and --seed): one size, the results it holds",
    )  # fmt: skip
    parser.add_argument("--port", type=int, help="PostgreSQL's port (default: a free one)")
    args = parser.parse_args()
    if args.again is not None and (args.keep is not None or args.breadth != "demo"):
        parser.error("--again DIR: with the demo breadth only, and not with --keep")
    if args.again is not None and not (args.again / "pg").is_dir():
        parser.error(f"--again {args.again}: no database kept there (bench/ten_million.py --keep)")
    if args.breadth == "demo" and not args.demo_database.is_file():
        parser.error(f"--demo-database {args.demo_database}: no such file (load it with make run)")
    if args.keep is not None and args.keep.exists():
        parser.error(f"--keep {args.keep}: exists already (a new folder is made)")
    common.ensure_debian(("chromium", "chromium"))
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,testserver"
    os.environ["LOG_LEVEL"] = "WARNING"
    if args.breadth == "demo":
        breadth = DemoBreadth(args.demo_database, args.seed, args.questions)
    else:
        breadth = SyntheticBreadth()

    kept = args.keep or args.again
    with common.postgres(keep=kept, port=args.port, again=args.again is not None) as cluster:
        common.setup_django(cluster.url)
        from benchmarks.models import InstanceType, Result, Run

        started = time.monotonic()
        if args.again is None:
            breadth.prepare()
            sizes = (args.first, args.results)
        else:
            breadth.learn()
            sizes = (Result.objects.count(),)
        type_ids, asked = breadth.type_ids, breadth.asked
        question = asked[0]
        print(f"{breadth.describe()}; prepared in {time.monotonic() - started:.0f} s")
        names = dict(InstanceType.objects.values_list("pk", "name"))
        done_runs = 0
        medians: dict[int, dict[str, float]] = {}
        # Decided once, before gunicorn collects the static files the charts need.
        charts = (common.ROOT / "node_modules" / "chart.js" / "dist").is_dir()
        with common.gunicorn(cluster.url) as server:
            for size, total in enumerate(sizes):
                if args.again is None:
                    done_runs = load(breadth, total, done_runs)
                if args.again is None and size == len(sizes) - 1:
                    # What the breadth staged is not the application's: gone before the
                    # last size is measured (and from a kept database).
                    breadth.drop_staging()
                database_size(total)
                # Types nobody opened yet: a different slice of the fleet at each size.
                opened = [names[pk] for pk in type_ids[size * 97 :: 53][:10]]
                runs = list(Run.objects.order_by("?").values_list("pk", flat=True)[:3])
                speed = common.host_speed()
                here = show(in_process(cluster, opened, runs, question, breadth.benchmark_keys))
                answers = served(
                    cluster,
                    server,
                    asked,
                    args.questions,
                    args.loads,
                    offset=API_DAYS + size * 2 * args.questions,
                )
                for label, latencies in answers.items():
                    here[label] = statistics.median(latencies)
                    print(f"  {label:40} {common.summary(latencies)}")
                after = common.host_speed()
                here[HOST_SPEED] = (speed + after) / 2
                print(
                    f"  {HOST_SPEED}: {speed:.2f} ms before the pages, {after:.2f} after the"
                    " API (common.host_speed: lower is a quicker host)"
                )
                if not charts:
                    print("  comparison page in Chromium: skipped (no node_modules/chart.js)")
                    medians[total] = here
                    continue
                loads = max(3, args.loads // 3)
                first, every = first_charts(server, question, loads, offset=60 + size * 10)
                here["first chart"] = statistics.median(first)
                print(
                    f"  comparison page in Chromium ({len(type_ids):,} types charted): first chart"
                    f" median {statistics.median(first):.0f} ms, max {max(first):.0f} ms; every"
                    f" chart median {statistics.median(every):.0f} ms, max {max(every):.0f} ms"
                )
                medians[total] = here
    if len(sizes) == 1:
        return
    small, large = sizes
    print(f"\nratios, median at {large:,} over median at {small:,} results (same run)")
    for label in medians[large]:
        ratio = medians[large][label] / max(medians[small][label], 0.001)
        print(f"  {label:40} {ratio:6.2f}")


if __name__ == "__main__":
    main()
