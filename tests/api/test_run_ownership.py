"""Each upload token owns its runs: `GET runs/mine/` lists them, `POST runs/ID/withdraw/`
takes one back (kept on record, counted in no statistic or answer)."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api.models import UploadToken
from api.tokens import create_upload_token
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Price, Region, Result, Run, SeriesStatistics
from benchmarks.services import runs as run_services
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

NANO_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"
ANSWER = {
    "benchmark": "openssl:aes-128-gcm",
    "region": "us-east-1",
    "block_size": 8192,
    "processes": 1,
    "at": "2024-06-01",
}


def client_with(key: str | None = None) -> APIClient:
    client = APIClient()
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def tokens(django_user_model):
    """Two tokens of one user ("laptop", "ci") and one of another user: name -> (token, key)."""
    uploader = django_user_model.objects.create(username="uploader")
    stranger = django_user_model.objects.create(username="stranger")
    made = {
        "laptop": create_upload_token(user=uploader, name="laptop"),
        "ci": create_upload_token(user=uploader, name="ci"),
        "stranger": create_upload_token(user=stranger, name="elsewhere"),
    }
    return made


def upload(key: str, copy: int, on_commit) -> int:
    """Upload the t2.nano output (made distinct by `copy` trailing newlines) and ingest it."""
    content = io.BytesIO(NANO_FILE.read_bytes() + b"\n" * copy)
    content.name = "speed.txt"
    with on_commit(execute=True):
        response = client_with(key).post(
            "/api/v1/runs/",
            {"file": content, "instance_type": "t2.nano", "region": "us-east-1"},
            format="multipart",
        )
    assert response.status_code == 202, response.content
    return response.json()["id"]


@pytest.fixture
def uploaded(tokens, django_capture_on_commit_callbacks):
    """Runs by token: two by "laptop", one by "ci"; t2.nano priced in us-east-1."""
    nano, _ = InstanceType.objects.get_or_create(name="t2.nano")
    Price.objects.create(
        instance_type=nano,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="on_demand",
        usd_per_hour=Decimal("0.0058"),
        effective_from=datetime.date(2024, 1, 1),
        source="test",
    )
    runs = {
        "laptop": [upload(tokens["laptop"][1], copy, django_capture_on_commit_callbacks)
                   for copy in (0, 1)],
        "ci": [upload(tokens["ci"][1], 2, django_capture_on_commit_callbacks)],
    }  # fmt: skip
    assert set(Run.objects.values_list("status", flat=True)) == {"done"}
    return runs


def nano_runs_in_answer(**params) -> int | None:
    """How many runs the price-performance answer counts for t2.nano (None: not listed)."""
    response = APIClient().get("/api/v1/price-performance/", {**ANSWER, **params})
    assert response.status_code == 200, response.content
    body = response.json()
    rows = [row for row in body["results"] if row["instance_type"] == "t2.nano"]
    assert not any(row["instance_type"] == "t2.nano" for row in body.get("unpriced", []))
    return rows[0]["runs"] if rows else None


def check_is_clean() -> None:
    """`rebuild_stats --check`: raises (exit 1) when a kept figure disagrees."""
    printed = io.StringIO()
    call_command("rebuild_stats", "--check", stdout=printed)
    assert "differ" not in printed.getvalue()


def withdraw(key: str | None, run_id: int):
    return client_with(key).post(f"/api/v1/runs/{run_id}/withdraw/")


def test_a_run_records_the_token_that_uploaded_it(tokens, uploaded):
    laptop, ci = tokens["laptop"][0], tokens["ci"][0]
    assert {Run.objects.get(pk=pk).upload_token for pk in uploaded["laptop"]} == {laptop}
    run = Run.objects.get(pk=uploaded["ci"][0])
    assert run.upload_token == ci and run.uploaded_by == ci.user


def test_mine_lists_only_the_tokens_own_runs(tokens, uploaded):
    def mine(key):
        response = client_with(key).get("/api/v1/runs/mine/")
        assert response.status_code == 200, response.content
        return sorted(run["id"] for run in response.json()["results"])

    assert mine(tokens["laptop"][1]) == sorted(uploaded["laptop"])
    # Another token of the same user owns other runs.
    assert mine(tokens["ci"][1]) == uploaded["ci"]
    assert mine(tokens["stranger"][1]) == []
    # The list's filters apply.
    response = client_with(tokens["laptop"][1]).get("/api/v1/runs/mine/", {"status": "failed"})
    assert response.json()["results"] == []


def test_mine_needs_an_upload_token(tokens, uploaded, django_user_model):
    assert client_with().get("/api/v1/runs/mine/").status_code == 401
    staff = django_user_model.objects.create(username="operator", is_staff=True)
    session = APIClient()
    session.force_login(staff)
    response = session.get("/api/v1/runs/mine/")
    assert response.status_code == 403
    assert "upload token" in response.json()["detail"]


def test_mine_takes_the_same_queries_for_one_run_as_for_a_hundred(tokens):
    laptop = tokens["laptop"][0]
    client = client_with(tokens["laptop"][1])
    nano, _ = InstanceType.objects.get_or_create(name="t2.nano")
    region = Region.objects.get(code="us-east-1")
    counts = []
    for added in (1, 99):
        Run.objects.bulk_create(
            Run(instance_type=nano, region=region, upload_token=laptop, status="done")
            for _ in range(added)
        )
        client.get("/api/v1/runs/mine/")  # the token's last use is written once a minute
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/api/v1/runs/mine/")
        assert response.status_code == 200
        counts.append(len(queries))
    assert response.json()["count"] == 100
    assert counts[0] == counts[1], counts


def test_the_owner_withdraws_a_run_and_it_leaves_every_statistic_and_answer(tokens, uploaded):
    token, key = tokens["laptop"]
    assert nano_runs_in_answer() == 3
    run_id = uploaded["laptop"][0]
    results = Result.objects.filter(run_id=run_id).count()
    assert results > 0

    response = withdraw(key, run_id)

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "withdrawn" and response.json()["withdrawn_at"]
    run = Run.objects.get(pk=run_id)
    assert (run.status, run.withdrawn_by, run.withdrawn_by_token) == (
        "withdrawn",
        token.user,
        token,
    )
    # Kept on record with its results, counted nowhere.
    assert Result.objects.filter(run_id=run_id, series=None).count() == results
    assert set(SeriesStatistics.objects.filter(measured_in="").values_list("runs", flat=True)) == {
        2
    }
    assert nano_runs_in_answer() == 2
    check_is_clean()
    detail = client_with().get(f"/api/v1/runs/{run_id}/").json()
    assert detail["status"] == "withdrawn" and len(detail["results"]) == results
    # A full rebuild does not count it again.
    call_command("rebuild_stats", stdout=io.StringIO())
    assert nano_runs_in_answer() == 2
    check_is_clean()


def test_withdrawing_every_run_takes_the_type_out_of_the_answer(tokens, uploaded):
    for name in ("laptop", "ci"):
        for run_id in uploaded[name]:
            assert withdraw(tokens[name][1], run_id).status_code == 200
    # Its parameters are gone with its last results: asked without them.
    assert nano_runs_in_answer(block_size=[], processes=[]) is None
    assert not SeriesStatistics.objects.exists()
    check_is_clean()
    response = APIClient().get("/api/v1/runs/", {"status": "withdrawn"})
    assert response.json()["count"] == 3


def test_withdrawing_again_answers_the_same_and_changes_nothing(tokens, uploaded):
    key = tokens["laptop"][1]
    run_id = uploaded["laptop"][1]
    first = withdraw(key, run_id).json()
    with CaptureQueriesContext(connection) as queries:
        again = withdraw(key, run_id)
    assert again.status_code == 200 and again.json() == first
    assert not any(query["sql"].startswith("UPDATE") and "benchmarks_" in query["sql"]
                   for query in queries.captured_queries)  # fmt: skip
    assert nano_runs_in_answer() == 2


def test_the_same_upload_again_answers_with_the_withdrawn_run(tokens, uploaded):
    key = tokens["laptop"][1]
    run_id = uploaded["laptop"][0]
    withdraw(key, run_id)
    content = io.BytesIO(NANO_FILE.read_bytes())
    content.name = "speed.txt"
    response = client_with(key).post(
        "/api/v1/runs/",
        {"file": content, "instance_type": "t2.nano", "region": "us-east-1"},
        format="multipart",
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["id"], body["status"], body["created"]) == (run_id, "withdrawn", False)
    assert nano_runs_in_answer() == 2


def test_another_token_gets_403_even_of_the_same_user(tokens, uploaded):
    run_id = uploaded["laptop"][0]
    for other in ("ci", "stranger"):
        response = withdraw(tokens[other][1], run_id)
        assert response.status_code == 403
        assert "Only the upload token that uploaded this run" in response.json()["detail"]
    assert Run.objects.get(pk=run_id).status == "done"
    assert nano_runs_in_answer() == 3


def test_unknown_runs_are_404_and_no_token_is_401(tokens, uploaded):
    assert withdraw(tokens["laptop"][1], 999_999).status_code == 404
    assert withdraw(None, uploaded["laptop"][0]).status_code == 401
    assert withdraw("0" * 64, uploaded["laptop"][0]).status_code == 401
    assert Run.objects.get(pk=uploaded["laptop"][0]).status == "done"


def test_a_run_with_no_token_cannot_be_withdrawn_through_the_api(tokens, uploaded):
    Run.objects.filter(pk=uploaded["laptop"][0]).update(upload_token=None)
    assert withdraw(tokens["laptop"][1], uploaded["laptop"][0]).status_code == 403


def test_a_revoked_tokens_runs_cannot_be_withdrawn_with_it(tokens, uploaded):
    token, key = tokens["laptop"]
    UploadToken.objects.filter(pk=token.pk).update(revoked_at=datetime.datetime.now(datetime.UTC))
    response = withdraw(key, uploaded["laptop"][0])
    assert response.status_code == 401
    assert response.json()["detail"].startswith("Token revoked on ")
    assert Run.objects.get(pk=uploaded["laptop"][0]).status == "done"


def test_a_table_is_withdrawn_with_its_rows(tokens, django_capture_on_commit_callbacks):
    InstanceType.objects.get_or_create(name="t2.nano")
    InstanceType.objects.get_or_create(name="c5.large")
    table = io.BytesIO(
        b"benchmark,instance_type,region,value,unit\n"
        b"openssl:sha256,t2.nano,us-east-1,100,B/s\n"
        b"openssl:sha256,c5.large,us-east-1,300,B/s\n"
    )
    table.name = "results.csv"
    key = tokens["laptop"][1]
    with django_capture_on_commit_callbacks(execute=True):
        response = client_with(key).post("/api/v1/runs/", {"file": table}, format="multipart")
    assert response.status_code == 202, response.content
    parent = Run.objects.get(pk=response.json()["id"])
    children = list(parent.children.order_by("pk"))
    assert len(children) == 2 and {child.upload_token_id for child in children} == {
        tokens["laptop"][0].pk
    }
    assert SeriesStatistics.objects.count() == 2

    assert withdraw(key, children[0].pk).status_code == 200
    assert SeriesStatistics.objects.count() == 1
    assert withdraw(key, parent.pk).status_code == 200

    assert set(Run.objects.values_list("status", flat=True)) == {"withdrawn"}
    # The row withdrawn first keeps its own time.
    first, second = sorted(Run.objects.filter(parent=parent), key=lambda run: run.pk)
    assert first.withdrawn_at < second.withdrawn_at
    assert not SeriesStatistics.objects.exists()
    check_is_clean()


def test_a_pending_run_withdrawn_is_never_ingested(tokens, django_capture_on_commit_callbacks):
    InstanceType.objects.get_or_create(name="t2.nano")
    content = io.BytesIO(NANO_FILE.read_bytes())
    content.name = "speed.txt"
    key = tokens["laptop"][1]
    # The ingest is queued on commit: not run here, the run stays pending.
    with django_capture_on_commit_callbacks(execute=False):
        response = client_with(key).post(
            "/api/v1/runs/",
            {"file": content, "instance_type": "t2.nano", "region": "us-east-1"},
            format="multipart",
        )
    run_id = response.json()["id"]
    assert response.json()["status"] == "pending"
    assert withdraw(key, run_id).status_code == 200
    run = run_services.ingest_run(run_id=run_id)
    assert run.status == "withdrawn" and not run.results.exists()
    assert not SeriesStatistics.objects.exists()


def test_a_withdrawn_run_is_not_parsed_again(tokens, uploaded):
    run_id = uploaded["laptop"][0]
    withdraw(tokens["laptop"][1], run_id)
    with pytest.raises(DomainError, match="withdrawn by its uploader"):
        run_services.reparse_run(run_id=run_id)
    assert Run.objects.get(pk=run_id).status == "withdrawn"
    check_is_clean()


def test_the_admin_shows_who_uploaded_each_run_and_withdraws_runs(
    admin_client, admin_user, tokens, uploaded
):
    listing = admin_client.get("/admin/benchmarks/run/")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "uploader (token laptop)" in text and "uploader (token ci)" in text
    run_id = uploaded["ci"][0]
    assert admin_client.get(f"/admin/benchmarks/run/{run_id}/change/").status_code == 200

    response = admin_client.post(
        "/admin/benchmarks/run/", {"action": "withdraw", "_selected_action": [run_id]}, follow=True
    )
    assert response.status_code == 200
    run = Run.objects.get(pk=run_id)
    assert (run.status, run.withdrawn_by, run.withdrawn_by_token) == ("withdrawn", admin_user, None)
    assert "Withdrawn" in admin_client.get("/admin/benchmarks/run/").content.decode()
    assert nano_runs_in_answer() == 2
    check_is_clean()
