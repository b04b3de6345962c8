"""How long a process trusts what it read of the data's last change.

Reads that a page or the API serves often look up their benchmark and region (with the
stamps of their last change) once per PRICEBENCH_FRESHNESS_SECONDS per process, so that a
cached answer costs no query; a region's whole price list, which a question of many types
reads, and the instance types' columns read with kept statistics are kept as long
(`kept_read`, `keep`), or, read with their data's stamp, as long as the stamp stays the same.
Writes forget all of these on commit in their own process; other processes see a change
within the window.
"""

from __future__ import annotations

import collections
import hashlib
import time
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


# What `kept_read` holds: key -> (monotonic time it was read, its stamp or None, value).
_KEPT: dict[str, tuple[float, Any, Any]] = {}
# Past this many keys all go (the keys are a region's prices by way to buy, and the machines
# read with kept statistics: a few dozen in use).
KEPT_KEYS = 256
# What `kept_read(large=True)` holds, least recently used first: a question's statistics rows
# (a thousand rows, about a megabyte each) and what its answer's standing keeps of them
# (selectors/answer/standing.py, a quarter of that), so only a few of each.
_LARGE: collections.OrderedDict[str, tuple[float, Any, Any]] = collections.OrderedDict()
LARGE_KEYS = 16
# Past LARGE_KEYS, the least recently used go once an answer is sent (`let_go`, on Django's
# request_finished), not in the middle of the next answer: letting a thousand rows go took
# 0.4 ms of a cold answer at 10M (docs/performance.md). Outside requests (a task, a
# command), past this many.
LARGE_KEYS_AT_MOST = 2 * LARGE_KEYS
# How long a read kept with its stamp lasts at most. Every write of what such a read holds
# moves its stamp (a region's `prices_updated_at`: its prices, and every type's
# specifications; a benchmark's `stats_updated_at`: its statistics): this only bounds what a
# write that forgot to would leave stale.
STAMPED_SECONDS = 300


def kept_read(key: str, read: Callable[[], T], *, stamp: Any = None, large: bool = False) -> T:
    """`cached_read` for what is read whole and then only looked into: the object itself is
    kept, not a pickled copy (the cache's `get` would unpickle a thousand rows each time, as
    long as reading them again). The value is shared: never change it.

    `stamp`: when the data read last changed, as the question looked it up (itself at most
    PRICEBENCH_FRESHNESS_SECONDS old): what was read is then kept while the stamp stays the
    same, instead of being read again every window, which cost the answer that did it a
    fifth of its time (docs/performance.md). `large`: one of the few large values kept
    (LARGE_KEYS, the least recently used going first)."""
    found = kept(key, stamp=stamp, large=large)
    if found is None:
        found = read()
        keep(key, found, stamp=stamp, large=large)
    return found


def kept(key: str, *, stamp: Any = None, large: bool = False) -> Any | None:
    """What was kept under `key` less than PRICEBENCH_FRESHNESS_SECONDS ago, or None; with
    `stamp`, what was kept with that same stamp less than STAMPED_SECONDS ago."""
    seconds = settings.PRICEBENCH_FRESHNESS_SECONDS
    if seconds <= 0:
        return None
    store = _LARGE if large else _KEPT
    found = store.get(key)
    if found is None:
        return None
    read_at, kept_stamp, value = found
    if stamp is not None and kept_stamp == stamp:
        seconds = STAMPED_SECONDS
    if time.monotonic() >= read_at + seconds:
        return None
    if large:
        _LARGE.move_to_end(key)
    return value


def keep(key: str, value: Any, *, stamp: Any = None, large: bool = False) -> None:
    """Keep `value` (as it is) for PRICEBENCH_FRESHNESS_SECONDS in this process, or with
    `stamp` while it stays the same (`kept`). Whoever reads it shares it: its owner may add to
    it, nobody changes what it holds."""
    if settings.PRICEBENCH_FRESHNESS_SECONDS <= 0:
        return
    entry = (time.monotonic(), stamp, value)
    if large:
        _LARGE[key] = entry
        _LARGE.move_to_end(key)
        while len(_LARGE) > LARGE_KEYS_AT_MOST:
            _LARGE.popitem(last=False)
        return
    if len(_KEPT) >= KEPT_KEYS:
        _KEPT.clear()
    _KEPT[key] = entry


def let_go(**_signal) -> None:
    """The large values kept past LARGE_KEYS go, the least recently used first (connected to
    request_finished, which Django sends once a response is sent: benchmarks/apps.py)."""
    while len(_LARGE) > LARGE_KEYS:
        _LARGE.popitem(last=False)


def forget() -> None:
    """This process forgets every lookup and every read kept."""
    caches["lookups"].clear()
    _KEPT.clear()
    _LARGE.clear()


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
    forget()
    transaction.on_commit(forget)
