from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    """The domain: instance types, prices, benchmarks, runs and their results."""

    name = "benchmarks"
    default_auto_field = "django.db.models.BigAutoField"
