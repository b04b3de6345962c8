"""How the comparison page does at real size: 300 instance types, 1,000,000 results.

    .venv/bin/python bench/page.py [--types 300] [--results 1000000] [--loads 10]

Builds a throwaway PostgreSQL database (bench/common.py), then measures the page that
charts every type (`/?benchmark=bench:work&region=ap-northeast-1&families=`):

- in this process, through Django's test client: SQL queries and server time per request;
- served by gunicorn (2 workers) in Debian's headless Chromium, for `--loads` loads, each of
  a question nobody asked yet (a distinct `at` day, so no cached answer helps): HTML bytes,
  the time from navigation to the first chart on screen (the `pricebench:first-chart`
  performance mark, which static/dashboard/comparison.js sets once the browser has painted
  the first charts) and to every chart drawn (`pricebench:charts-ready`).

Targets (issue #8): at most 10 queries, first chart in under a second.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common  # noqa: E402 (the bench folder is not a package)

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def page_url(day: datetime.date) -> str:
    return f"/?benchmark={common.BENCHMARK}&region=ap-northeast-1&families=&at={day.isoformat()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--types", type=int, default=300)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--loads", type=int, default=10)
    args = parser.parse_args()
    common.ensure_debian(("chromium", "chromium"))
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,testserver"

    with common.postgres() as cluster:
        common.setup_django(cluster.url)
        names = common.type_names(args.types)
        common.create_fleet(names)
        started = time.monotonic()
        added = common.add_results(names, args.results // args.types)
        print(
            f"{added:,} results for {args.types} types loaded in {time.monotonic() - started:.0f} s"
        )

        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client()
        server_ms, queries = [], []
        start = datetime.date(2025, 6, 1)
        for index in range(args.loads):
            day = start + datetime.timedelta(days=index)
            with CaptureQueriesContext(connection) as captured:
                began = time.perf_counter()
                response = client.get(page_url(day))
                server_ms.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200, response.status_code
            queries.append(len(captured))
        rows = response.content.count(b"<tr data-instance-type=")
        print(
            f"in process: {max(queries)} SQL queries, server time median "
            f"{statistics.median(server_ms):.0f} ms, max {max(server_ms):.0f} ms, "
            f"{len(response.content) / 1000:.0f} kB of HTML, {rows} table rows"
        )

        from playwright.sync_api import sync_playwright

        first_chart, all_charts = [], []
        with common.gunicorn(cluster.url) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            for index in range(args.loads):
                day = start + datetime.timedelta(days=100 + index)
                page = browser.new_page()
                errors = []
                page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
                page.goto(server.url + page_url(day))
                page.wait_for_selector("body[data-charts-ready=true]", timeout=60_000)
                # Milliseconds since the navigation started, as the browser's own clock reads.
                marks = dict(
                    page.evaluate(
                        "performance.getEntriesByType('mark').map(m => [m.name, m.startTime])"
                    )
                )
                first_chart.append(marks["pricebench:first-chart"])
                all_charts.append(marks["pricebench:charts-ready"])
                assert not errors, errors
                page.close()
            browser.close()
        print(
            f"in Chromium: first chart on screen median {statistics.median(first_chart):.0f} ms, "
            f"max {max(first_chart):.0f} ms; every chart drawn median "
            f"{statistics.median(all_charts):.0f} ms, max {max(all_charts):.0f} ms "
            f"(n={len(first_chart)}, from the navigation's start)"
        )
        print(
            f"targets: queries {max(queries)} <= 10: {max(queries) <= 10}; "
            f"first chart {max(first_chart):.0f} ms < 1000: {max(first_chart) < 1000}"
        )


if __name__ == "__main__":
    main()
