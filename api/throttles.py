"""The API's throttles: DRF's scopes and rates, counted in fixed windows (dashboard/throttle.py)."""

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from dashboard.throttle import Window


class FixedWindowMixin:
    """A DRF rate throttle whose count per client is one integer per window."""

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        ident = self.get_cache_key(request, view)
        if ident is None:
            return True
        self.window = Window.now(ident, self.duration, self.timer())
        return self.window.hit() <= self.num_requests

    def wait(self) -> float:
        """Seconds until the client's window ends (the answer's Retry-After)."""
        return self.window.seconds_left


class AnonymousThrottle(FixedWindowMixin, AnonRateThrottle):
    """Requests per address from clients without a token, at PRICEBENCH_THROTTLE_ANON."""


class UserThrottle(FixedWindowMixin, UserRateThrottle):
    """Requests per user (per address when anonymous), at PRICEBENCH_THROTTLE_USER."""


class UploadRateThrottle(FixedWindowMixin, UserRateThrottle):
    """Uploads per user (or per address when anonymous), at PRICEBENCH_THROTTLE_UPLOADS."""

    scope = "uploads"
