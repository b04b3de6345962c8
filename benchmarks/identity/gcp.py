"""Google Cloud's instance identity token (a JWT that Google signs, RS256), checked against
Google's published keys, which PyJWT's JWKS client fetches and caches.

The agent asks the metadata server for a token with `format=full`, made out to the server it
uploads to: the token then names the instance, its project and zone. It does not name the
machine type, so a Google proof checks the region, never the type.
"""

from __future__ import annotations

import datetime
import functools

import jwt
from django.conf import settings

from benchmarks.errors import DomainError
from benchmarks.identity.proof import Identity, IdentityError

GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"]
# How long fetched keys are kept (Google rotates them every few weeks, announcing new ones).
KEYS_CACHE_SECONDS = 3600


@functools.cache
def _keys(url: str) -> jwt.PyJWKClient:
    return jwt.PyJWKClient(url, cache_jwk_set=True, lifespan=KEYS_CACHE_SECONDS, timeout=10)


def verify_token(token: str, *, audience: str) -> Identity:
    """The instance a Google identity token names; IdentityError when it does not verify."""
    try:
        key = _keys(settings.PRICEBENCH_GOOGLE_CERTS_URL).get_signing_key_from_jwt(token)
    except jwt.PyJWKClientConnectionError as error:
        raise DomainError(
            f"Google's keys could not be fetched to check the identity token: {error}",
            field="identity",
            status_code=503,
        ) from None
    except jwt.PyJWTError as error:
        raise IdentityError(f"the Google identity token does not verify: {error}") from None
    try:
        claims = jwt.decode(
            token,
            key.key,
            algorithms=["RS256"],
            audience=audience,
            issuer=GOOGLE_ISSUERS,
            options={"require": ["exp", "iat", "aud", "iss"]},
        )
    except jwt.PyJWTError as error:
        raise IdentityError(f"the Google identity token does not verify: {error}") from None
    instance = (claims.get("google") or {}).get("compute_engine") or {}
    zone = str(instance.get("zone") or "")
    if not zone or not instance.get("instance_id"):
        raise IdentityError(
            "the Google identity token names no Compute Engine instance (ask it with format=full)"
        )
    created = instance.get("instance_creation_timestamp")
    return Identity(
        cloud="gcp",
        instance_type=None,
        region=zone.rsplit("-", 1)[0],
        instance_id=str(instance["instance_id"]),
        account=str(instance.get("project_id") or ""),
        started_at=(
            datetime.datetime.fromtimestamp(int(created), tz=datetime.UTC) if created else None
        ),
    )
