"""Celery beat's schedule names tasks that exist."""

from django.conf import settings

from dashboard.celery import app


def test_every_scheduled_task_is_registered():
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry["task"]


def test_the_upload_task_acknowledges_late_so_a_killed_worker_loses_nothing():
    app.loader.import_default_modules()
    task = app.tasks["benchmarks.tasks.ingest_run"]
    assert task.acks_late and task.reject_on_worker_lost
