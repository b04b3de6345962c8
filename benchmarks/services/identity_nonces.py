"""Nonces the server issues for identity proofs asked with one (Azure's attested document):
the agent asks `POST runs/nonce/` with its upload token, asks IMDS for a document carrying
that nonce, and uploads it; the upload uses the nonce up. So a document is good for one
upload, by the token it was issued to, within NONCE_MINUTES.
"""

from __future__ import annotations

import datetime
import secrets

from django.db import transaction
from django.utils import timezone

from benchmarks.identity.proof import IdentityError
from benchmarks.models import IdentityNonce

NONCE_MINUTES = 10
# Unused nonces a token may hold at once; issuing one more drops its oldest.
NONCES_PER_TOKEN = 20


@transaction.atomic
def issue_nonce(*, upload_token, now: datetime.datetime | None = None) -> IdentityNonce:
    """A fresh nonce for `upload_token` (32 hex digits, as Azure's IMDS takes up to 32
    letters and digits), valid NONCE_MINUTES; the token's expired and used ones are dropped."""
    now = now or timezone.now()
    held = IdentityNonce.objects.filter(upload_token=upload_token)
    held.filter(expires_at__lte=now).delete()
    held.filter(used_at__isnull=False).delete()
    surplus = held.order_by("-issued_at", "-id").values_list("id", flat=True)[
        NONCES_PER_TOKEN - 1 :
    ]
    IdentityNonce.objects.filter(id__in=list(surplus)).delete()
    return IdentityNonce.objects.create(
        value=secrets.token_hex(16),
        upload_token=upload_token,
        issued_at=now,
        expires_at=now + datetime.timedelta(minutes=NONCE_MINUTES),
    )


def use_nonce(*, value: str, upload_token, now: datetime.datetime | None = None) -> bool:
    """Mark the nonce used, in the caller's transaction: True. False when `upload_token` used
    it already: a re-sent upload, which the caller accepts only as the run that upload
    stored. IdentityError naming it unless this server issued it to `upload_token` and it is
    unexpired."""
    now = now or timezone.now()
    if upload_token is not None:
        claimed = IdentityNonce.objects.filter(
            value=value, upload_token=upload_token, used_at__isnull=True, expires_at__gt=now
        ).update(used_at=now)
        if claimed == 1:
            return True
    nonce = IdentityNonce.objects.filter(value=value).first() if value else None
    if nonce is None:
        why = "this server did not issue it (ask POST runs/nonce/ for one)"
    elif upload_token is None or nonce.upload_token_id != upload_token.pk:
        why = "it was issued to another upload token"
    elif nonce.used_at is not None:
        return False
    else:
        why = f"it expired {nonce.expires_at.isoformat()}"
    raise nonce_refused(value, why)


def nonce_refused(value: str, why: str) -> IdentityError:
    """The 400 of a nonce refused, naming it and why."""
    return IdentityError(f"the Azure attested document's nonce {value!r} is refused: {why}")
