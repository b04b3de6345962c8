"""Answers computed from kept data: ETag, Last-Modified, 304, and a cache of rendered answers.

The ETag names the query, the renderer, the data's last change and the day, so an answer
cached under it is exactly as fresh as a recomputation: a new run or price changes the key.
"""

from __future__ import annotations

import datetime
import hashlib

from django.core.cache import caches
from django.http import HttpResponse
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


def cached(etag: str) -> HttpResponse | None:
    """The rendered answer kept under this ETag, if any."""
    kept = caches["answers"].get(etag)
    if kept is None:
        return None
    content, content_type = kept
    return HttpResponse(content, content_type=content_type)


def kept_answer(request, *, changed_at: datetime.datetime | None):
    """The answer kept for this very request (stamped), or the 304 confirming a client's copy
    of it; None when none is kept.

    Only answers to valid questions are kept (200s), so a request that finds one needs no
    validation of its own: it was validated, as these very bytes, when first answered.
    """
    etag, last_modified = validators(request, changed_at=changed_at)
    response = cached(etag)
    if response is None:
        return None
    current = not_modified(request, etag=etag, last_modified=last_modified)
    if current is not None:
        return current
    return stamp(response, etag=etag, last_modified=last_modified)


def keep(response, *, etag: str):
    """Keep a successful answer under its ETag once rendered."""

    def store(rendered):
        if rendered.status_code == 200:
            caches["answers"].set(etag, (rendered.content, rendered["Content-Type"]))

    response.add_post_render_callback(store)
    return response
