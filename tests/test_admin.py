"""The admin lists every kind of price period with its days in force, searchable by source."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.pricing.records import AuroraStorageRateRecord, DatabaseInstancePriceRecord
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db

DAY = datetime.date(2015, 7, 1)


@pytest.fixture
def every_kind_of_period():
    price_services.import_snapshot()
    price_services.record_database_prices(
        records=[
            DatabaseInstancePriceRecord(
                instance_class="db.r3.large",
                region="us-east-1",
                engine="MySQL",
                deployment_option="Single-AZ",
                license_model="No license required",
                usd_per_hour=Decimal("0.24"),
                effective_from=DAY,
                source="AmazonRDS offer version 20150701000000",
            ),
            AuroraStorageRateRecord(
                region="us-east-1",
                engine="Any",
                component="io",
                usd_per_unit=Decimal("0.2"),
                unit="million I/O requests",
                effective_from=DAY,
                source="AmazonRDS offer version 20150701000000",
            ),
        ]
    )


@pytest.mark.parametrize(
    ("model", "search", "shown"),
    [
        ("price", "t2.nano", b"t2.nano"),
        ("fargaterate", "", b"vcpu"),
        ("volumeprice", "", b"gp3"),
        ("databaseprice", "20150701000000", b"db.r3.large"),
        ("aurorarate", "20150701000000", b"io"),
    ],
)
def test_it_lists_each_kind_of_period_with_its_days(
    admin_client, every_kind_of_period, model, search, shown
):
    page = admin_client.get(f"/admin/benchmarks/{model}/", {"q": search} if search else {})
    assert page.status_code == 200
    assert shown in page.content
    assert b"Effective from" in page.content and b"Effective to" in page.content


def test_a_search_that_matches_no_source_lists_nothing(admin_client, every_kind_of_period):
    page = admin_client.get("/admin/benchmarks/aurorarate/", {"q": "no such source"})
    assert b"0 aurora rates" in page.content
