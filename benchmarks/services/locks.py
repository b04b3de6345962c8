"""Locks that make a second run of a long write wait for the first (two `loaddemo` at once).

On PostgreSQL a session-level advisory lock, held across the many transactions of a load and
released when the session ends, even if the process is killed. On SQLite, which has one
writer anyway but fails a writer that waits too long, an exclusive `flock` on a file next to
the database. Elsewhere (an in-memory test database) nothing is locked.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path

from django.db import connection

# The lock Spare Cores imports take in turn (`import_sparecores`, `loaddemo`'s rest part): two
# at once would both create the same new instance types and runs.
SPARECORES_IMPORT = "pricebench-sparecores-import"


def lock_key(name: str) -> int:
    """A stable signed 64-bit advisory lock key for a name (the same in every process)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextlib.contextmanager
def exclusive(name: str, *, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold the lock `name` for the block; if another process holds it, call `waiting()` once
    and wait until it lets go."""
    if connection.vendor == "postgresql":
        with _advisory_lock(lock_key(name), waiting):
            yield
        return
    path = _sqlite_lock_path(name)
    if path is None:
        yield
        return
    with _file_lock(path, waiting):
        yield


@contextlib.contextmanager
def _advisory_lock(key: int, waiting: Callable[[], None] | None) -> Iterator[None]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        if not cursor.fetchone()[0]:
            if waiting:
                waiting()
            cursor.execute("SELECT pg_advisory_lock(%s)", [key])
    try:
        yield
    finally:
        # The session may have been closed meanwhile, which released the lock already.
        if connection.connection is not None:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def _sqlite_lock_path(name: str) -> Path | None:
    if connection.vendor != "sqlite":
        return None
    database = str(connection.settings_dict["NAME"])
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(f"{database}.{name}.lock")


@contextlib.contextmanager
def _file_lock(path: Path, waiting: Callable[[], None] | None) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting:
                waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
