"""Upload throttle: a stricter rate than reads, per user, for `POST runs/` only."""

from rest_framework.throttling import UserRateThrottle


class UploadRateThrottle(UserRateThrottle):
    """Uploads per user (or per address when anonymous), at PRICEBENCH_THROTTLE_UPLOADS."""

    scope = "uploads"
