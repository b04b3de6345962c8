"""Upload tokens: create one (its key returned once), check a key, revoke, expire."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from api.models import UploadToken

# A token's last use is written at most this often (not on every request).
LAST_USED_RESOLUTION = datetime.timedelta(minutes=1)
# `expires_at` left to the setting PRICEBENCH_UPLOAD_TOKEN_DAYS (unset: never expires).
DEFAULT_EXPIRY = object()


class TokenRefused(Exception):
    """A key that does not authenticate; the message says why (unknown, revoked, expired)."""


def key_digest(key: str) -> str:
    """The hex SHA-256 of a key, as stored."""
    return hashlib.sha256(key.encode()).hexdigest()


def expiry_after(days: int | None, *, now: datetime.datetime | None = None):
    """When a token made now for `days` days expires; None for never (days None or 0)."""
    if not days:
        return None
    return (now or timezone.now()) + datetime.timedelta(days=days)


def default_expiry(*, now: datetime.datetime | None = None):
    """The expiry of a token made now when none is given: PRICEBENCH_UPLOAD_TOKEN_DAYS."""
    return expiry_after(settings.PRICEBENCH_UPLOAD_TOKEN_DAYS, now=now)


@transaction.atomic
def create_upload_token(
    *, user, name: str = "", expires_at=DEFAULT_EXPIRY
) -> tuple[UploadToken, str]:
    """A new token for `user` and its key, which is stored nowhere: show it once.

    `expires_at` is a datetime, None for never, or left out for the configured default.
    """
    if expires_at is DEFAULT_EXPIRY:
        expires_at = default_expiry()
    # Hex: a URL-safe key starts with "-" one time in 64, and `--token -Xy...` then reads as
    # an option to the agent, curl and every other command line.
    key = secrets.token_hex(32)
    token = UploadToken.objects.create(
        user=user, name=name, digest=key_digest(key), prefix=key[:8], expires_at=expires_at
    )
    return token, key


def authenticated_token(key: str) -> UploadToken:
    """The token whose key this is (its user loaded), if it still authenticates.

    Raises TokenRefused saying why not: unknown key ("Invalid token.", DRF's words, which the
    agent and scripts know), revoked or expired (with the date: the key was once good, so
    saying so tells a guesser nothing, and tells its holder what to do).
    """
    token = UploadToken.objects.select_related("user").filter(digest=key_digest(key)).first()
    if token is None:
        raise TokenRefused("Invalid token.")
    now = timezone.now()
    refusal = token.refusal(now)
    if refusal is not None:
        raise TokenRefused(refusal)
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        UploadToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke_upload_tokens(tokens: QuerySet) -> int:
    """Revoke the given tokens (a queryset); answers how many were still unrevoked."""
    return tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def tokens_matching(text: str) -> QuerySet:
    """Tokens named by `text`: a key prefix (4 characters or more), a token name or a user."""
    match = Q(name=text) | Q(user__username=text)
    if len(text) >= 4:
        match |= Q(prefix__startswith=text.lower())
    return UploadToken.objects.select_related("user").filter(match)
