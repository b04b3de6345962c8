"""Who may change what through the API."""

from rest_framework import permissions


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
