"""Which Price List products are Linux on-demand EC2 prices, Fargate rates or EBS volume rates,
and at what price.

The Price List API and the bulk offer files describe products the same way (a SKU, a product
family, attributes) and price them in terms; both readers use these rules.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

from benchmarks.pricing.rds import rds_match, rds_record
from benchmarks.pricing.records import (
    ON_DEMAND,
    FargateRateRecord,
    PriceRecord,
    VolumePriceRecord,
    parse_day,
    parse_usd,
    region_of,
    usage_type,
)

EC2 = "AmazonEC2"
ECS = "AmazonECS"
RDS = "AmazonRDS"

INSTANCE_TYPE_NAME = re.compile(r"^[a-z][a-z0-9-]*\.[a-z0-9-]+$")

# USE1-Fargate-vCPU-Hours:perCPU, USE1-Fargate-ARM-GB-Hours, USE1-Fargate-EphemeralStorage-GB-Hours.
# Windows (Fargate-Windows-...), ECS Anywhere and EC2 metering do not match.
FARGATE_USAGE_TYPE = usage_type(
    r"Fargate-(?:(?P<arm>ARM-)?(?P<compute>vCPU-Hours:perCPU|GB-Hours)|EphemeralStorage-GB-Hours)"
)
FARGATE_COMPONENT = {"vCPU-Hours:perCPU": "vcpu", "GB-Hours": "memory_gb"}

# EBS volumes (AmazonEC2). Storage: EBS:VolumeUsage.gp2, APN1-EBS:VolumeUsage.piops (io1's).
# Provisioned: EBS:VolumeP-IOPS.piops (io1), EBS:VolumeP-IOPS.io2[.tier2|.tier3],
# EBS:VolumeP-IOPS.gp3, EBS:VolumeP-Throughput.gp3. Outside us-east-1 the usage type starts with
# the region's prefix (APN1-); Local Zones and Outposts (two prefixes, or a suffix) do not match,
# nor do magnetic "standard" volumes (EBS:VolumeUsage) and snapshots.
EBS_STORAGE_USAGE_TYPE = usage_type(r"EBS:VolumeUsage\.(?P<suffix>gp2|gp3|piops|io2|st1|sc1)")
EBS_PROVISIONED_USAGE_TYPE = usage_type(
    r"EBS:VolumeP-(?P<what>IOPS|Throughput)\.(?P<suffix>piops|io2|gp3)(?:\.tier(?P<tier>[23]))?"
)
EBS_VOLUME_TYPE_OF_SUFFIX = {"piops": "io1"}
EBS_STORAGE_FAMILY = "Storage"
# Provisioned IOPS are "System Operation"; gp3 throughput is "Provisioned Throughput" in the
# price list AWS publishes (some copies file it under "System Operation").
EBS_PROVISIONED_FAMILIES = ("System Operation", "Provisioned Throughput")
# The units AWS prices EBS in (lower case) -> the factor to pricebench's unit of the component:
# GB-month, IOPS-month, MiB/s-month. gp3 throughput is priced per GiB/s-month (40.96 USD in
# us-east-1 is 0.04 USD per MiB/s-month).
EBS_UNITS = {
    "storage": {"gb-mo": Decimal(1), "gb-month": Decimal(1)},
    "iops": {"iops-mo": Decimal(1)},
    "throughput": {"gibps-mo": Decimal(1) / 1024, "mibps-mo": Decimal(1)},
}

# A matching product, kept small because an offer file's matches wait in memory for its terms:
# ("ec2", instance type, region, network performance), ("fargate", region, architecture,
# component), ("ebs", region, volume type, component, tier) or ("rds", unit, family, attributes).
ProductMatch = tuple


def ec2_on_demand_match(attributes: dict) -> ProductMatch | None:
    """An EC2 product sold on demand to run plain Linux on shared hardware, else None.

    Windows, RHEL, SUSE, Ubuntu Pro, SQL Server or other pre-installed software, dedicated or
    host tenancy, and capacity reservations (capacitystatus other than "Used") are other prices.
    """
    if (
        attributes.get("operatingSystem") != "Linux"
        or attributes.get("tenancy") != "Shared"
        or attributes.get("preInstalledSw") != "NA"
        # Capacity reservations came in 2018; products from before lack the attribute.
        or (attributes.get("capacitystatus") or "Used") != "Used"
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
    # AWS's words for the bandwidth ("Up to 25 Gigabit"), shown beside measured bandwidth.
    return ("ec2", instance_type, region, (attributes.get("networkPerformance") or "")[:64])


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


def ebs_volume_match(product_family: str, attributes: dict) -> ProductMatch | None:
    """An EBS volume's storage, provisioned IOPS or provisioned throughput rate, else None."""
    usage_type = attributes.get("usagetype") or ""
    if product_family == EBS_STORAGE_FAMILY:
        found = EBS_STORAGE_USAGE_TYPE.match(usage_type)
        component, tier = "storage", 1
    elif product_family in EBS_PROVISIONED_FAMILIES:
        found = EBS_PROVISIONED_USAGE_TYPE.match(usage_type)
        if found is None:
            return None
        component = "iops" if found["what"] == "IOPS" else "throughput"
        tier = int(found["tier"] or 1)
    else:
        return None
    if found is None:
        return None
    volume_type = EBS_VOLUME_TYPE_OF_SUFFIX.get(found["suffix"], found["suffix"])
    # Newer items also name the volume type; one that disagrees is some other product.
    if attributes.get("volumeApiName") not in (None, "", volume_type):
        return None
    region = region_of(attributes)
    if region is None:
        return None
    return ("ebs", region, volume_type, component, tier)


