"""`Authorization: Token <key>`, checked against the stored digests of upload tokens."""

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from api.tokens import TokenRefused, authenticated_token


class UploadTokenAuthentication(TokenAuthentication):
    """DRF token authentication whose keys are looked up by their SHA-256 digest; a revoked
    or expired key is refused (401) with a message that says so."""

    def authenticate_credentials(self, key):
        try:
            token = authenticated_token(key)
        except TokenRefused as refused:
            raise exceptions.AuthenticationFailed(str(refused)) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
