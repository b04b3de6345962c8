"""Uploads through the API are ingested by a real Celery worker on Redis and PostgreSQL."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from django.db import connection
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Result, Run
from tests.conftest import SHARED_DATA
from tests.worker import Worker, wait_until

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]

S1_DIR = SHARED_DATA / "seed-studies" / "fargate-openssl"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def ec2_types():
    for name in ("t2.nano", "m4.large", "c4.xlarge", "c5.large", "c7g.large", "c7a.large"):
        InstanceType.objects.get_or_create(name=name)


@pytest.fixture
def uploader(django_user_model):
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def upload(client, path: Path, **fields):
    with path.open("rb") as handle:
        return client.post("/api/v1/runs/", {"file": handle, **fields}, format="multipart")


def upload_wrk_tables(client, tmp_path: Path, count: int, names: tuple[str, ...]) -> list[int]:
    """`count` table uploads, each one wrk:http result per type of `names` (the k-th type's
    value 1000 * (k + 1) plus the upload's number), accepted; their run ids."""
    ids = []
    for number in range(count):
        table = tmp_path / f"results-{number}.csv"
        lines = [f"wrk:http,{name},us-east-1,{1000 * (k + 1) + number},req/s"
                 for k, name in enumerate(names)]  # fmt: skip
        table.write_text("benchmark,instance_type,region,value,unit\n" + "\n".join(lines) + "\n")
        response = upload(client, table)
        assert response.status_code == 202, response.content
        ids.append(response.json()["id"])
    return ids


def parse_output(path: Path) -> dict:
    printed = subprocess.run(
        [sys.executable, "manage.py", "parse_output", str(path)],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return json.loads(printed)


def test_study_s1_uploads_equal_parse_output_and_store_once(uploader, celery_worker_process):
    paths = sorted(S1_DIR.glob("*.txt"))
    assert len(paths) == 14
    run_ids = {}
    for path in paths:
        response = upload(
            uploader, path, instance_type=path.name.split("__")[0], region="us-east-1"
        )
        assert response.status_code == 202, response.content
        body = response.json()
        assert body["status_url"].endswith(f"/api/v1/runs/{body['id']}/")
        run_ids[path] = body["id"]

    wait_until(
        lambda: Run.objects.filter(pk__in=run_ids.values(), status="done").count() == 14,
        timeout=90,
        message="14 runs done",
    )
    for path, run_id in run_ids.items():
        detail = uploader.get(f"/api/v1/runs/{run_id}/").json()
        expected = parse_output(path)
        assert detail["cpu_model"] == expected["cpu_model"]
        assert detail["tool_version"] == expected["tool_version"]
        stored = [(r["benchmark"], r["params"], r["value"], r["unit"]) for r in detail["results"]]
        printed = [
            (r["benchmark"], r["params"], r["value"], r["unit"]) for r in expected["results"]
        ]
        assert stored == printed

    results_before = Result.objects.count()
    for path in paths:
        again = upload(uploader, path, instance_type=path.name.split("__")[0], region="us-east-1")
        assert again.status_code == 200
        assert again.json()["id"] == run_ids[path]
    assert Run.objects.count() == 14
    assert Result.objects.count() == results_before


def test_a_truncated_openssl_file_fails_naming_the_line(uploader, celery_worker_process, tmp_path):
    text = (S1_DIR / "t2.nano__e5-2676-v3-2-40ghz.txt").read_text()
    cut = text[: text.rindex("aes-128-gcm") + 40]
    truncated = tmp_path / "truncated.txt"
    truncated.write_text(cut)
    response = upload(uploader, truncated, instance_type="t2.nano", region="us-east-1")
    assert response.status_code == 202
    run_id = response.json()["id"]
    wait_until(
        lambda: Run.objects.get(pk=run_id).status != "pending", timeout=60, message="run parsed"
    )
    run = Run.objects.get(pk=run_id)
    assert run.status == "failed"
    assert f"line {cut.count(chr(10)) + 1}" in run.error
    assert run.results.count() == 0


def test_the_worker_keeps_its_database_connection_between_tasks(
    uploader, celery_worker_process, tmp_path
):
    ids = upload_wrk_tables(uploader, tmp_path, 5, ("c7g.large",))
    wait_until(
        lambda: Run.objects.filter(pk__in=ids, status="done").count() == 5,
        timeout=60,
        message="5 runs done",
    )
    first_done = min(Run.objects.filter(pk__in=ids).values_list("finished_at", flat=True))
    time.sleep(1)  # the last task ends a moment after its run is marked done
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT backend_start FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        others = [row[0] for row in cursor.fetchall()]
    # One connection, the worker's, opened before its first task ended and kept since: not
    # a new PostgreSQL backend for each task.
    assert len(others) == 1, others
    assert others[0] < first_done


def test_uploads_need_a_token():
    with (S1_DIR / "t2.nano__e5-2676-v3-2-40ghz.txt").open("rb") as handle:
        response = APIClient().post(
            "/api/v1/runs/", {"file": handle, "instance_type": "t2.nano", "region": "us-east-1"}
        )
    assert response.status_code == 401
    assert Run.objects.count() == 0


def test_a_worker_killed_mid_stream_loses_nothing_and_stores_once(
    uploader, celery_broker, tmp_path
):
    ids = upload_wrk_tables(uploader, tmp_path, 200, ("c7g.large", "c7a.large"))
    assert Run.objects.filter(pk__in=ids, status="pending").count() == 200

    broker = redis.Redis.from_url(celery_broker)
    worker = Worker(celery_broker, log=tmp_path / "first-worker.log").start()
    try:
        wait_until(
            lambda: Run.objects.filter(pk__in=ids, status="done").count() >= 20,
            timeout=90,
            interval=0.05,
            message="the worker to start ingesting",
        )
        # Kill it while it holds a delivery: between two tasks it may hold none.
        wait_until(
            lambda: held_deliveries(broker),
            timeout=30,
            interval=0.001,
            message="the worker to hold a delivery",
        )
        worker.kill()
        held = held_deliveries(broker)
        done_at_kill = Run.objects.filter(pk__in=ids, status="done").count()
        assert done_at_kill < 200, "the worker finished before it could be killed"
        assert held, "the worker acknowledged its delivery just before the kill; run again"
        worker.stop()
        worker = Worker(celery_broker, log=tmp_path / "second-worker.log").start()
        wait_until(
            lambda: Run.objects.filter(pk__in=ids, status="done").count() == 200,
            timeout=300,
            interval=0.5,
            message="all 200 runs done after the restart",
        )
        # The deliveries the killed worker held unacknowledged come again once their
        # visibility timeout (5 s here) has passed: on a fast machine the new worker may
        # have ingested every run before that (the sweep queues a pending run again).
        wait_until(
            lambda: held <= set(worker.received_task_ids()),
            timeout=60,
            interval=0.5,
            message="the held deliveries to come again",
        )
    finally:
        worker.stop()
    # Delivered again, and stored once.
    assert Run.objects.filter(parent__in=ids).count() == 400
    assert Result.objects.filter(run__parent__in=ids).count() == 400
    values = sorted(Result.objects.filter(run__parent__in=ids).values_list("value", flat=True))
    assert values == sorted([1000.0 + n for n in range(200)] + [2000.0 + n for n in range(200)])


def held_deliveries(broker) -> set[str]:
    """Task ids delivered to a worker and not yet acknowledged (kombu's `unacked` hash)."""
    return {json.loads(message)[0]["headers"]["id"] for message in broker.hvals("unacked")}
