"""AmazonRDS Price List items -> DB instance prices and Aurora's storage and I/O rates.

Pure rules for the database study (S5); services/prices/databases.py stores what they return.
`rds_match` and `rds_record` give them in the shape the offer-file and get_products readers
use through benchmarks.pricing.products (a small match kept per SKU, then its price).

- DB instances: product family "Database Instance", priced per hour; usage type
  `InstanceUsage:db.r3.large` (Single-AZ), `Multi-AZUsage:db.r3.large` (Multi-AZ) or
  `InstanceUsageIOOptimized:db.r6g.large` (Aurora I/O-Optimized), prefixed with the region's
  code outside us-east-1 (`APN1-`). Multi-AZ DB clusters ("Multi-AZ (readable standbys)"), RDS
  Custom, Outposts and Local Zones are other products.
- Aurora storage: "Database Storage" (or "Storage"), `Aurora:StorageUsage` or
  `Aurora:IO-OptimizedStorageUsage`, per GB-month; Aurora I/O: "System Operation",
  `Aurora:StorageIOUsage`, priced per I/O request ("IOs"), kept per million requests.
"""

from __future__ import annotations

import re
from decimal import Decimal

from benchmarks.pricing.records import (
    AuroraStorageRateRecord,
    DatabaseInstancePriceRecord,
    region_of,
    usage_type,
)

DB_INSTANCE_CLASS = re.compile(r"^db\.[a-z0-9-]+\.[a-z0-9-]+$")
DB_INSTANCE_USAGE_TYPE = usage_type(
    r"(?P<deployment>InstanceUsage|Multi-AZUsage)(?P<io_optimized>IOOptimized)?:"
    r"(?P<instance_class>db\.[a-z0-9.-]+)"
)
DEPLOYMENT_OF_USAGE = {"InstanceUsage": "Single-AZ", "Multi-AZUsage": "Multi-AZ"}
AURORA_USAGE_TYPE = usage_type(
    r"Aurora:(?P<usage>StorageUsage|IO-OptimizedStorageUsage|StorageIOUsage)"
)
# usage -> (component, product families, AWS's unit (lower case), factor, pricebench's unit)
AURORA_RATES = {
    "StorageUsage": ("storage", ("Database Storage", "Storage"), "gb-mo", 1, "GB-month"),
    "IO-OptimizedStorageUsage": (
        "io_optimized_storage",
        ("Database Storage", "Storage"),
        "gb-mo",
        1,
        "GB-month",
    ),
    "StorageIOUsage": (
        "io",
        ("System Operation",),
        "ios",
        1_000_000,
        "million I/O requests",
    ),
}


def database_instance_price(
    product_family: str, attributes: dict, price: Decimal, unit: str, **record
) -> DatabaseInstancePriceRecord | None:
    """The DB instance an RDS product prices by the hour, else None."""
    if product_family != "Database Instance" or unit.lower() != "hrs":
        return None
    found = DB_INSTANCE_USAGE_TYPE.match(attributes.get("usagetype") or "")
    instance_class = attributes.get("instanceType") or ""
    if found is None or found["instance_class"] != instance_class:
        return None
    if not DB_INSTANCE_CLASS.match(instance_class):
        return None
    deployment = DEPLOYMENT_OF_USAGE[found["deployment"]]
    if attributes.get("deploymentOption") != deployment:
        return None
    engine = attributes.get("databaseEngine") or ""
    if not engine or engine == "Any" or "Custom" in (attributes.get("deploymentModel") or ""):
        return None
    region = region_of(attributes)
    if region is None:
        return None
    return DatabaseInstancePriceRecord(
        instance_class=instance_class,
        region=region,
        engine=engine,
        deployment_option=deployment,
        license_model=attributes.get("licenseModel") or "",
        edition=attributes.get("databaseEdition") or "",
        io_optimized=found["io_optimized"] is not None,
        usd_per_hour=price,
        **record,
    )


def aurora_storage_rate(
    product_family: str, attributes: dict, price: Decimal, unit: str, **record
) -> AuroraStorageRateRecord | None:
    """Aurora's storage (per GB-month) or I/O (per million requests) rate, else None."""
    found = AURORA_USAGE_TYPE.match(attributes.get("usagetype") or "")
    if found is None:
        return None
    component, families, aws_unit, factor, our_unit = AURORA_RATES[found["usage"]]
    if product_family not in families or unit.lower() != aws_unit:
        return None
    region = region_of(attributes)
    if region is None:
        return None
    return AuroraStorageRateRecord(
        region=region,
        engine=attributes.get("databaseEngine") or "Any",
        component=component,
        usd_per_unit=price * factor,
        unit=our_unit,
        **record,
    )


# The attributes the rules above read: a match keeps only these while its terms are read.
RDS_ATTRIBUTES = (
    "usagetype",
    "instanceType",
    "deploymentOption",
    "databaseEngine",
    "deploymentModel",
    "licenseModel",
    "databaseEdition",
    "regionCode",
    "location",
    "locationType",
)


def rds_match(product_family: str, attributes: dict) -> tuple | None:
    """("rds", AWS's unit in lower case, product family, kept attributes) of a DB instance or
    Aurora storage/I-O product, else None."""
    usage = attributes.get("usagetype") or ""
    if DB_INSTANCE_USAGE_TYPE.match(usage):
        unit = "hrs"
        found = database_instance_price(
            product_family, attributes, Decimal(1), unit, effective_from=None, source=""
        )
    elif aurora := AURORA_USAGE_TYPE.match(usage):
        unit = AURORA_RATES[aurora["usage"]][2]
        found = aurora_storage_rate(
            product_family, attributes, Decimal(1), unit, effective_from=None, source=""
        )
    else:
        return None
    if found is None:
        return None
    kept = tuple(sorted((name, attributes[name]) for name in RDS_ATTRIBUTES if name in attributes))
    return ("rds", unit, product_family, kept)


def rds_record(
    match: tuple, price: Decimal, day, source: str
) -> DatabaseInstancePriceRecord | AuroraStorageRateRecord:
    """The record of a product `rds_match` matched, at its on-demand price (in AWS's unit)."""
    _, unit, product_family, kept = match
    attributes = dict(kept)
    return database_instance_price(
        product_family, attributes, price, unit, effective_from=day, source=source
    ) or aurora_storage_rate(
        product_family, attributes, price, unit, effective_from=day, source=source
    )
