"""The replica router with two real PostgreSQL aliases: which reads go to the replica."""

from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext, override_settings
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import Region, Run
from dashboard import db_router

# A second connection to the test database, as the `replica` alias: the rows are the same,
# so only the queries each connection ran tell where a read went. The rows must be committed
# for the second connection to see them: the tests write outside pytest-django's test case
# (which also forbids aliases it was not told of) and delete what they wrote.


@contextmanager
def replica_alias(**changes):
    connections.settings[db_router.REPLICA] = {**connections["default"].settings_dict, **changes}
    try:
        with override_settings(DATABASE_ROUTERS=["dashboard.db_router.ReplicaRouter"]):
            yield connections[db_router.REPLICA]
    finally:
        connections[db_router.REPLICA].close()
        del connections[db_router.REPLICA]
        del connections.settings[db_router.REPLICA]
        db_router._away_until = 0.0


def tables_read(queries) -> set[str]:
    return {table for query in queries for table in ("benchmarks_", "api_", "auth_")
            if f'"{table}' in query["sql"]}  # fmt: skip


@pytest.fixture
def region(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        # The regions come with the migrations, unless a transactional test emptied the tables
        # before this one: then it is written here, committed, and deleted afterwards.
        region, created = Region.objects.get_or_create(
            vendor="aws", code="us-east-1", defaults={"name": "US East (N. Virginia)"}
        )
        yield region
        if created:
            region.delete()


def test_a_page_or_answer_reads_the_domain_from_the_replica(region):
    with replica_alias() as replica:
        with CaptureQueriesContext(replica) as on_replica:
            with CaptureQueriesContext(connections["default"]) as on_primary:
                answer = APIClient().get("/api/v1/regions/")
    assert answer.status_code == 200
    assert "us-east-1" in {row["code"] for row in answer.json()["results"]}
    assert "benchmarks_" in tables_read(on_replica.captured_queries)
    assert "benchmarks_" not in tables_read(on_primary.captured_queries)


def test_a_token_is_read_on_the_primary_even_in_a_read_from_the_replica(region):
    user = get_user_model().objects.create(username="router-uploader")
    _, key = create_upload_token(user=user)
    try:
        with replica_alias() as replica:
            with CaptureQueriesContext(replica) as on_replica:
                with CaptureQueriesContext(connections["default"]) as on_primary:
                    answer = APIClient().get("/api/v1/regions/", HTTP_AUTHORIZATION=f"Token {key}")
    finally:
        user.delete()
    assert answer.status_code == 200
    assert "api_" in tables_read(on_primary.captured_queries)
    assert tables_read(on_replica.captured_queries) == {"benchmarks_"}


def test_a_runs_status_uploads_and_the_admin_read_the_primary(region):
    run = Run.objects.create(format="csv", status=Run.Status.PENDING)
    try:
        with replica_alias() as replica:
            with CaptureQueriesContext(replica) as on_replica:
                status = APIClient().get(f"/api/v1/runs/{run.pk}/")
                upload = APIClient().post("/api/v1/runs/", {})
                admin = APIClient().get("/admin/")
    finally:
        run.delete()
    assert status.status_code == 200 and status.json()["status"] == "pending"
    assert upload.status_code in (400, 401, 403)
    assert admin.status_code == 302
    assert on_replica.captured_queries == []


def test_reads_inside_a_transaction_and_outside_a_request_stay_on_the_primary(region):
    router = db_router.ReplicaRouter()
    with replica_alias():
        assert router.db_for_read(Region) == "default"  # no request: a worker, a command
        token = db_router._current.set(db_router._Request(allowed=True))
        try:
            assert router.db_for_read(Region) == db_router.REPLICA
            with transaction.atomic():
                assert router.db_for_read(Region) == "default"
            assert router.db_for_write(Region) == "default"
            assert router.allow_migrate(db_router.REPLICA, "benchmarks") is False
        finally:
            db_router._current.reset(token)


def test_a_replica_away_is_answered_from_the_primary_and_left_alone_a_while(region):
    # Nothing listens on port 1: the replica's connection is refused.
    with replica_alias(PORT=1, HOST="127.0.0.1"):
        with CaptureQueriesContext(connections["default"]) as on_primary:
            first = APIClient().get("/api/v1/regions/")
        assert first.status_code == 200
        assert "us-east-1" in {row["code"] for row in first.json()["results"]}
        assert "benchmarks_" in tables_read(on_primary.captured_queries)
        assert db_router.replica_away()
        # Meanwhile no request tries the replica (which would cost a refused connection).
        token = db_router._current.set(db_router._Request(allowed=True))
        assert db_router.ReplicaRouter().db_for_read(Region) == "default"
        db_router._current.reset(token)
        with CaptureQueriesContext(connections["default"]) as on_primary:
            assert APIClient().get("/api/v1/regions/").status_code == 200
        assert "benchmarks_" in tables_read(on_primary.captured_queries)


# pytest-django sets up the test database only for a run with a test marked as using it.
@pytest.mark.django_db
def test_which_requests_tolerate_the_replicas_lag():
    assert db_router.replica_tolerated("GET", "/api/v1/price-performance/")
    assert db_router.replica_tolerated("GET", "/instance-types/c7g.large/")
    assert not db_router.replica_tolerated("POST", "/api/v1/price-performance/")
    assert not db_router.replica_tolerated("GET", "/api/v1/runs/12/")
    assert not db_router.replica_tolerated("GET", "/admin/")
    assert not db_router.replica_tolerated("GET", "/readyz")
