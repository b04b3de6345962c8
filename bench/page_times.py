"""Server time and queries of some pages on a loaded database, through Django's test client.

    DATABASE_URL=sqlite:////path/to/demo.sqlite3 .venv/bin/python bench/page_times.py \
        [--loads 3] /benchmarks/ /instance-types/c7g.large/ ...

Each page is asked `--loads` times in one process: the first answer (templates and the
benchmark lookup not yet cached in the process) and the best of the others are printed with
their query counts. The database is only read. As the baseline measured in the same run,
`/healthz` (no query) gives the cost of the request machinery itself.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--loads", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="localhost")
    print(f"{'page':50} {'first s':>8} {'best s':>8} {'queries':>8}")
    for path in ["/healthz", *args.paths]:
        times, counts = [], []
        for _ in range(max(2, args.loads)):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                answer = client.get(path)
                times.append(time.perf_counter() - start)
            assert answer.status_code == 200, (path, answer.status_code)
            counts.append(len(queries))
        print(f"{path:50} {times[0]:8.3f} {min(times[1:]):8.3f} {counts[0]:4d}/{min(counts[1:])}")


if __name__ == "__main__":
    main()
