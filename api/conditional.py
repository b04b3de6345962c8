"""Conditional GET for answers computed from kept data: ETag, Last-Modified and 304."""

from __future__ import annotations

import datetime
import hashlib

from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date


def validators(request, *, changed_at: datetime.datetime | None) -> tuple[str, float | None]:
    """An ETag for this request's answer, and its Last-Modified as a timestamp.

    The answer depends on the query, the data's last change and, for answers priced
    "today", the date.
    """
    query = sorted(request.query_params.lists())
    parts = [
        request.path,
        repr(query),
        request.accepted_renderer.format,
        changed_at.isoformat() if changed_at else "",
        timezone.localdate().isoformat(),
    ]
    etag = '"' + hashlib.sha256("|".join(parts).encode()).hexdigest()[:32] + '"'
    return etag, changed_at.timestamp() if changed_at else None


def not_modified(request, *, etag: str, last_modified: float | None):
    """The 304 answer when the client's copy is current, else None."""
    return get_conditional_response(
        request, etag=etag, last_modified=int(last_modified) if last_modified else None
    )


def stamp(response, *, etag: str, last_modified: float | None):
    """Put the validators on an answer; clients revalidate before each reuse."""
    response["ETag"] = etag
    if last_modified:
        response["Last-Modified"] = http_date(last_modified)
    response["Cache-Control"] = "no-cache"
    return response
