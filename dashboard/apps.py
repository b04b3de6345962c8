"""The project's own app: operations models and the Celery task signals."""

from django.apps import AppConfig


class DashboardConfig(AppConfig):
    """Connects the task log signals once Django is ready."""

    name = "dashboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from dashboard import task_log  # noqa: F401 (connects the signals)
