"""`Authorization: Token <key>`, checked against the stored digests of upload tokens."""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from api.tokens import active_token


class UploadTokenAuthentication(TokenAuthentication):
    """DRF token authentication whose keys are looked up by their SHA-256 digest."""

    def authenticate_credentials(self, key):
        token = active_token(key)
        if token is None:
            # DRF's own words, which the agent and scripts already know; a revoked key is
            # told apart from a wrong one nowhere.
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
