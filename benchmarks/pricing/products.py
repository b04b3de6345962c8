"""Which Price List products are Linux on-demand EC2 prices or Fargate rates, and at what price.

The Price List API and the bulk offer files describe products the same way (a SKU, a product
family, attributes) and price them in terms; both readers use these rules.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from benchmarks.pricing.records import (
    ON_DEMAND,
    FargateRateRecord,
    PriceRecord,
    parse_day,
    parse_usd,
    region_of,
)

EC2 = "AmazonEC2"
ECS = "AmazonECS"

INSTANCE_TYPE_NAME = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9-]+$")

# USE1-Fargate-vCPU-Hours:perCPU, USE1-Fargate-ARM-GB-Hours, USE1-Fargate-EphemeralStorage-GB-Hours.
# Windows (Fargate-Windows-...), ECS Anywhere and EC2 metering do not match.
FARGATE_USAGE_TYPE = re.compile(
    r"^(?:[A-Z0-9]+-)?Fargate-"
    r"(?:(?P<arm>ARM-)?(?P<compute>vCPU-Hours:perCPU|GB-Hours)|EphemeralStorage-GB-Hours)$"
)
FARGATE_COMPONENT = {"vCPU-Hours:perCPU": "vcpu", "GB-Hours": "memory_gb"}

# A matching product, kept small because an offer file's matches wait in memory for its terms:
# ("ec2", instance type, region) or ("fargate", region, architecture, component).
ProductMatch = tuple[str, ...]


def ec2_on_demand_match(attributes: dict) -> ProductMatch | None:
    """An EC2 product sold on demand to run plain Linux on shared hardware, else None.

    Windows, RHEL, SUSE, Ubuntu Pro, SQL Server or other pre-installed software, dedicated or
    host tenancy, and capacity reservations (capacitystatus other than "Used") are other prices.
    """
    if (
        attributes.get("operatingSystem") != "Linux"
        or attributes.get("tenancy") != "Shared"
        or attributes.get("preInstalledSw") != "NA"
        or attributes.get("capacitystatus") != "Used"
    ):
        return None
    # Capacity Blocks are sold by the block, not on demand; older products lack the attribute.
    if (attributes.get("marketoption") or "OnDemand") != "OnDemand":
        return None
    instance_type = attributes.get("instanceType") or ""
    if not INSTANCE_TYPE_NAME.match(instance_type):
        return None
    region = region_of(attributes)
    if region is None:
        return None
    return ("ec2", instance_type, region)


def fargate_match(attributes: dict) -> ProductMatch | None:
    """A Linux Fargate vCPU-hour, GB-hour or ephemeral-storage rate, else None."""
    if (attributes.get("operatingSystem") or "Linux") != "Linux":
        return None
    found = FARGATE_USAGE_TYPE.match(attributes.get("usagetype") or "")
    if found is None:
        return None
    region = region_of(attributes)
    if region is None:
        return None
    if found["compute"] is None:
        return ("fargate", region, "any", "ephemeral_storage_gb")
    architecture = "arm64" if found["arm"] else "x86_64"
    return ("fargate", region, architecture, FARGATE_COMPONENT[found["compute"]])


def match_product(service_code: str, attributes: dict) -> ProductMatch | None:
    """The rule for the product's service: EC2 on-demand prices or Fargate rates."""
    if service_code == EC2:
        return ec2_on_demand_match(attributes)
    if service_code == ECS:
        return fargate_match(attributes)
    return None


def on_demand_price(terms: dict, *, where: str) -> tuple[Decimal, datetime.date] | None:
    """The hourly USD price of a product's on-demand term and the day it took effect.

    None when there is no single flat USD price above zero (tiered or free usage, other
    currencies): such a product has no hourly price to compare.
    """
    if len(terms) != 1:
        return None
    (term,) = terms.values()
    dimensions = term.get("priceDimensions") or {}
    if len(dimensions) != 1:
        return None
    (dimension,) = dimensions.values()
    usd = (dimension.get("pricePerUnit") or {}).get("USD")
    if usd is None:
        return None
    price = parse_usd(usd, where=where)
    if price == 0:
        return None
    return price, parse_day(term.get("effectiveDate"), where=f"{where} effectiveDate")


def make_record(
    match: ProductMatch, price: Decimal, day: datetime.date, source: str
) -> PriceRecord | FargateRateRecord:
    """The record a matching product and its on-demand price make."""
    if match[0] == "ec2":
        _, instance_type, region = match
        return PriceRecord(
            instance_type=instance_type,
            region=region,
            purchase_option=ON_DEMAND,
            usd_per_hour=price,
            effective_from=day,
            source=source,
        )
    _, region, architecture, component = match
    return FargateRateRecord(
        region=region,
        architecture=architecture,
        component=component,
        usd_per_unit_hour=price,
        effective_from=day,
        source=source,
    )
