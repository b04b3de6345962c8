"""The throttles' counts in Redis: one count for every web process, and counting goes on in
the process when Redis is away."""

import time
import uuid

import pytest
from django.test import override_settings

from dashboard.shared_counts import SharedAnswersCache, SharedCountsCache
from dashboard.throttle import Window
from tests.worker import redis_url

LOCMEM = "django.core.cache.backends.locmem.LocMemCache"


def counts(location: str) -> SharedCountsCache:
    """The counts as one web process sees them (each host makes its own)."""
    return SharedCountsCache(location, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def test_two_processes_count_one_clients_requests_together():
    location = redis_url()
    key_prefix = f"test-{uuid.uuid4().hex}"
    host_a = SharedCountsCache(location, {"KEY_PREFIX": key_prefix})
    host_b = SharedCountsCache(location, {"KEY_PREFIX": key_prefix})
    window = Window.now("anon:203.0.113.9", 60)
    assert host_a.add(window.key, 1, timeout=61)
    assert not host_b.add(window.key, 1, timeout=61)
    assert host_b.incr(window.key) == 2
    assert host_a.incr(window.key) == 3
    assert host_b.get(window.key) == 3


def test_the_throttles_count_in_the_shared_cache_when_it_is_configured():
    location = redis_url()
    key_prefix = f"test-{uuid.uuid4().hex}"
    caches_setting = {
        "default": {
            "BACKEND": "dashboard.shared_counts.SharedCountsCache",
            "LOCATION": location,
            "KEY_PREFIX": key_prefix,
        }
    }
    with override_settings(CACHES=caches_setting):
        window = Window.now("admin-login:203.0.113.9", 60)
        assert [window.hit() for _ in range(3)] == [1, 2, 3]
    # Another process, the same Redis: the same count.
    assert SharedCountsCache(location, {"KEY_PREFIX": key_prefix}).get(window.key) == 3


@pytest.mark.parametrize("location", ["redis://127.0.0.1:1/0"])
def test_a_request_is_counted_in_the_process_while_redis_is_away(location):
    away = counts(location)
    started = time.monotonic()
    assert away.get("anon:x:1", 0) == 0
    assert away.add("anon:x:1", 1, timeout=60)
    assert away.incr("anon:x:1") == 2
    assert away.get("anon:x:1") == 2
    # One refused connection, then the process counts alone without asking again.
    assert time.monotonic() - started < 1
    assert away.away_until > time.monotonic()


def test_an_answer_rendered_by_one_process_is_kept_for_every_other():
    location = redis_url()
    key_prefix = f"test-{uuid.uuid4().hex}"
    options = {"OPTIONS": {"MAX_ENTRIES": 4}, "KEY_PREFIX": key_prefix}
    host_a = SharedAnswersCache(location, options)
    host_b = SharedAnswersCache(location, options)
    host_a.set('"etag-1"', (b'{"results": []}', "application/json"), timeout=60)
    assert host_b.get('"etag-1"') == (b'{"results": []}', "application/json")
    assert host_b.get('"etag-2"') is None


def test_the_answer_cache_is_shared_when_its_redis_is_configured():
    from django.core.cache import caches

    from api import conditional

    location = redis_url()
    key_prefix = f"test-{uuid.uuid4().hex}"
    answers = {"BACKEND": "dashboard.shared_counts.SharedAnswersCache", "LOCATION": location,
               "KEY_PREFIX": key_prefix, "OPTIONS": {"MAX_ENTRIES": 4}}  # fmt: skip
    # Kept by another process (host A) ...
    SharedAnswersCache(location, {"KEY_PREFIX": key_prefix}).set('"etag-3"', (b"a,b\n", "text/csv"))
    # ... and answered from the shared cache by this one (host B).
    with override_settings(CACHES={"default": {"BACKEND": LOCMEM}, "answers": answers}):
        assert isinstance(caches["answers"], SharedAnswersCache)
        response = conditional.cached('"etag-3"')
    assert response.content == b"a,b\n" and response["Content-Type"] == "text/csv"


@pytest.mark.parametrize("location", ["redis://127.0.0.1:1/0"])
def test_answers_are_kept_in_the_process_while_redis_is_away(location):
    away = SharedAnswersCache(location, {"OPTIONS": {"MAX_ENTRIES": 4}})
    started = time.monotonic()
    away.set('"etag-4"', (b"{}", "application/json"), timeout=60)
    assert away.get('"etag-4"') == (b"{}", "application/json")
    assert time.monotonic() - started < 1
    assert away.away_until > time.monotonic()
