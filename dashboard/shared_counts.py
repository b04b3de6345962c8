"""The throttles' counts and the rendered answers in Redis, shared by every web process of
every host, and kept in the process while Redis is away.

With counts per process, a client behind a load balancer got up to (hosts x workers) times
its rate; in Redis it gets its rate. A request never fails for the counts: when Redis does
not answer (within REDIS_TIMEOUT), this process counts alone for AWAY_SECONDS and then asks
Redis again, so while Redis is away a client may again get up to (hosts x workers) times
its rate. Settings: PRICEBENCH_THROTTLE_REDIS_URL (unset: per-process counts, as before).

The rendered answers (api/conditional.py, keyed by their ETag, which changes with the data)
likewise: an answer rendered by one process is then a hit in every other, and while Redis is
away each process keeps its own. Setting: PRICEBENCH_ANSWER_CACHE_REDIS_URL.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
# Seconds a connection to Redis or an answer from it may take before this process counts
# alone: a throttle check must stay cheap.
REDIS_TIMEOUT = 0.25
AWAY_SECONDS = 5.0


class SharedCountsCache(RedisCache):
    """Django's Redis cache for the few calls the throttles make (get, add, incr, clear),
    each answered by a per-process cache when Redis fails."""

    def __init__(self, server, params):
        options = {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}
        params = {**params, "OPTIONS": {**options, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        self.local = LocMemCache("shared-counts-fallback", {})
        self.away_until = 0.0

    def _either(self, name, *args, **kwargs):
        if time.monotonic() >= self.away_until:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except RedisError as error:
                logger.warning("%s: Redis unavailable (%s); kept in this process for %.0f s",
                               type(self).__name__, error, AWAY_SECONDS)  # fmt: skip
                self.away_until = time.monotonic() + AWAY_SECONDS
        return getattr(self.local, name)(*args, **kwargs)

    def get(self, key, default=None, version=None):
        return self._either("get", key, default, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("add", key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        return self._either("incr", key, delta, version)

    def clear(self):
        self.local.clear()
        return self._either("clear")


class SharedAnswersCache(SharedCountsCache):
    """The rendered answers in Redis (get and set), kept per process while Redis is away (at
    most MAX_ENTRIES answers there, as the per-process cache it stands in for)."""

    def __init__(self, server, params):
        # MAX_ENTRIES is the per-process cache's; Redis's client would refuse it.
        options = dict(params.get("OPTIONS", {}))
        kept = {"MAX_ENTRIES": options.pop("MAX_ENTRIES")} if "MAX_ENTRIES" in options else {}
        super().__init__(server, {**params, "OPTIONS": options})
        self.local = LocMemCache("shared-answers-fallback", {"OPTIONS": kept})

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._either("set", key, value, timeout, version)
