"""Server time and queries of some pages on a loaded database, through Django's test client.

    DATABASE_URL=sqlite:////path/to/demo.sqlite3 .venv/bin/python bench/page_times.py \
        [--loads 3] [--warm-up] /benchmarks/ /instance-types/c7g.large/ ...

Each page is asked `--loads` times in one process: the first answer (templates and the
benchmark lookup not yet cached in the process) and the best of the others are printed with
their query counts, the first answer's CPU time in this process (the server's own time,
apart from the database's and from other work on a shared machine) and its SQL time (its
queries as Django timed them, waiting for the database included). The database is only
read. As the baseline measured in the same run, `/healthz` (no query) gives the cost of the
request machinery itself. With `--warm-up` the process first warms up as a gunicorn worker
does (dashboard/warmup.py, its collector set as gunicorn.conf.py sets it), so that each
page's first answer is that page's own cost ("cold": a type nobody opened in the process);
the last line gives the median first answer of the pages asked (not `/healthz`).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--warm-up", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    if args.warm_up:
        import runpy

        from django.core.wsgi import get_wsgi_application

        from dashboard.warmup import warm_up

        # gunicorn's settings file sets the collector's young generation as it is read.
        runpy.run_path(str(ROOT / "gunicorn.conf.py"))

        warm_up(get_wsgi_application())
        gc.collect()
        gc.freeze()
    client = Client(HTTP_HOST="localhost")
    print(f"{'page':50} {'first ms':>8} {'cpu ms':>7} {'sql ms':>7} {'best ms':>8} {'queries':>8}")
    firsts, cpus, sqls, counted = [], [], [], []
    for path in ["/healthz", *args.paths]:
        times, counts = [], []
        for load in range(max(2, args.loads)):
            gc.collect()
            with CaptureQueriesContext(connection) as queries:
                began = time.process_time()
                start = time.perf_counter()
                answer = client.get(path)
                times.append(time.perf_counter() - start)
                if load == 0:
                    cpu = time.process_time() - began
                    sql = sum(float(query["time"]) for query in queries.captured_queries)
            assert answer.status_code == 200, (path, answer.status_code)
            counts.append(len(queries))
        if path != "/healthz":
            firsts.append(times[0])
            cpus.append(cpu)
            sqls.append(sql)
            counted.append(counts[0])
        print(
            f"{path:50} {times[0] * 1000:8.1f} {cpu * 1000:7.1f} {sql * 1000:7.1f} "
            f"{min(times[1:]) * 1000:8.1f} {counts[0]:4d}/{min(counts[1:])}"
        )
    print(
        f"{'median first answer of ' + str(len(firsts)) + ' pages':50} "
        f"{statistics.median(firsts) * 1000:8.1f} {statistics.median(cpus) * 1000:7.1f} "
        f"{statistics.median(sqls) * 1000:7.1f} {'':8} {max(counted):4d} (most)"
    )
    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
