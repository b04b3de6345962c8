"""Questions of any size on `make run`'s embedded SQLite, which refuses an expression more
than 1,000 deep (`a OR b OR ...`) and compares no NaN: every family across the clouds, a
thousand types named `vendor:name`, numbers out of range. The suite runs on PostgreSQL, which
takes all of these; only here would SQLite's refusals show."""

import itertools
import json
import string
import subprocess
import sys

from tests.sqlite_demo import ROOT, load

ASK = """
import django, json, sys
django.setup()
from django.test import Client
from benchmarks.models import InstanceType
client = Client(HTTP_HOST="localhost", raise_request_exception=False)
names = ",".join(f"{vendor}:{name}" for vendor, name in
                 InstanceType.objects.order_by("name").values_list("vendor", "name"))
questions = json.loads(sys.argv[1])
questions.append(["/api/v1/price-performance/", {**questions[0][1], "families": "",
                  "instance_types": names[:10_000].rsplit(",", 1)[0]}])
for path, query in questions:
    response = client.get(path, query)
    body = response.content.decode()
    json_rows = response.status_code == 200 and response["Content-Type"] == "application/json"
    rows = len(json.loads(body)["results"]) if json_rows else None
    print(json.dumps([response.status_code, body[:300], rows]))
"""
QUESTION = {"benchmark": "passmark:cpu-mark", "region": "us-east-1"}
# As many family names as `families=` holds (2,000 characters): 666, each an EC2 family and
# a Hetzner-like one to SQL, as "All" across four clouds asked 321 real ones. t2 first: a list
# of which no family has a single type is refused as such (issue 54), and this one asks a
# real question of its size.
EVERY_FAMILY = ",".join(["t2", *map("".join, itertools.product(string.ascii_lowercase, repeat=2))])
EVERY_FAMILY = EVERY_FAMILY[:2_000].rsplit(",", 1)[0]


def test_questions_of_any_size_and_numbers_out_of_range_on_sqlite(tmp_path):
    env = load(tmp_path)
    questions = [
        ["/api/v1/price-performance/", {**QUESTION, "families": EVERY_FAMILY}],
        ["/", {"benchmark": "passmark:cpu-mark", "families": EVERY_FAMILY}],
        ["/api/v1/price-performance/", {**QUESTION, "benchmark": "openssl:aes-256-cbc",
                                        "block_size": "16384", "processes": "NaN"}],
        ["/instance-types/", {"benchmark": "openssl:aes-256-cbc", "processes": "1e309",
                              "format": "csv"}],
    ]  # fmt: skip
    asked = subprocess.run(
        [sys.executable, "-c", ASK, json.dumps(questions)], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert asked.returncode == 0, asked.stderr[-3000:]
    answers = [json.loads(line) for line in asked.stdout.strip().splitlines()]
    statuses = [status for status, _, _ in answers]
    assert statuses == [200, 200, 400, 400, 200], (answers, asked.stderr[-3000:])
    assert "processes=NaN is out of range" in answers[2][1]
    assert "processes=1e309 is out of range" in answers[3][1]
    # The types named vendor:name are ranked, as the same bare names are.
    assert answers[4][2] > 10
