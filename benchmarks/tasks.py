"""Celery tasks: thin wrappers that load by id and call one service."""

from botocore.exceptions import (
    ConnectionClosedError,
    ConnectTimeoutError,
    EndpointConnectionError,
    ReadTimeoutError,
)
from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from benchmarks import inspector
from benchmarks.models import PriceRefresh
from benchmarks.pricing.aws import AwsThrottled
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from benchmarks.services import sparecores as sparecores_services


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


@shared_task(
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=2,
    retry_backoff_max=60,
    max_retries=8,
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
        refresh_region_prices.delay(source=PriceRefresh.Source.ON_DEMAND, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task
def refresh_spot_prices() -> list[str]:
    """Hourly: spot prices per availability zone, one task per region in PRICEBENCH_REGIONS."""
    for region in settings.PRICEBENCH_REGIONS:
        refresh_region_prices.delay(source=PriceRefresh.Source.SPOT, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task
def refresh_instance_specs() -> list[str]:
    """Weekly: instance specifications (vCPUs, cores, memory...) from describe_instance_types."""
    for region in settings.PRICEBENCH_REGIONS:
        refresh_region_prices.delay(source=PriceRefresh.Source.SPECS, region=region)
    return list(settings.PRICEBENCH_REGIONS)


@shared_task(
    bind=True,
    acks_late=True,
    autoretry_for=TRANSIENT_PRICE_ERRORS,
    retry_backoff=30,
    retry_backoff_max=30 * 60,
    retry_jitter=True,
    max_retries=5,
)
def refresh_region_prices(self, source: str, region: str) -> int:
    """One region's refresh in one transaction; every attempt is recorded as a PriceRefresh."""
    attempt = self.request.retries + 1
    return price_services.run_refresh(source=source, region=region, attempt=attempt).pk
