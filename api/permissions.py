"""Who may change what through the API."""

from rest_framework import permissions

from api.models import UploadToken


class IsUploaderOrStaffOrReadOnly(permissions.BasePermission):
    """Reads for everyone; a run is deleted only by the user who uploaded it, or staff."""

    message = "Only the run's uploader or staff may delete it."

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        return bool(user and user.is_authenticated) and (
            user.is_staff or obj.uploaded_by_id == user.pk
        )


class HasUploadToken(permissions.BasePermission):
    """The request is authenticated by an upload token (not a browser's session)."""

    message = "This needs an upload token: send Authorization: Token <key>."

    def has_permission(self, request, view):
        return isinstance(request.auth, UploadToken)


class IsRunsUploadToken(permissions.BasePermission):
    """On a run: only the upload token that uploaded it (not another token of the same user)."""

    message = "Only the upload token that uploaded this run may withdraw it."

    def has_object_permission(self, request, view, obj):
        return obj.upload_token_id is not None and obj.upload_token_id == request.auth.pk
