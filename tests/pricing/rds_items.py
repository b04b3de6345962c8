"""AmazonRDS Price List items for tests, built on the real m5.large item's schema.

../shared/data holds no AmazonRDS item, so these are made from the real AmazonEC2 item
(GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json): the same keys and nesting, with the
service code, product families, attributes and units AWS gives RDS ("Database Instance" per
"Hrs", Aurora's "Database Storage" per "GB-Mo" and "System Operation" per "IOs"). Prices are
AWS's published us-east-1 prices of 2015, used here only as figures for the reader to read.
"""

from __future__ import annotations

import copy

ENGINE_CODES = {"MySQL": "2", "Aurora MySQL": "16", "PostgreSQL": "14", "Oracle": "4"}


def rds_item(
    m5_item: dict,
    *,
    sku: str,
    family: str,
    usd: str,
    unit: str,
    attributes: dict,
    effective: str = "2015-07-01T00:00:00Z",
) -> dict:
    """An AmazonRDS item shaped like the real m5.large item, with its reserved terms."""
    item = copy.deepcopy(m5_item)
    item.update(
        serviceCode="AmazonRDS", version="20150701000000", publicationDate="2015-07-01T00:00:00Z"
    )
    product = item["product"]
    old_sku = product["sku"]
    product.update(sku=sku, productFamily=family)
    product["attributes"] = {
        "servicecode": "AmazonRDS",
        "servicename": "Amazon Relational Database Service",
        "location": "US East (N. Virginia)",
        "locationType": "AWS Region",
        **attributes,
    }
    for term_type, terms in item["terms"].items():
        renamed = {}
        for code, term in terms.items():
            term["sku"] = sku
            dimensions = {}
            for rate_code, dimension in term["priceDimensions"].items():
                dimension["rateCode"] = rate_code.replace(old_sku, sku)
                if term_type == "OnDemand":
                    dimension.update(unit=unit, pricePerUnit={"USD": usd})
                    term["effectiveDate"] = effective
                dimensions[dimension["rateCode"]] = dimension
            term["priceDimensions"] = dimensions
            renamed[code.replace(old_sku, sku)] = term
        item["terms"][term_type] = renamed
    return item


def instance_item(
    m5_item,
    instance_class,
    engine,
    usd,
    *,
    deployment="Single-AZ",
    license_model="No license required",
    usage=None,
    sku=None,
    **extra,
):
    """A DB instance's hourly price (product family "Database Instance")."""
    usage_kind = "Multi-AZUsage" if deployment == "Multi-AZ" else "InstanceUsage"
    return rds_item(
        m5_item,
        sku=sku or f"{engine}{deployment}{instance_class}".upper().replace(" ", ""),
        family="Database Instance",
        usd=usd,
        unit="Hrs",
        attributes={
            "instanceType": instance_class,
            "instanceFamily": "Memory optimized",
            "vcpu": "2",
            "memory": "15.25 GiB",
            "storage": "EBS Only",
            "currentGeneration": "No",
            "databaseEngine": engine,
            "engineCode": ENGINE_CODES.get(engine, "0"),
            "deploymentOption": deployment,
            "licenseModel": license_model,
            "usagetype": usage or f"{usage_kind}:{instance_class}",
            "operation": f"CreateDBInstance:{ENGINE_CODES.get(engine, '0').zfill(4)}",
            **extra,
        },
    )


def aurora_items(m5_item) -> list[dict]:
    """Aurora's storage per GB-month and I/O per request (databaseEngine "Any")."""
    return [
        rds_item(
            m5_item,
            sku="AURORASTORAGE",
            family="Database Storage",
            usd="0.1000000000",
            unit="GB-Mo",
            attributes={
                "usagetype": "Aurora:StorageUsage",
                "operation": "CreateDBInstance:0016",
                "databaseEngine": "Any",
                "volumeType": "General Purpose-Aurora",
            },
        ),
        rds_item(
            m5_item,
            sku="AURORAIO",
            family="System Operation",
            usd="0.0000002000",
            unit="IOs",
            attributes={
                "usagetype": "Aurora:StorageIOUsage",
                "operation": "CreateDBInstance:0016",
                "databaseEngine": "Any",
                "group": "Aurora I/O Operation",
                "groupDescription": "Billed for I/O Operations",
            },
        ),
    ]
