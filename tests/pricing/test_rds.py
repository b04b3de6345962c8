"""AmazonRDS items -> DB instance prices and Aurora storage and I/O rates (no database).

The items are built on the real m5.large item's schema (see tests/pricing/rds_items.py):
../shared/data has no AmazonRDS item.
"""

import datetime
import json
from decimal import Decimal

import pytest

from benchmarks.pricing.price_list import read_price_list
from benchmarks.pricing.records import (
    AuroraStorageRateRecord,
    DatabaseInstancePriceRecord,
    PriceRecord,
    ReadStats,
)
from tests.pricing.rds_items import aurora_items, instance_item, rds_item


def page_of(*items) -> dict:
    return {"FormatVersion": "aws_v1", "PriceList": [json.dumps(item) for item in items]}


def read(*items, stats=None):
    return list(read_price_list([page_of(*items)], source="test", stats=stats))


def test_aurora_and_rds_mysql_on_db_r3_large_are_priced_side_by_side(m5_item):
    stats = ReadStats()
    records = read(
        instance_item(m5_item, "db.r3.large", "MySQL", "0.2400000000"),
        instance_item(m5_item, "db.r3.large", "MySQL", "0.4800000000", deployment="Multi-AZ"),
        instance_item(m5_item, "db.r3.large", "Aurora MySQL", "0.2900000000"),
        stats=stats,
    )
    assert records[0] == DatabaseInstancePriceRecord(
        instance_class="db.r3.large",
        region="us-east-1",
        engine="MySQL",
        deployment_option="Single-AZ",
        license_model="No license required",
        usd_per_hour=Decimal("0.24"),
        effective_from=datetime.date(2015, 7, 1),
        source="test (AmazonRDS offer version 20150701000000, published 2015-07-01)",
    )
    assert [(r.engine, r.deployment_option, r.usd_per_hour) for r in records] == [
        ("MySQL", "Single-AZ", Decimal("0.24")),
        ("MySQL", "Multi-AZ", Decimal("0.48")),
        ("Aurora MySQL", "Single-AZ", Decimal("0.29")),
    ]
    assert (stats.read, stats.matched, stats.services) == (3, 3, {"AmazonRDS"})


def test_aurora_storage_is_per_gb_month_and_its_io_per_million_requests(m5_item):
    storage, io = read(*aurora_items(m5_item))
    assert storage == AuroraStorageRateRecord(
        region="us-east-1",
        engine="Any",
        component="storage",
        usd_per_unit=Decimal("0.1"),
        unit="GB-month",
        effective_from=datetime.date(2015, 7, 1),
        source=storage.source,
    )
    assert (io.component, io.unit, io.usd_per_unit) == (
        "io",
        "million I/O requests",
        Decimal("0.2"),
    )


def test_io_optimized_aurora_is_told_apart(m5_item):
    (instance,) = read(
        instance_item(
            m5_item,
            "db.r6g.large",
            "Aurora MySQL",
            "0.3380000000",
            usage="APN1-InstanceUsageIOOptimized:db.r6g.large",
            regionCode="ap-northeast-1",
        )
    )
    assert (instance.io_optimized, instance.region) == (True, "ap-northeast-1")
    optimized_storage = aurora_items(m5_item)[0]
    optimized_storage["product"]["attributes"]["usagetype"] = "Aurora:IO-OptimizedStorageUsage"
    (rate,) = read(optimized_storage)
    assert rate.component == "io_optimized_storage"


def test_licence_and_edition_are_kept_for_commercial_engines(m5_item):
    (oracle,) = read(
        instance_item(
            m5_item,
            "db.r3.large",
            "Oracle",
            "0.9750000000",
            license_model="License included",
            databaseEdition="Standard One",
        )
    )
    assert (oracle.license_model, oracle.edition) == ("License included", "Standard One")


@pytest.mark.parametrize(
    "changes",
    [
        {"deploymentOption": "Multi-AZ (readable standbys)"},
        {"deploymentModel": "Custom"},
        {"databaseEngine": "Any"},
        {"usagetype": "InstanceUsage:db.r3.xlarge"},  # not the class it names
        {"usagetype": "RDS:ChargedBackupUsage"},
        {"instanceType": "r3.large", "usagetype": "InstanceUsage:r3.large"},
        {"locationType": "AWS Outposts"},
    ],
    ids=lambda changes: "-".join(changes.values()),
)
def test_other_rds_products_are_not_instance_prices(m5_item, changes):
    item = instance_item(m5_item, "db.r3.large", "MySQL", "0.2400000000")
    item["product"]["attributes"].update(changes)
    stats = ReadStats()
    assert read(item, stats=stats) == []
    assert (stats.read, stats.matched) == (1, 0)


def test_a_rate_in_another_unit_or_family_is_not_aurora_storage(m5_item):
    storage, io = aurora_items(m5_item)
    for dimension in next(iter(io["terms"]["OnDemand"].values()))["priceDimensions"].values():
        dimension["unit"] = "GB-Mo"
    storage["product"]["productFamily"] = "Storage Snapshot"
    assert read(storage, io) == []


def test_items_of_other_services_follow_their_own_rules(m5_item):
    stats = ReadStats()
    elsewhere = rds_item(
        m5_item, sku="X", family="Database Instance", usd="1", unit="Hrs", attributes={}
    )
    elsewhere["serviceCode"] = "AmazonEC2"
    elsewhere["product"]["attributes"]["servicecode"] = "AmazonEC2"
    # The m5.large item is an EC2 price; an EC2 item is never read as a DB instance.
    assert {type(record) for record in read(m5_item, elsewhere, stats=stats)} == {PriceRecord}
    assert (stats.read, stats.services) == (2, {"AmazonEC2"})