def match_product(
    service_code: str, attributes: dict, product_family: str = ""
) -> ProductMatch | None:
    """The rule for the product's service: EC2 on-demand prices or EBS volume rates (by product
    family), or Fargate rates."""
    if service_code == EC2:
        if product_family in (EBS_STORAGE_FAMILY, *EBS_PROVISIONED_FAMILIES):
            return ebs_volume_match(product_family, attributes)
        return ec2_on_demand_match(attributes)
    if service_code == ECS:
        return fargate_match(attributes)
    if service_code == RDS:
        return rds_match(product_family, attributes)
    return None


def dimension_price(
    match: ProductMatch | None,
    *,
    usd: object,
    unit: str | None,
    begin: str | None,
    end: str | None,
    where: str,
) -> Decimal | None:
    """One price dimension's USD price, in the unit pricebench keeps for the match, or None
    when it is not such a price (zero, another unit, a step of a tiered price)."""
    if usd is None:
        return None
    price = parse_usd(usd, where=where)
    if price == 0:
        return None
    if match is not None and match[0] == "rds" and (unit or "").lower() != match[1]:
        return None  # DB instances per hour, Aurora storage per GB-month, its I/O per request
    if match is not None and match[0] == "ebs":
        # gp3's IOPS and throughput are priced from the allowance up (beginRange 3000): the
        # allowance is a rule of the volume type, the price is the one above it.
        factor = EBS_UNITS[match[3]].get((unit or "").lower())
        return None if factor is None else price * factor
    # Hourly prices are flat: a step that starts above zero is free-tier or volume pricing.
    if begin not in (None, "", "0") or end not in (None, "", "Inf"):
        return None
    return price


def on_demand_price(
    terms: dict, *, where: str, match: ProductMatch | None = None
) -> tuple[Decimal, datetime.date] | None:
    """The USD price of a product's on-demand term (per hour, or per unit-month for EBS) and
    the day it took effect.

    None unless exactly one dimension of the one term is priced above zero (free usage,
    several steps, other currencies): such a product has no single price to compare.
    """
    priced = on_demand_dimension(terms, where=where, match=match)
    return None if priced is None else (priced[0], priced[2])


def on_demand_dimension(
    terms: dict, *, where: str, match: ProductMatch | None = None
) -> tuple[Decimal, str, datetime.date] | None:
    """Like `on_demand_price`, with the unit AWS prices the dimension in ("Hrs", "IOs")."""
    if len(terms) != 1:
        return None
    (term,) = terms.values()
    priced = [
        (price, dimension.get("unit") or "")
        for dimension in (term.get("priceDimensions") or {}).values()
        if (
            price := dimension_price(
                match,
                usd=(dimension.get("pricePerUnit") or {}).get("USD"),
                unit=dimension.get("unit"),
                begin=dimension.get("beginRange"),
                end=dimension.get("endRange"),
                where=where,
            )
        )
        is not None
    ]
    if len(priced) != 1:
        return None
    ((price, unit),) = priced
    return price, unit, parse_day(term.get("effectiveDate"), where=f"{where} effectiveDate")


# How a match becomes its record: the record type, the names of the match's values after its
# kind, the field its price fills, and the fields every record of the kind has alike.
RECORD_OF_MATCH = {
    "ec2": (
        PriceRecord,
        ("instance_type", "region", "network_performance"),
        "usd_per_hour",
        {"purchase_option": ON_DEMAND},
    ),
    "fargate": (
        FargateRateRecord,
        ("region", "architecture", "component"),
        "usd_per_unit_hour",
        {},
    ),
    "ebs": (
        VolumePriceRecord,
        ("region", "volume_type", "component", "tier"),
        "usd_per_unit_month",
        {},
    ),
}


def make_record(
    match: ProductMatch, price: Decimal, day: datetime.date, source: str
) -> PriceRecord | FargateRateRecord | VolumePriceRecord:
    """The record a matching product and its on-demand price make."""
    if match[0] == "rds":
        return rds_record(match, price, day, source)
    record_type, names, price_field, alike = RECORD_OF_MATCH[match[0]]
    return record_type(
        **dict(zip(names, match[1:], strict=True)),
        **alike,
        **{price_field: price},
        effective_from=day,
        source=source,
    )
