"""One structured line per request and per task; failed tasks kept for the admin."""

import io
import json
import logging

import pytest
from celery import shared_task
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from dashboard.logs import JsonFormatter
from dashboard.models import TaskFailure


@pytest.fixture
def json_lines():
    """The JSON lines the request and task loggers write during the test."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    loggers = [logging.getLogger("pricebench.request"), logging.getLogger("pricebench.task")]
    for logger in loggers:
        logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    for logger in loggers:
        logger.removeHandler(handler)


def test_a_request_is_one_json_line_with_the_clients_request_id(client, json_lines):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="edge-42.a")
    assert response["X-Request-ID"] == "edge-42.a"
    [line] = json_lines()
    assert line["request_id"] == "edge-42.a"
    assert (line["method"], line["path"], line["status"], line["user"]) == (
        "GET",
        "/healthz",
        200,
        "",
    )
    assert isinstance(line["ms"], float) and line["ms"] >= 0
    assert line["logger"] == "pricebench.request" and line["level"] == "INFO"


def test_a_request_id_that_is_not_a_short_token_is_replaced(client, json_lines):
    response = client.get("/healthz", HTTP_X_REQUEST_ID="x" * 200)
    assert len(response["X-Request-ID"]) == 32 and response["X-Request-ID"] != "x" * 200
    assert json_lines()[0]["request_id"] == response["X-Request-ID"]
    assert len(client.get("/healthz")["X-Request-ID"]) == 32


@pytest.mark.django_db
def test_the_line_names_the_authenticated_user_and_the_status(django_user_model, json_lines):
    user = django_user_model.objects.create(username="reader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    client.get("/api/v1/runs/999999/")
    [line] = json_lines()
    assert (line["user"], line["status"], line["path"]) == ("reader", 404, "/api/v1/runs/999999/")


@shared_task(name="tests.test_structured_logs.failing_task")
def failing_task(reason: str):
    raise ValueError(f"refused: {reason}")


@shared_task(name="tests.test_structured_logs.quick_task")
def quick_task():
    return "ok"


def test_a_task_is_one_json_line_with_its_id_name_state_and_duration(json_lines):
    result = quick_task.apply()
    [line] = [line for line in json_lines() if line["logger"] == "pricebench.task"]
    assert line["task_id"] == result.id
    assert line["task"] == "tests.test_structured_logs.quick_task"
    assert line["state"] == "SUCCESS"
    assert line["ms"] >= 0


@pytest.mark.django_db
def test_a_failed_task_is_kept_and_shown_in_the_admin(admin_client, json_lines):
    result = failing_task.apply(args=["no price list"], throw=False)
    failure = TaskFailure.objects.get()
    assert failure.task_id == result.id
    assert failure.task_name == "tests.test_structured_logs.failing_task"
    assert failure.exception == "ValueError: refused: no price list"
    assert "raise ValueError" in failure.traceback
    assert "no price list" in failure.arguments
    assert [line["state"] for line in json_lines() if line.get("task_id") == result.id] == [
        "FAILURE"
    ]
    listing = admin_client.get("/admin/dashboard/taskfailure/").content.decode()
    assert "refused: no price list" in listing
    assert admin_client.get("/admin/dashboard/taskfailure/add/").status_code == 403
