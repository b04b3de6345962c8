"""Failed Celery tasks in the admin, read-only."""

from django.contrib import admin

from dashboard.models import TaskFailure


@admin.register(TaskFailure)
class TaskFailureAdmin(admin.ModelAdmin):
    list_display = ["failed_at", "task_name", "task_id", "exception"]
    list_filter = ["task_name"]
    search_fields = ["task_id", "task_name", "exception"]
    readonly_fields = ["task_id", "task_name", "arguments", "exception", "traceback", "failed_at"]
    date_hierarchy = "failed_at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
