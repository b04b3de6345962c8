"""Celery tasks: thin wrappers that load by id and call one service."""

import datetime

from botocore.exceptions import (
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)
from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from benchmarks import inspector
from benchmarks.models import PriceRefresh, Run
from benchmarks.pricing.aws import AwsThrottled
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from benchmarks.services import sparecores as sparecores_services
from benchmarks.services import statistics

# Ingestion tasks: acknowledged once done (a lost worker's delivery comes again), and
# transient database trouble (a restart, a dropped connection) retried with backoff.
DELIVERED_AGAIN = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(
    **DELIVERED_AGAIN,
    # Past the retries, the sweep below hands the run out again.
    soft_time_limit=settings.PRICEBENCH_INGEST_SECONDS,
    time_limit=settings.PRICEBENCH_INGEST_SECONDS + 30,
)
def ingest_run(run_id: int) -> str:
    """Parse and store one uploaded run; safe to deliver twice (the service is idempotent)."""
    try:
        return run_services.ingest_run(run_id=run_id).status
    except Run.DoesNotExist:
        # Deleted (DELETE runs/ID/) after it was queued: nothing to do.
        return "deleted"
    except SoftTimeLimitExceeded:
        return run_services.fail_run(
            run_id=run_id,
            reason=f"parsing took longer than {settings.PRICEBENCH_INGEST_SECONDS} s",
        ).status


@shared_task
def requeue_stale_runs() -> dict[str, int]:
    """Every PRICEBENCH_SWEEP_SECONDS (5 s): runs left pending (broker down at upload or
    restarted without persistence, worker lost) are queued again."""
    return run_services.requeue_stale_runs(
        older_than=datetime.timedelta(seconds=settings.PRICEBENCH_REQUEUE_AFTER_SECONDS),
        max_attempts=settings.PRICEBENCH_MAX_QUEUE_ATTEMPTS,
    )


@shared_task(
    **DELIVERED_AGAIN,
    # `import_sparecores` waits for each type's summary.
    ignore_result=False,
)
def import_sparecores_machine(machine: dict, kinds: list[str] | None = None) -> dict:
    """One instance type of Spare Cores' data (its files' contents, as the command read them)
    stored in one transaction; safe to deliver twice."""
    summary = sparecores_services.import_machine(
        inspector.Machine.from_payload(machine), kinds=kinds
    )
    return summary.as_dict()


# ---- AWS prices: Celery beat runs the two refreshes (CELERY_BEAT_SCHEDULE) -------------

# Worth trying again later: AWS throttling us beyond botocore's own retries, the network, or
# the database. Anything else (no credentials, access denied, bad data) fails at once.
TRANSIENT_PRICE_ERRORS = (
    AwsThrottled,
    EndpointConnectionError,
    ConnectTimeoutError,
    ReadTimeoutError,
    ConnectionClosedError,
    OperationalError,
    InterfaceError,
)


@shared_task
def refresh_on_demand_prices() -> list[str]:
    """Daily: on-demand EC2 prices and Fargate rates, one task per region in PRICEBENCH_REGIONS."""
    for region in settings.PRICEBENCH_REGIONS:
        refresh_region_prices.delay(kind=PriceRefresh.Kind.ON_DEMAND, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task
def refresh_spot_prices() -> list[str]:
    """Hourly: spot prices per availability zone, one task per region in PRICEBENCH_REGIONS."""
    for region in settings.PRICEBENCH_REGIONS:
        refresh_region_prices.delay(kind=PriceRefresh.Kind.SPOT, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task
def refresh_instance_specs() -> list[str]:
    """Weekly: instance specifications (vCPUs, cores, memory...) from describe_instance_types."""
    for region in settings.PRICEBENCH_REGIONS:
        refresh_region_prices.delay(kind=PriceRefresh.Kind.SPECS, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task
def keep_noise() -> int:
    """Every ten minutes: the noise of each benchmark whose statistics changed since it was
    measured (services/statistics/noise.py)."""
    return statistics.keep_noise()


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=TRANSIENT_PRICE_ERRORS,
    retry_backoff=30,
    retry_backoff_max=30 * 60,
    retry_jitter=True,
    max_retries=5,
)
def refresh_region_prices(self, kind: str, region: str) -> int:
    """One region's refresh in one transaction; every attempt is recorded as a PriceRefresh."""
    attempt = self.request.retries + 1
    return price_services.run_refresh(kind=kind, region=region, attempt=attempt).pk
