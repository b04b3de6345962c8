"""Tiny typed readers for settings from the environment; they fail loudly on bad values."""

import os
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false)")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def secret_key(*, debug: bool, development_key_file: Path) -> str:
    """SECRET_KEY from the environment; with DEBUG on, a random one kept in a file."""
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if not debug:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: production (DEBUG off) needs a long random SECRET_KEY in "
            "the environment, e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
            " (set DEBUG=true for development, which keeps a generated key in var/secret_key)"
        )
    try:
        return development_key_file.read_text().strip()
    except FileNotFoundError:
        pass
    development_key_file.parent.mkdir(parents=True, exist_ok=True)
    # Written whole to a private file, then linked into place: two processes starting at
    # once both read the first key linked, never a half-written one.
    draft = development_key_file.with_name(f".{development_key_file.name}.{os.getpid()}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_urlsafe(50))
    try:
        os.link(draft, development_key_file)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return development_key_file.read_text().strip()
