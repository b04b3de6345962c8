"""Failed admin logins limited per client address, in fixed windows kept in the cache."""

from __future__ import annotations

import functools
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse

logger = logging.getLogger(__name__)
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'10/minute' -> (10, 60): requests allowed and the window in seconds, as DRF reads it."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip()[:1]]


def limit_failed_logins(view):
    """Wrap a login view: past the rate of failed POSTs from one address, answer 429."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        allowed, window = parse_rate(settings.PRICEBENCH_THROTTLE_ADMIN_LOGIN)
        now = time.time()
        key = f"admin-login:{request.META.get('REMOTE_ADDR', '')}:{int(now // window)}"
        if cache.get(key, 0) >= allowed:
            retry_after = max(1, int(window - now % window))
            logger.warning("admin login refused: too many failures from %s",
                           request.META.get("REMOTE_ADDR"))  # fmt: skip
            response = HttpResponse(
                f"Too many failed logins; retry in {retry_after} seconds.",
                status=429,
                content_type="text/plain",
            )
            response["Retry-After"] = str(retry_after)
            return response
        response = view(request, *args, **kwargs)
        # A successful login redirects; a failed one shows the form again.
        if response.status_code != 302:
            if not cache.add(key, 1, timeout=window + 1):
                try:
                    cache.incr(key)
                except ValueError:  # expired between add and incr
                    cache.add(key, 1, timeout=window + 1)
        return response

    return wrapped
