"""How long the instance-type page's ranks take on a loaded database, with the index that
finds a series' peers (`series_peers`) and, as the baseline measured in the same run,
without it.

    DATABASE_URL=sqlite:////path/to/demo.sqlite3 .venv/bin/python bench/instance_page.py \
        [--types t4g.nano,c7g.large,m5.large] [--loads 3]

The database is a SQLite file holding the full demo (`make run` builds one under var/): it is
copied to a temporary file and the index dropped there for the baseline, so the file given
is only read. For each type: the rank query of `selectors.instance_types.ranks_of` (the
slowest part of the page), best of `--loads`, and the whole page selector once.
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


def measure(database: Path, types: list[str], loads: int) -> dict[str, float]:
    """Best time of `ranks_of` per type, in seconds, on this SQLite file (a fresh process's
    Django would do; here the connection is switched in place)."""
    from django.db import connections

    from benchmarks.models import InstanceType
    from benchmarks.selectors import instance_types

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = str(database)
    best = {}
    for name in types:
        instance_type = InstanceType.objects.get(name=name)
        times = []
        for _ in range(loads):
            start = time.perf_counter()
            instance_types.ranks_of(instance_type)
            times.append(time.perf_counter() - start)
        best[name] = min(times)
    return best


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
            connection.execute("DROP INDEX IF EXISTS series_peers")
        without = measure(baseline, types, args.loads)
        indexed = measure(source, types, args.loads)
    print(f"ranks_of, best of {args.loads} (seconds): with the index / without / ratio")
    for name in types:
        ratio = without[name] / indexed[name]
        print(f"  {name:14} {indexed[name]:7.3f} {without[name]:7.3f}   {ratio:5.1f}x faster")


if __name__ == "__main__":
    main()
