"""Upload tokens in the admin: listed, revocable, and created with their key shown once."""

from django.contrib import admin, messages
from django.utils import timezone
from rest_framework.authtoken.admin import TokenProxy

from api.models import UploadToken
from api.tokens import DEFAULT_EXPIRY, create_upload_token, revoke_upload_tokens

# Plain-text DRF tokens are no longer used (their keys were hashed into UploadToken).
admin.site.unregister(TokenProxy)


@admin.register(UploadToken)
class UploadTokenAdmin(admin.ModelAdmin):
    list_display = [
        "prefix",
        "user",
        "name",
        "created_at",
        "expires_at",
        "revoked_at",
        "last_used_at",
        "state",
    ]
    list_filter = [
        ("revoked_at", admin.EmptyFieldListFilter),
        ("expires_at", admin.EmptyFieldListFilter),
    ]
    search_fields = ["user__username", "name", "prefix"]
    list_select_related = ["user"]
    readonly_fields = ["prefix", "created_at", "last_used_at"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user", "name", "expires_at"]
        return [
            "user",
            "name",
            "prefix",
            "created_at",
            "expires_at",
            "revoked_at",
            "last_used_at",
        ]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["user", "prefix", "created_at", "last_used_at"]

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        # Left blank: the default lifetime (PRICEBENCH_UPLOAD_TOKEN_DAYS; 0: no expiry).
        token, key = create_upload_token(
            user=obj.user, name=obj.name, expires_at=obj.expires_at or DEFAULT_EXPIRY
        )
        # The admin's own messages and log name the object it was given.
        obj.pk, obj.prefix, obj.digest, obj.created_at, obj.expires_at = (
            token.pk,
            token.prefix,
            token.digest,
            token.created_at,
            token.expires_at,
        )
        messages.warning(
            request,
            f"The key of token {token.prefix}… is {key} — copy it now: it is not stored and "
            "will not be shown again.",
        )

    @admin.display(description="state")
    def state(self, token: UploadToken) -> str:
        return token.state(timezone.now())

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        revoked = revoke_upload_tokens(queryset)
        self.message_user(request, f"{revoked} token(s) revoked.")
