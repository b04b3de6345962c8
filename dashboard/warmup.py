"""A web worker answers the comparison page's question through the API, and opens the page of
the answer's best type, before taking requests.

The first answer a new process gives is the slowest by far (docs/performance.md): its
PostgreSQL backend loads the catalog of every table it touches, Django compiles the queries'
expressions and the page's templates, DRF settles its settings. The instance-type page reads
tables the API does not (ranks, runs, similar types): a process's first such page took about
40 ms more than the next at 10M results.
gunicorn starts workers on a deploy, after a crash and every `max_requests` answers; without
this, whoever asks first pays for all of it.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from django.conf import settings
from django.urls import reverse

from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer.kept_series import keep_every_machine
from benchmarks.selectors.pages import comparison

logger = logging.getLogger(__name__)


def warm_up(application: Callable) -> list[tuple[str, str]]:
    """GET the comparison page's question (every default resolved, as its API link asks it),
    then its best type's page and the comparison page, through `application` (WSGI), as a
    client would.

    Returns (url, status) of each request. Never raises: a worker that cannot warm up (the
    database away, an empty database) still takes requests, which then answer as they can.
    """
    answered = []
    started = time.perf_counter()
    try:
        page = comparison.comparison(PricePerformanceQuery(benchmark="", region=""))
        if page.table is not None:
            answered.append((page.api_url, _get(application, page.api_url)))
            # Every type of its region kept, not only those the answer named: a worker's
            # first question of another benchmark there (most are asked in the default
            # region) then reads only its statistics (docs/performance.md).
            keep_every_machine(page.table.region)
        if page.table is not None and page.table.results:
            best = reverse("instance-type", args=[page.table.results[0].page_name])
            answered.append((best, _get(application, best)))
        if page.table is not None:
            # And the landing page itself: its templates compiled, the family facts and the
            # Arm regions it reads kept with its data's stamp (a worker's first landing page
            # took 11 queries and three times its later CPU: docs/performance.md).
            landing = reverse("comparison")
            answered.append((landing, _get(application, landing)))
    except Exception as error:  # any failure only means a colder first request
        logger.warning("warm-up stopped: %s: %s", type(error).__name__, error)
    logger.info(
        "warmed up in %.0f ms: %s",
        (time.perf_counter() - started) * 1000,
        ", ".join(f"{path} {status}" for path, status in answered) or "nothing answered",
    )
    return answered


def _get(application: Callable, url: str) -> str:
    """One GET through the WSGI application, as gunicorn would send it; the status line."""
    parts = urlsplit(url)
    host = _allowed_host()
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": parts.path,
        "QUERY_STRING": parts.query,
        "SERVER_NAME": host,
        "SERVER_PORT": "443" if settings.SECURE_SSL_REDIRECT else "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "https" if settings.SECURE_SSL_REDIRECT else "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status = []
    body = application(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        for _chunk in body:
            pass
    finally:
        if hasattr(body, "close"):
            body.close()
    return status[0] if status else "no answer"


def _allowed_host() -> str:
    """A host name the settings accept (a leading-dot domain names its own subdomains)."""
    for host in settings.ALLOWED_HOSTS:
        if host != "*":
            return host.lstrip(".") or "localhost"
    return "localhost"
