"""Celery tasks: thin wrappers that load by id and call one service."""

from celery import shared_task
from django.db import InterfaceError, OperationalError

from benchmarks.services import runs as run_services


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    # Transient database trouble (a restart, a dropped connection) is retried.
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
)
def ingest_run(run_id: int) -> str:
    """Parse and store one uploaded run; safe to deliver twice (the service is idempotent)."""
    return run_services.ingest_run(run_id=run_id).status
