"""Upload tokens: create one (its key returned once), check a key, revoke."""

from __future__ import annotations

import datetime
import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from api.models import UploadToken

# A token's last use is written at most this often (not on every request).
LAST_USED_RESOLUTION = datetime.timedelta(minutes=1)


def key_digest(key: str) -> str:
    """The hex SHA-256 of a key, as stored."""
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def create_upload_token(*, user, name: str = "") -> tuple[UploadToken, str]:
    """A new token for `user` and its key, which is stored nowhere: show it once."""
    # Hex: a URL-safe key starts with "-" one time in 64, and `--token -Xy...` then reads as
    # an option to the agent, curl and every other command line.
    key = secrets.token_hex(32)
    token = UploadToken.objects.create(user=user, name=name, digest=key_digest(key), prefix=key[:8])
    return token, key


def active_token(key: str) -> UploadToken | None:
    """The unrevoked token whose key this is (its user loaded), or None."""
    token = (
        UploadToken.objects.select_related("user")
        .filter(digest=key_digest(key), revoked_at__isnull=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        UploadToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def revoke_upload_tokens(tokens) -> int:
    """Revoke the given tokens (a queryset); answers how many were still active."""
    return tokens.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
