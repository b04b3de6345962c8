"""Upload tokens in the admin: listed, revocable, and created with their key shown once."""

from django.contrib import admin, messages
from rest_framework.authtoken.admin import TokenProxy

from api.models import UploadToken
from api.tokens import create_upload_token, revoke_upload_tokens

# Plain-text DRF tokens are no longer used (their keys were hashed into UploadToken).
admin.site.unregister(TokenProxy)


@admin.register(UploadToken)
class UploadTokenAdmin(admin.ModelAdmin):
    list_display = ["prefix", "user", "name", "created_at", "last_used_at", "revoked_at"]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["user__username", "name", "prefix"]
    list_select_related = ["user"]
    readonly_fields = ["prefix", "created_at", "last_used_at"]
    actions = ["revoke"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["user", "name"]
        return ["user", "name", "prefix", "created_at", "last_used_at", "revoked_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["user", "prefix", "created_at", "last_used_at"]

    def save_model(self, request, obj, form, change):
        if change:
            return super().save_model(request, obj, form, change)
        token, key = create_upload_token(user=obj.user, name=obj.name)
        # The admin's own messages and log name the object it was given.
        obj.pk, obj.prefix, obj.digest, obj.created_at = (
            token.pk,
            token.prefix,
            token.digest,
            token.created_at,
        )
        messages.warning(
            request,
            f"The key of token {token.prefix}… is {key} — copy it now: it is not stored and "
            "will not be shown again.",
        )

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        revoked = revoke_upload_tokens(queryset)
        self.message_user(request, f"{revoked} token(s) revoked.")
