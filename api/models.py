"""Upload tokens: only a SHA-256 digest of each key is stored; the key is shown once."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class UploadToken(models.Model):
    """A revocable API key for uploads; the key itself is never stored, only its digest."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="upload_tokens"
    )
    name = models.CharField(max_length=100, blank=True, help_text="what the token is for")
    # Hex SHA-256 of the key: a key is random and long, so an unsalted fast hash is enough
    # (nothing to guess), and a lookup by digest is one indexed query.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    # The key's first characters, to tell tokens apart in the admin.
    prefix = models.CharField(max_length=8, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Null: never expires (`create_upload_token --expires-in DAYS`, PRICEBENCH_UPLOAD_TOKEN_DAYS).
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    def state(self, now) -> str:
        """ "active", "revoked" or "expired" at `now`."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"

    def refusal(self, now) -> str | None:
        """Why this token no longer authenticates at `now` (revoked, expired), or None."""
        state = self.state(now)
        if state == "active":
            return None
        since = self.revoked_at if state == "revoked" else self.expires_at
        return f"Token {state} on {since:%Y-%m-%d %H:%M} UTC: ask for a new one."

    @property
    def is_active(self) -> bool:
        """Whether the token still authenticates."""
        return self.refusal(timezone.now()) is None
