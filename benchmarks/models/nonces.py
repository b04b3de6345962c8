"""Nonces the server issues to an upload token for a proof asked with one (Azure's attested
document): each is used once, before it expires (services/identity_nonces.py)."""

from __future__ import annotations

from django.db import models


class IdentityNonce(models.Model):
    """A nonce issued to one upload token; `used_at` is set by the upload that carried it."""

    value = models.CharField(max_length=32, unique=True)
    upload_token = models.ForeignKey(
        "api.UploadToken", on_delete=models.CASCADE, related_name="identity_nonces"
    )
    issued_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["upload_token", "issued_at"])]

    def __str__(self) -> str:
        return f"nonce {self.value} ({'used' if self.used_at else 'unused'})"
