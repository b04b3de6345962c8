"""The 503 "the database is unavailable" answer: said when the database is away or busy, never
for a query it refused (that is the server's fault, a 500), told apart by the driver's own
error as Django wraps it."""

import json
import sqlite3

import pytest
from django.db import OperationalError, connection, transaction
from rest_framework.test import APIClient

from dashboard.middleware import database_is_away

URL = "/api/v1/price-performance/"
QUESTION = {"benchmark": "openssl:sha256", "region": "us-east-1"}


def sqlite_error(run) -> OperationalError:
    """The driver's error of `run(sqlite3)`, wrapped as Django wraps it."""
    try:
        run(sqlite3)
    except sqlite3.Error as error:
        try:
            raise OperationalError(*error.args) from error
        except OperationalError as wrapped:
            return wrapped
    raise AssertionError("no error")


def refused_query(driver):
    driver.connect(":memory:").execute("SELECT json('not json')")


def missing_file(driver):
    driver.connect("file:/nonexistent/pricebench.sqlite3?mode=ro", uri=True)


def test_a_query_sqlite_refuses_is_not_the_database_away():
    error = sqlite_error(refused_query)
    assert str(error) == "malformed JSON"
    assert not database_is_away(error)


def test_a_database_file_that_cannot_be_opened_is_away():
    assert database_is_away(sqlite_error(missing_file))


@pytest.mark.django_db(transaction=True)
def test_a_postgresql_statement_cancelled_by_its_timeout_is_the_database_busy():
    with pytest.raises(OperationalError) as cancelled, transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 10")
            cursor.execute("SELECT pg_sleep(1)")
    assert cancelled.value.__cause__.sqlstate == "57014"
    assert database_is_away(cancelled.value)


def test_a_postgresql_server_that_does_not_answer_is_away():
    import psycopg

    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect("host=127.0.0.1 port=1 user=nobody connect_timeout=2")
    try:
        raise OperationalError(*refused.value.args) from refused.value
    except OperationalError as wrapped:
        assert database_is_away(wrapped)


@pytest.mark.django_db
@pytest.mark.parametrize(("run", "status"), [(refused_query, 500), (missing_file, 503)])
def test_the_api_says_unavailable_only_when_the_database_is(monkeypatch, run, status):
    from benchmarks.selectors.answer import lookups

    def fails(*args, **kwargs):
        raise sqlite_error(run)

    monkeypatch.setattr(lookups, "_read_benchmark_in_region", fails)
    response = APIClient(raise_request_exception=False).get(URL, QUESTION)
    assert response.status_code == status
    said = "database is unavailable" in response.content.decode()
    assert said == (status == 503)


def test_a_page_that_meets_the_database_away_is_an_html_page_that_says_when_to_retry():
    from django.test import RequestFactory

    from dashboard.middleware import RETRY_AFTER_SECONDS, DatabaseUnavailableMiddleware

    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/", {"benchmark": "openssl:sha256"})
    response = middleware.process_exception(request, sqlite_error(missing_file))
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    page = response.content.decode()
    assert page.startswith("<!doctype html>")
    assert f"The database is unavailable; retry in {RETRY_AFTER_SECONDS} seconds" in page
    assert 'id="database-unavailable"' in page


def test_an_api_request_that_meets_the_database_away_stays_json():
    from django.test import RequestFactory

    from dashboard.middleware import DatabaseUnavailableMiddleware

    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get(URL, QUESTION)
    response = middleware.process_exception(request, sqlite_error(missing_file))
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert "database is unavailable" in json.loads(response.content)["detail"]
