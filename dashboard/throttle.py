"""Rates kept as counts in fixed windows in the cache: the API's throttles and failed admin
logins per client address (behind trusted proxies, the address the nearest of them saw:
`client_address`).

A window's count is one integer under one key, so checking a rate costs the same at 10 and
at 10,000 requests a minute (a log of every request's time, as DRF keeps by default, grows
with the rate and is copied in and out of the cache on every request). A client may use up
to twice its rate across the edge of two windows.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse

logger = logging.getLogger(__name__)
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'10/minute' -> (10, 60): requests allowed and the window in seconds, as DRF reads it."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[:1]]


@dataclass(frozen=True)
class Window:
    """The current window of one client's count: its cache key and when it ends."""

    key: str
    seconds_left: int

    @classmethod
    def now(cls, ident: str, length: int, now: float | None = None) -> Window:
        """The window of `length` seconds that `now` (default: the clock) falls in."""
        now = time.time() if now is None else now
        return cls(f"{ident}:{int(now // length)}", max(1, int(length - now % length)))

    def count(self) -> int:
        """Hits counted in this window so far."""
        return cache.get(self.key, 0)

    def hit(self) -> int:
        """Count one more hit; the count after it."""
        if cache.add(self.key, 1, timeout=self.seconds_left + 1):
            return 1
        try:
            return cache.incr(self.key)
        except ValueError:  # expired between add and incr
            cache.add(self.key, 1, timeout=self.seconds_left + 1)
            return 1


def client_address(request) -> str:
    """The address a request came from: REMOTE_ADDR, or behind PRICEBENCH_TRUSTED_PROXIES
    proxies, the X-Forwarded-For entry the outermost trusted one wrote.

    Each proxy appends the address it was connected from, so the entries are read from the
    right end: the N-th from the right is what the N-th proxy saw. Entries left of it were
    written by the client (any client can send X-Forwarded-For) and are never trusted.
    Fewer entries than proxies: the request passed fewer proxies, and the leftmost entry is
    still one a trusted proxy wrote.
    """
    trusted = settings.PRICEBENCH_TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    if trusted <= 0 or not entries:
        return request.META.get("REMOTE_ADDR", "")
    return entries[-min(trusted, len(entries))]


def limit_failed_logins(view):
    """Wrap a login view: past the rate of failed POSTs from one address, answer 429."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        allowed, length = parse_rate(settings.PRICEBENCH_THROTTLE_ADMIN_LOGIN)
        address = client_address(request)
        window = Window.now(f"admin-login:{address}", length)
        if window.count() >= allowed:
            logger.warning("admin login refused: too many failures from %s", address)
            response = HttpResponse(
                f"Too many failed logins; retry in {window.seconds_left} seconds.",
                status=429,
                content_type="text/plain",
            )
            response["Retry-After"] = str(window.seconds_left)
            return response
        response = view(request, *args, **kwargs)
        # A successful login redirects; a failed one shows the form again.
        if response.status_code != 302:
            window.hit()
        return response

    return wrapped
