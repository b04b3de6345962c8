"""The one Celery app, configured from Django settings (CELERY_* names)."""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")

app = Celery("pricebench")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def keep_connections(sender=None, **kwargs) -> None:
    """A worker keeps its database connection between tasks as gunicorn does between
    requests: closed when older than DATABASE_CONN_MAX_AGE or broken, and checked before its
    next use. Celery's own handler closes it around every task (unless CELERY_DB_REUSE_MAX
    says otherwise), and a new PostgreSQL backend for each ingest cost about a sixth of the
    database's CPU an upload (docs/performance.md). Tasks run in-process (eager) belong to
    their caller's connection and transaction, and are left alone.
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
