from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """The domain: instance types, prices, benchmarks, runs and their results."""

    name = "benchmarks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.core.signals import request_finished

        from benchmarks import freshness

        # What a process keeps past its bound goes once each answer is sent.
        request_finished.connect(freshness.let_go, dispatch_uid="freshness.let_go")
