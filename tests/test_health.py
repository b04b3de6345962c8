"""`/healthz` answers without the database; `/readyz` checks the database and the broker."""

import pytest


def test_healthz_answers_without_touching_the_database(client):
    # No django_db mark: pytest-django fails any database access in this test.
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_reports_the_database_broker_and_price_age(client):
    body = client.get("/readyz").json()
    assert body["status"] == "ready"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True
    assert body["prices"]["stale"] is True  # no refresh has run in a new database


@pytest.mark.django_db
def test_readyz_is_503_when_the_broker_is_away(client, settings):
    from dashboard.celery import app

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # nothing listens on port 9
    previous = app.conf.broker_url
    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get("/readyz")
    finally:
        app.conf.broker_url = previous
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False
