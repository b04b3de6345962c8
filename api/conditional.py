"""Answers computed from kept data: ETag, Last-Modified, 304, and a cache of rendered answers.

The ETag names the query, the renderer, the data's last change and the day, so an answer
cached under it is exactly as fresh as a recomputation: a new run, noise or price changes
the key.
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


def answer(request, *, changed_at: datetime.datetime | None, compute=None):
    """This request's answer as far as what is kept allows, stamped with its validators: the
    304 confirming a client's copy, else the kept bytes, else `compute()`'s response (kept
    under its ETag once rendered).

    Without `compute` (the question not validated yet), None unless an answer is kept: only
    answers to valid questions are kept (200s) under an ETag naming the very query and the
    data's last change, so finding one means the question was validated when first answered.
    """
    etag, last_modified = validators(request, changed_at=changed_at)
    kept = cached(etag)
    if kept is None and compute is None:
        return None
    current = not_modified(request, etag=etag, last_modified=last_modified)
    if current is not None:
        return current
    response = kept if kept is not None else keep(compute(), etag=etag)
    return stamp(response, etag=etag, last_modified=last_modified)


def keep(response, *, etag: str):
    """Keep a successful answer under its ETag once rendered; the data it was rendered from
    is let go then: DRF's view and response point at each other, so whatever the response
    held would otherwise wait for the garbage collector (a thousand rows' dicts)."""

    def store(rendered):
        if rendered.status_code == 200:
            caches["answers"].set(etag, (rendered.content, rendered["Content-Type"]))
        rendered.data = None

    response.add_post_render_callback(store)
    return response
