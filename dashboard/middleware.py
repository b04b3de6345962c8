"""Middleware of our own: the answer when the database is away, the Content-Security-Policy."""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse

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
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning("database unavailable for %s %s: %s", request.method, request.path,
                       exception)  # fmt: skip
        message = f"the database is unavailable; retry in {RETRY_AFTER_SECONDS} seconds"
        if request.path.startswith("/api/"):
            response = JsonResponse({"detail": message}, status=503)
        else:
            response = HttpResponse(message, status=503, content_type="text/plain")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


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
