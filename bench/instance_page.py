"""How long the instance-type page takes on a loaded database: its ranks (each of the type's
series counted among its peers over the `statistics_peers` index) and the whole page, with,
as the baseline measured in the same run, the ranks counted as they were before that index
(each peer found through its series, with an index on the series' benchmark and
parameters).

    DATABASE_URL=sqlite:////path/to/demo.sqlite3 .venv/bin/python bench/instance_page.py \
        [--types t4g.nano,c7g.large,m5.large] [--loads 3]

The database is a SQLite file holding the full demo (`make run` builds one under var/): it is
copied to a temporary file for the baseline (its index swapped), so the file given is only
read. For each type: the rank query, best of `--loads`, then the whole page through Django's
test client (server time, best of `--loads`, and its queries).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _connect(database: Path) -> None:
    from django.db import connections

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = str(database)


def _best(work, loads: int) -> float:
    times = []
    for _ in range(loads):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def ranks_before(instance_type) -> list:
    """The rank query as it was: three correlated counts of the peers, found through their
    series (the baseline)."""
    from django.db.models import Count, F, OuterRef, Subquery
    from django.db.models.functions import Coalesce

    from benchmarks.models import SeriesStatistics

    peers = SeriesStatistics.objects.filter(
        measured_in="",
        series__benchmark=OuterRef("series__benchmark"),
        series__params_key=OuterRef("series__params_key"),
    ).order_by()

    def count(rows):
        counted = rows.annotate(group=F("series__benchmark")).values("group")
        return Coalesce(Subquery(counted.annotate(n=Count("pk")).values("n")[:1]), 0)

    return list(
        SeriesStatistics.objects.filter(measured_in="", series__instance_type=instance_type)
        .annotate(
            above=count(peers.filter(median__gt=OuterRef("median"))),
            below=count(peers.filter(median__lt=OuterRef("median"))),
            out_of=count(peers),
        )
        .values_list("series_id", "above", "below", "out_of")
    )


def measure_before(database: Path, types: list[str], loads: int) -> dict[str, float]:
    from benchmarks.models import InstanceType

    _connect(database)
    return {
        name: _best(lambda name=name: ranks_before(InstanceType.objects.get(name=name)), loads)
        for name in types
    }


def measure(database: Path, types: list[str], loads: int) -> dict[str, tuple[float, float, int]]:
    """Per type: the best time of `ranks_of`, of the whole page, and the page's queries."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.models import InstanceType
    from benchmarks.selectors.pages import instance_types

    _connect(database)
    client = Client(HTTP_HOST="localhost")
    found = {}
    for name in types:
        machine = InstanceType.objects.get(name=name)
        ranks = _best(lambda machine=machine: instance_types.ranks_of(machine), loads)
        page = _best(lambda name=name: client.get(f"/instance-types/{name}/"), loads)
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(f"/instance-types/{name}/")
        assert answer.status_code == 200, answer.status_code
        found[name] = (ranks, page, len(queries))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--types", default="t4g.nano,c7g.large,m5.large")
    parser.add_argument("--loads", type=int, default=3)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("sqlite:///"):
        raise SystemExit("DATABASE_URL must name the SQLite file of a loaded demo")
    source = Path(url.removeprefix("sqlite://"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    types = args.types.split(",")
    with tempfile.TemporaryDirectory() as folder:
        baseline = Path(folder) / "baseline.sqlite3"
        shutil.copyfile(source, baseline)
        with sqlite3.connect(baseline) as connection:
            connection.execute("DROP INDEX IF EXISTS statistics_peers")
            connection.execute(
                "CREATE INDEX series_peers ON benchmarks_series (benchmark_id, params_key)"
            )
        before = measure_before(baseline, types, args.loads)
        now = measure(source, types, args.loads)
    print(f"best of {args.loads}, seconds: ranks now / ranks before / ratio; whole page, queries")
    for name in types:
        ranks, page, queries = now[name]
        ratio = before[name] / ranks
        print(
            f"  {name:14} {ranks:7.3f} {before[name]:7.3f} {ratio:6.1f}x faster"
            f"   page {page:6.3f} s, {queries} queries"
        )


if __name__ == "__main__":
    main()
