"""Reads that tolerate a streaming replica's lag go to the `replica` alias; all else to `default`.

Only with DATABASE_REPLICA_URL set (settings.py adds the alias and this router); unset, one
database serves everything. A request may read from the replica only when the middleware
below says so: a GET or HEAD of a page or an answer, not of a run's status (polled right
after its upload's 202), the admin, uploads or the health checks. Only the domain's tables
(the `benchmarks` app) are read there: sessions, users and upload tokens are read on the
primary, so a token revoked there is refused at once. Celery workers, management commands
and every write never set the flag, so they read and write the primary alone.

A replica that fails a request is left alone for PRICEBENCH_REPLICA_RETRY_SECONDS in this
process, and the request is answered again from the primary (a GET is safe to repeat).
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time

from django.conf import settings
from django.db import DatabaseError, connections

logger = logging.getLogger(__name__)

REPLICA = "replica"
# Apps whose tables a lagging copy may answer from (the data every page and answer reads).
REPLICA_APPS = frozenset({"benchmarks"})
# Paths whose GETs must see the primary: a run's status right after its upload, the admin,
# the upload forms, the readiness check.
PRIMARY_PATHS = ("/admin/", "/api/v1/runs/", "/runs/", "/upload/", "/healthz", "/readyz")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class _Request:
    """What the router knows of the request it serves: whether it may read the replica, and
    whether it did."""

    __slots__ = ("allowed", "used")

    def __init__(self, allowed: bool):
        self.allowed = allowed
        self.used = False


_current: contextvars.ContextVar[_Request | None] = contextvars.ContextVar(
    "replica_request", default=None
)
# monotonic time before which this process leaves the replica alone (it failed a request).
_away_until = 0.0


def replica_configured() -> bool:
    return REPLICA in connections.settings


def replica_tolerated(method: str, path: str) -> bool:
    """Whether a request of this method and path may be answered from the replica."""
    return method in SAFE_METHODS and not path.startswith(PRIMARY_PATHS)


def replica_away() -> bool:
    return time.monotonic() < _away_until


def mark_replica_away() -> None:
    """Leave the replica alone in this process for PRICEBENCH_REPLICA_RETRY_SECONDS."""
    global _away_until
    _away_until = time.monotonic() + settings.PRICEBENCH_REPLICA_RETRY_SECONDS


class ReplicaRouter:
    """Django's database router: the replica for tolerant reads of the domain's tables."""

    def db_for_read(self, model, **hints):
        request = _current.get()
        if (
            request is None
            or not request.allowed
            or model._meta.app_label not in REPLICA_APPS
            or not replica_configured()
            or replica_away()
            # Inside a transaction on the primary, read what it wrote.
            or connections["default"].in_atomic_block
        ):
            return "default"
        request.used = True
        return REPLICA

    def db_for_write(self, model, **hints):
        return "default"

    def allow_relation(self, obj1, obj2, **hints):
        # The replica is a copy of the primary: the same rows under both aliases.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        # A streaming replica replays the primary's migrations; nothing is migrated on it.
        return db == "default"


class ReplicaReadsMiddleware:
    """Lets the router read this request from the replica when it tolerates lag; answers
    again from the primary when the replica failed it (a 503 after a replica read)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not replica_configured():
            return self.get_response(request)
        state = _Request(replica_tolerated(request.method, request.path))
        token = _current.set(state)
        try:
            response = self.get_response(request)
            if response.status_code == 503 and state.used:
                logger.warning("replica failed %s %s: answered from the primary",
                               request.method, request.path)  # fmt: skip
                mark_replica_away()
                with contextlib.suppress(DatabaseError):
                    connections[REPLICA].close()
                state.allowed = False
                response = self.get_response(request)
            return response
        finally:
            _current.reset(token)
