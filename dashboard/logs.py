"""Structured logs: one line per request (and per task, dashboard/task_log.py), JSON or text.

PRICEBENCH_LOG_FORMAT=json writes each record as one JSON object with its fields; any other
value keeps readable text. Requests carry an id: the client's X-Request-ID when it is a
sane token, else a new one, answered back in the same header.
"""

from __future__ import annotations

import datetime
import json
import logging
import re
import time
import uuid

from django.utils.functional import SimpleLazyObject, empty

request_logger = logging.getLogger("pricebench.request")
# Fields a record may carry (through `extra=`) that the JSON line includes.
FIELDS = ("request_id", "method", "path", "status", "ms", "user", "task_id", "task", "state")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message and the known fields."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for field in FIELDS:
            if hasattr(record, field):
                line[field] = getattr(record, field)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def request_id_of(request) -> str:
    """The client's X-Request-ID when it is a short token, else a new random one."""
    given = request.headers.get("X-Request-ID", "")
    return given if _REQUEST_ID.match(given) else uuid.uuid4().hex


def username_of(request) -> str:
    """The request's user if a view or DRF already looked it up; never a query of its own.

    Looking the user up here would cost a query on pages that did not need one, and fail
    when the database is away (the 503 path).
    """
    user = getattr(request, "user", None)
    if isinstance(user, SimpleLazyObject) and user._wrapped is empty:
        return ""
    try:
        return user.get_username() if user is not None and user.is_authenticated else ""
    except Exception:  # a broken session or database: the line is still written
        return ""


class RequestLogMiddleware:
    """Log one line per request (method, path, status, ms, request id, user); echo the id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        request.request_id = request_id_of(request)
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        ms = round((time.perf_counter() - started) * 1000, 1)
        username = username_of(request)
        request_logger.info(
            "%s %s %s %.1f ms id=%s user=%s",
            request.method,
            request.path,
            response.status_code,
            ms,
            request.request_id,
            username or "-",
            extra={
                "request_id": request.request_id,
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "ms": ms,
                "user": username,
            },
        )
        return response
