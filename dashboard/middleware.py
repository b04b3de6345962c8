"""Middleware of our own: the answer when the database is away, the Content-Security-Policy."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    """A request that meets the database away answers 503 with Retry-After, never a 500.

    Nothing was written (every write is one transaction), so sending the request again once
    the database is back is safe; uploads are idempotent on their content.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not database_is_away(exception):
            return None
        logger.warning("database unavailable for %s %s: %s", request.method, request.path,
                       exception)  # fmt: skip
        if request.path.startswith("/api/"):
            message = f"the database is unavailable; retry in {RETRY_AFTER_SECONDS} seconds"
            response = JsonResponse({"detail": message}, status=503)
        else:
            # A page, for a person: rendered without the request, whose context processors
            # would read the session from the database.
            page = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
            response = HttpResponse(page, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


# What says that the database itself is away, not that it refused one query: SQLite's result
# codes of a busy, locked, missing or failing database file, and PostgreSQL's classes of
# errors of the connection (08), of resources (53) and of an operator's intervention, a
# cancelled statement or a server starting or stopping (57).
SQLITE_AWAY = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_FULL",
               "SQLITE_NOMEM")  # fmt: skip
POSTGRESQL_AWAY = ("08", "53", "57")


def database_is_away(exception: BaseException) -> bool:
    """Whether a request's exception says that the database is unreachable or busy (worth a
    503 and a retry), not that it refused a query a retry would send again (a 500: the query
    is the fault, e.g. SQLite's "Expression tree is too large").

    The driver's own error, which Django's wraps, tells; without one, the database is taken
    to be away.
    """
    if isinstance(exception, InterfaceError):
        return True
    if not isinstance(exception, OperationalError):
        return False
    cause = exception.__cause__
    sqlite_name = getattr(cause, "sqlite_errorname", None)
    if sqlite_name is not None:
        # Extended codes name their primary one first: SQLITE_IOERR_READ.
        return any(
            sqlite_name == code or sqlite_name.startswith(f"{code}_") for code in SQLITE_AWAY
        )
    sqlstate = getattr(cause, "sqlstate", None)
    if sqlstate is not None:
        return sqlstate.startswith(POSTGRESQL_AWAY)
    return True


# Scripts and styles come only from our own static files (no inline code, no CDN); chart
# data reaches scripts through json_script blocks, which are data, not code.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# DRF's browsable API and the Swagger UI page (drf-spectacular) carry inline style
# attributes and a <style> block; their scripts are still files of our origin only.
API_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)


class ContentSecurityPolicyMiddleware:
    """Send a Content-Security-Policy header (Django 5.2 has none of its own)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            policy = (
                API_CONTENT_SECURITY_POLICY
                if request.path.startswith("/api/")
                else CONTENT_SECURITY_POLICY
            )
            response["Content-Security-Policy"] = policy
        return response
