"""AWS's refresh of prices: ask the Price List API or EC2 for one region, store what it says,
and keep a record of each scheduled refresh."""

from __future__ import annotations

from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import PriceRefresh, Region
from benchmarks.pricing import aws
from benchmarks.pricing.products import ECS, RDS
from benchmarks.services.prices.importers import (
    import_instance_types,
    import_price_list,
    import_spot_history,
)
from benchmarks.services.prices.other_clouds import (
    import_azure_retail_api,
    import_gcp_skus_api,
    import_hetzner_api,
)
from benchmarks.services.prices.periods import ImportSummary

API_SERVICES = ("ec2", "fargate", "ebs", "rds", "spot", "specs", "azure", "hetzner", "gcp")


def _known_region(region: str) -> None:
    if not Region.objects.filter(code=region).exists():
        raise DomainError(f"{region!r} is not an AWS region pricebench knows", field="region")


def _price_list_pages(*, service: str, region: str, session=None) -> tuple[list[dict], str]:
    """The Price List API's pages for one region's "ec2", "fargate", "ebs" or "rds" prices, and
    the source they are stored under."""
    endpoint = aws.pricing_endpoint_for(region)
    client = aws.pricing_client(region, session=session)
    if service == "ec2":
        queries = [(aws.EC2, aws.ec2_on_demand_filters(region))]
    elif service == "fargate":
        queries = [(ECS, aws.fargate_filters(region))]
    elif service == "rds":
        queries = [(RDS, filters) for filters in aws.rds_filters(region)]
    else:
        queries = [(aws.EC2, filters) for filters in aws.ebs_filters(region)]
    pages = [
        page
        for service_code, filters in queries
        for page in aws.collect(
            aws.fetch_price_list(client, service_code=service_code, filters=filters)
        )
    ]
    return pages, f"AWS Price List API, get_products on {endpoint}, fetched {timezone.now().date()}"


def import_from_api(*, service: str, region: str, session=None) -> ImportSummary:
    """Fetch one kind of price for one region from AWS, then store it in one transaction.

    `service`: "ec2" (on-demand prices), "fargate" (rates), "ebs" (EBS volume rates), "rds"
    (DB instance prices and Aurora's storage and I/O rates), "spot"
    (prices in force now, per zone), "specs" (describe_instance_types), "azure" (Azure's
    Retail Prices API: its virtual machines in one of its regions), "hetzner" (Hetzner
    Cloud's server types, one location's prices) or "gcp" (Google's Cloud Billing Catalog,
    one region's machine types). The vendor is asked before the transaction opens.
    """
    if service not in API_SERVICES:
        raise DomainError(f"service {service!r} is not one of {', '.join(API_SERVICES)}")
    if service == "azure":
        # Azure's own regions (westus2): its prices create the ones not known yet.
        return import_azure_retail_api(region=region)
    if service == "hetzner":
        return import_hetzner_api(location=region)
    if service == "gcp":
        return import_gcp_skus_api(region=region)
    _known_region(region)
    if service in ("ec2", "fargate", "ebs", "rds"):
        pages, source = _price_list_pages(service=service, region=region, session=session)
        return import_price_list(pages=pages, source=source)
    client = aws.ec2_client(region, session=session)
    if service == "spot":
        now = timezone.now()
        pages = aws.collect(aws.fetch_spot_price_history(client, at=now))
        source = f"EC2 describe_spot_price_history in {region}, fetched {now:%Y-%m-%d %H:%M} UTC"
        return import_spot_history(pages=pages, source=source, region=region)
    pages = aws.collect(aws.fetch_instance_types(client))
    source = f"EC2 describe_instance_types in {region}, fetched {timezone.now().date()}"
    return import_instance_types(pages=pages, source=source)


def refresh_region(*, kind: str, region: str, session=None) -> ImportSummary:
    """One scheduled refresh of a region (`PriceRefresh.Kind`): the same paths as
    `import_prices --api`; on-demand EC2 prices and Fargate rates land in one transaction."""
    if kind == PriceRefresh.Kind.ON_DEMAND:
        _known_region(region)
        ec2_pages, source = _price_list_pages(service="ec2", region=region, session=session)
        ecs_pages, _ = _price_list_pages(service="fargate", region=region, session=session)
        return import_price_list(pages=ec2_pages + ecs_pages, source=source)
    if kind == PriceRefresh.Kind.SPOT:
        return import_from_api(service="spot", region=region, session=session)
    if kind == PriceRefresh.Kind.SPECS:
        return import_from_api(service="specs", region=region, session=session)
    raise DomainError(f"kind {kind!r} is not one of {', '.join(PriceRefresh.Kind.values)}")


def run_refresh(*, kind: str, region: str, attempt: int = 1, session=None) -> PriceRefresh:
    """Refresh a region and record the outcome as a PriceRefresh, failed ones included.

    Not atomic on purpose: the record of a failed refresh must outlive the rolled-back
    refresh it describes. The error is raised again for the caller (a task) to retry.
    """
    refresh = PriceRefresh.objects.create(kind=kind, region=region, attempt=attempt)
    try:
        summary = refresh_region(kind=kind, region=region, session=session)
    except Exception as error:
        refresh.status = PriceRefresh.Status.FAILED
        refresh.error = f"{type(error).__name__}: {error}"
        refresh.finished_at = timezone.now()
        refresh.save(update_fields=["status", "error", "finished_at"])
        raise
    refresh.status = PriceRefresh.Status.OK
    refresh.read, refresh.matched = summary.read, summary.matched
    refresh.stored, refresh.unchanged, refresh.skipped = (
        summary.stored,
        summary.unchanged,
        summary.skipped,
    )
    refresh.error = "; ".join(summary.notes)
    refresh.finished_at = timezone.now()
    refresh.save()
    return refresh
