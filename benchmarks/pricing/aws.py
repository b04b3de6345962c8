"""The boto3 side: clients configured for retries, and fetchers that follow every page.

Fetchers return the raw response pages, which the readers in this package turn into
records; credentials come the usual boto3 way (environment, profile, instance role).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from benchmarks.pricing.products import (
    EBS_PROVISIONED_FAMILIES,
    EBS_STORAGE_FAMILY,
    EC2,
    ECS,
)

__all__ = ["EC2", "ECS"]

EBS_PRODUCT_FAMILIES = (EBS_STORAGE_FAMILY, *EBS_PROVISIONED_FAMILIES)

# The Price List API answers from three regions only.
PRICING_ENDPOINTS = ("us-east-1", "eu-central-1", "ap-south-1")

# Throttling (the Price List API's ThrottlingException: it allows a few calls a second; EC2's
# RequestLimitExceeded) and transient errors are retried by botocore's standard retry mode:
# up to MAX_RETRIES tries after the first, with exponential backoff and jitter (at most 20 s
# apart).
# Not "adaptive", which AWS documents as experimental and which adds a client-side rate limiter
# that one paginating client a refresh at a time does not need.
MAX_RETRIES = 10
# botocore's `max_attempts` here counts the retries, not the first try.
RETRIES = Config(retries={"mode": "standard", "max_attempts": MAX_RETRIES})

# Error codes that mean "later": still there after botocore's own retries, the caller (a task)
# retries the whole refresh with a longer backoff.
THROTTLING_CODES = frozenset(
    {
        "Throttling",
        "ThrottlingException",
        "RequestLimitExceeded",
        "TooManyRequestsException",
        "ServiceUnavailable",
        "InternalError",
        "InternalFailure",
    }
)


class AwsThrottled(Exception):
    """AWS asked us to slow down, or was briefly unavailable, beyond botocore's retries."""


EC2_ON_DEMAND_FILTERS = {
    "operatingSystem": "Linux",
    "tenancy": "Shared",
    "preInstalledSw": "NA",
    "capacitystatus": "Used",
}


def pricing_endpoint_for(region: str) -> str:
    """The Price List endpoint nearest to `region` (the answers are the same from all three)."""
    if region.startswith(("eu-", "il-", "af-")):
        return "eu-central-1"
    if region.startswith(("ap-", "me-")):
        return "ap-south-1"
    return "us-east-1"


def pricing_client(region: str, *, session: boto3.Session | None = None):
    """A Price List client on the endpoint nearest to the region whose prices are wanted."""
    session = session or boto3.Session()
    return session.client("pricing", region_name=pricing_endpoint_for(region), config=RETRIES)


def ec2_client(region: str, *, session: boto3.Session | None = None):
    """An EC2 client in the region (spot history and instance types are regional)."""
    session = session or boto3.Session()
    return session.client("ec2", region_name=region, config=RETRIES)


def _term_filters(attributes: dict[str, str]) -> list[dict[str, str]]:
    return [
        {"Type": "TERM_MATCH", "Field": field, "Value": value}
        for field, value in attributes.items()
    ]


def ec2_on_demand_filters(region: str) -> list[dict[str, str]]:
    """get_products filters for Linux, shared tenancy, no software, capacity status Used."""
    return _term_filters({"regionCode": region, **EC2_ON_DEMAND_FILTERS})


def fargate_filters(region: str) -> list[dict[str, str]]:
    """get_products filters for AmazonECS in a region: a few dozen items, Fargate's among them.

    The reader keeps the Linux Fargate rates (no filter names them all: their usage types
    differ by region).
    """
    return _term_filters({"regionCode": region})


def ebs_filters(region: str) -> list[list[dict[str, str]]]:
    """get_products filters for EBS volume rates in a region, one query per product family
    (storage per GB, provisioned IOPS, gp3's provisioned throughput): a few dozen items."""
    return [
        _term_filters({"regionCode": region, "productFamily": family})
        for family in EBS_PRODUCT_FAMILIES
    ]


RDS_PRODUCT_FAMILIES = ("Database Instance", "Database Storage", "System Operation")


def rds_filters(region: str) -> list[list[dict[str, str]]]:
    """get_products filters for AmazonRDS in a region, one query per product family: DB
    instances by the hour, Aurora's storage per GB-month and its I/O per request."""
    return [
        _term_filters({"regionCode": region, "productFamily": family})
        for family in RDS_PRODUCT_FAMILIES
    ]


def fetch_price_list(client, *, service_code: str, filters: list[dict]) -> Iterator[dict]:
    """Every page of get_products (the paginator follows NextToken)."""
    paginator = client.get_paginator("get_products")
    yield from paginator.paginate(ServiceCode=service_code, Filters=filters, FormatVersion="aws_v1")


def fetch_spot_price_history(
    client, *, at: datetime.datetime | None = None, instance_types: list[str] | None = None
) -> Iterator[dict]:
    """Every page of Linux/UNIX spot prices in force at `at` (default: now), per zone.

    With start and end at the same moment AWS answers each zone's price in force then, stamped
    with the time it was set.
    """
    at = at or datetime.datetime.now(datetime.UTC)
    arguments = {"ProductDescriptions": ["Linux/UNIX"], "StartTime": at, "EndTime": at}
    if instance_types:
        arguments["InstanceTypes"] = instance_types
    paginator = client.get_paginator("describe_spot_price_history")
    yield from paginator.paginate(**arguments)


def fetch_instance_types(client) -> Iterator[dict]:
    """Every page of describe_instance_types in the client's region."""
    yield from client.get_paginator("describe_instance_types").paginate()


def collect(pages: Iterator[dict]) -> list[dict]:
    """Every page of a fetch, with throttling turned into AwsThrottled (worth retrying)."""
    try:
        return list(pages)
    except ClientError as error:
        code = error.response.get("Error", {}).get("Code", "")
        if code in THROTTLING_CODES:
            raise AwsThrottled(str(error)) from error
        raise
