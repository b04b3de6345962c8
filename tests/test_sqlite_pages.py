"""`make run`'s embedded default, SQLite, with the first part of the demo: every page a
visitor opens first answers 200. The suite runs on PostgreSQL; a lookup SQLite lacks (JSON
containment) once made the instance-type page a 500 there, and only here would it show."""

import subprocess
import sys

from tests.sqlite_demo import ROOT, load

PAGES = (
    "/",
    "/instance-types/",
    "/instance-types/?profile=crypto&measured=on",
    "/instance-types/c7g.large/",
    "/instance-types/t2.micro/",
    "/compare/?types=c7g.xlarge,c7a.xlarge,c7i.xlarge&baseline=c7a.xlarge",
    "/benchmarks/",
    "/benchmarks/openssl:aes-256-cbc/",
    "/runs/",
    "/upload/",
    "/api/v1/price-performance/?benchmark=passmark:cpu-mark&region=us-east-1",
    "/api/v1/price-performance/?profile=crypto&region=us-east-1",
    "/api/v1/instance-types/c7g.large/",
)

VISIT = """
import django, sys
django.setup()
from django.test import Client
client = Client(HTTP_HOST="localhost")
for page in sys.argv[1:]:
    print(client.get(page).status_code, page)
"""


def test_the_pages_a_visitor_opens_first_answer_on_sqlite(tmp_path):
    env = load(tmp_path)
    visited = subprocess.run(
        [sys.executable, "-c", VISIT, *PAGES], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    assert visited.returncode == 0, visited.stderr[-3000:]
    statuses = dict(line.split(" ", 1)[::-1] for line in visited.stdout.strip().splitlines())
    assert statuses == dict.fromkeys(PAGES, "200"), visited.stderr[-3000:]
