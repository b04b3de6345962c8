"""How long a process trusts what it read of the data's last change.

Reads that a page or the API serves often look up their benchmark and region (with the
stamps of their last change) once per PRICEBENCH_FRESHNESS_SECONDS per process, so that a
cached answer costs no query. Writes forget these lookups on commit in their own process;
other processes see a change within the window.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.db import transaction

T = TypeVar("T")


def cached_read(key: str, read: Callable[[], T]) -> T:
    """`read()`, or what it gave less than PRICEBENCH_FRESHNESS_SECONDS ago in this process."""
    seconds = settings.PRICEBENCH_FRESHNESS_SECONDS
    if seconds <= 0:
        return read()
    store = caches["lookups"]
    hashed = _hashed(key)
    found = store.get(hashed)
    if found is None:
        found = read()
        store.set(hashed, found, timeout=seconds)
    return found


def cached(key: str) -> Any | None:
    """What `cached_read(key, ...)` gave less than PRICEBENCH_FRESHNESS_SECONDS ago in this
    process, or None: never a read."""
    if settings.PRICEBENCH_FRESHNESS_SECONDS <= 0:
        return None
    return caches["lookups"].get(_hashed(key))


def _hashed(key: str) -> str:
    # Keys hold what a client typed: hashed, no key trips Django's cache key validation
    # (CacheKeyWarning on spaces, control characters, length).
    return hashlib.sha256(key.encode()).hexdigest()


def data_changed() -> None:
    """Called by every write of results or prices: this process forgets its lookups.

    Now, and again on commit, in case a read in between remembered what was then current.
    """
    caches["lookups"].clear()
    transaction.on_commit(caches["lookups"].clear)
