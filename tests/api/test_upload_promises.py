"""What an upload promises: refused with a 4xx naming the problem and nothing stored, or
accepted and then done or failed with a reason, exactly once, whatever goes wrong between."""

import datetime
import io
import threading

import pytest
from django.db import OperationalError, connections
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks import parsers
from benchmarks.models import InstanceType, Result, Run
from benchmarks.services import runs as run_services
from tests.conftest import SHARED_DATA
from tests.worker import Worker, wait_until

S1_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"
TABLE_HEAD = b"benchmark,instance_type,region,value,unit\n"


@pytest.fixture
def client(django_user_model):
    InstanceType.objects.get_or_create(name="t2.nano")
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def post(client, content: bytes, name: str = "results.csv", **fields):
    upload = io.BytesIO(content)
    upload.name = name
    return client.post("/api/v1/runs/", {"file": upload, **fields}, format="multipart")


def refused(response, field: str) -> str:
    assert response.status_code in (400, 413), (response.status_code, response.content[:300])
    assert field in response.json(), response.json()
    assert Run.objects.count() == 0 and Result.objects.count() == 0
    return " ".join(response.json()[field])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("value", "words"),
    [("1e308", "is not a measurement"), ("nan", "finite"), ("inf", "finite")],
)
def test_values_no_machine_can_reach_are_refused_at_upload(client, value, words):
    table = TABLE_HEAD + f"wrk:http,t2.nano,us-east-1,{value},req/s\n".encode()
    assert words in refused(post(client, table), "file")


@pytest.mark.django_db
def test_json_nested_without_bound_is_refused_at_upload(client):
    deep = b"[" * 100_000 + b"]" * 100_000
    message = refused(post(client, deep, "results.json"), "file")
    assert "nested too deeply" in message or "could not recognise" in message
    explicit = post(client, deep, "results.json", format="json")
    assert "nested too deeply" in refused(explicit, "file")


def test_parse_refuses_deep_json_with_a_parse_error():
    with pytest.raises(parsers.ParseError, match="nested too deeply"):
        parsers.parse("[" * 100_000 + "]" * 100_000, format="json")


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["variant", "licence"])
def test_text_fields_longer_than_their_columns_are_refused(client, field):
    response = post(client, S1_FILE.read_bytes(), "s1.txt", instance_type="t2.nano",
                    region="us-east-1", **{field: "x" * 101})  # fmt: skip
    assert "at most 100" in refused(response, field)


@pytest.mark.django_db
def test_table_cells_longer_than_their_columns_are_refused(client):
    table = (
        b"benchmark,instance_type,region,value,unit,cpu_model\n"
        + b"wrk:http,t2.nano,us-east-1,5,req/s,"
        + b"C" * 300
        + b"\n"
    )
    assert "cpu_model" in refused(post(client, table), "file")


@pytest.mark.django_db
def test_a_measurement_dated_in_the_future_is_refused(client):
    table = (
        b"benchmark,instance_type,region,value,unit,measured_at\n"
        b"wrk:http,t2.nano,us-east-1,5,req/s,2099-01-01\n"
    )
    assert "still to come" in refused(post(client, table), "file")


@pytest.mark.django_db
def test_a_table_over_the_row_limit_is_refused_before_it_is_read(client, settings):
    settings.PRICEBENCH_MAX_RESULTS_PER_UPLOAD = 10
    table = TABLE_HEAD + b"wrk:http,t2.nano,us-east-1,5,req/s\n" * 20
    response = post(client, table)
    assert response.status_code == 413
    assert "at most 10" in " ".join(response.json()["file"])


@pytest.mark.django_db
def test_a_parser_that_crashes_fails_the_run_with_a_reason(monkeypatch):
    InstanceType.objects.get_or_create(name="t2.nano")
    run, _ = run_services.submit_run(
        content=S1_FILE.read_bytes(), instance_type_name="t2.nano", region_code="us-east-1"
    )

    def broken(text, **options):
        raise KeyError("a parser bug")

    monkeypatch.setattr(parsers.PARSERS["openssl"], "parse", broken)
    run = run_services.ingest_run(run_id=run.pk)
    assert run.status == Run.Status.FAILED
    assert "parser failed: KeyError" in run.error
    assert not run.results.exists()


@pytest.mark.django_db
def test_the_api_answers_503_with_retry_after_when_the_database_is_away(monkeypatch):
    from benchmarks.selectors.answer import lookups

    def away(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(lookups, "_read_benchmark_in_region", away)
    response = APIClient().get(
        "/api/v1/price-performance/", {"benchmark": "openssl:sha256", "region": "us-east-1"}
    )
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert "database is unavailable" in response.json()["detail"]


@pytest.mark.django_db
def test_the_sweep_gives_up_on_a_run_after_its_attempts(django_capture_on_commit_callbacks):
    InstanceType.objects.get_or_create(name="t2.nano")
    run, _ = run_services.submit_run(
        content=S1_FILE.read_bytes(), instance_type_name="t2.nano", region_code="us-east-1"
    )
    Run.objects.filter(pk=run.pk).update(
        queue_attempts=3, queued_at=datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
    )
    outcome = run_services.requeue_stale_runs(
        older_than=datetime.timedelta(seconds=60), max_attempts=3
    )
    assert outcome == {"queued": 0, "failed": 1, "lost": 0, "orphaned": 0}
    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and "3 attempts" in run.error


@pytest.mark.django_db(transaction=True)
def test_identical_uploads_at_the_same_moment_store_one_run(reference_data):
    InstanceType.objects.get_or_create(name="t2.nano")
    content = S1_FILE.read_bytes()
    answers, errors = [], []
    start = threading.Barrier(20)

    def send() -> None:
        try:
            start.wait()
            answers.append(
                run_services.submit_run(
                    content=content, instance_type_name="t2.nano", region_code="us-east-1"
                )
            )
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert Run.objects.count() == 1
    assert len({run.pk for run, _ in answers}) == 1
    assert sum(created for _, created in answers) == 1


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_an_upload_made_while_the_broker_is_away_is_queued_once_it_returns(
    reference_data, celery_broker, django_user_model
):
    from dashboard.celery import app
    from tests.conftest import _reset_broker_pools

    InstanceType.objects.get_or_create(name="t2.nano")
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    app.conf.update(broker_url="redis://127.0.0.1:9/0")  # nothing listens there
    _reset_broker_pools(app)
    try:
        response = post(client, S1_FILE.read_bytes(), "s1.txt", instance_type="t2.nano",
                        region="us-east-1")  # fmt: skip
    finally:
        app.conf.update(broker_url=celery_broker)
        _reset_broker_pools(app)
    assert response.status_code == 202
    run = Run.objects.get(pk=response.json()["id"])
    assert (run.status, run.queue_attempts, run.queued_at) == (Run.Status.PENDING, 1, None)
    # Once its upload's own attempt is over, the next sweep queues it, however short it waited.
    Run.objects.filter(pk=run.pk).update(
        created_at=run.created_at - run_services.NEVER_QUEUED_GRACE
    )
    worker = Worker(celery_broker).start()
    try:
        outcome = run_services.requeue_stale_runs(
            older_than=datetime.timedelta(hours=1), max_attempts=5
        )
        assert outcome["queued"] == 1
        wait_until(
            lambda: Run.objects.get(pk=run.pk).status == Run.Status.DONE,
            timeout=60,
            message="the swept run to be ingested",
        )
    finally:
        worker.stop()
    assert Result.objects.filter(run=run).count() == 10
