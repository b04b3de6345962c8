"""RDS and Aurora prices stored with history through every source `import_prices` reads.

AWS is reached only through botocore's Stubber. ../shared/data holds no AmazonRDS item, so
the items are built with the same schema as the real AmazonEC2 item in
../shared/data/pricing/aws-responses/ (tests/pricing/rds_items.py): same keys and nesting,
with RDS's product families, attributes and units; the prices are AWS's us-east-1 prices of
2015 (db.r3.large: MySQL $0.24/h, Multi-AZ $0.48/h, Aurora MySQL $0.29/h).
"""

import datetime
import json
from decimal import Decimal

import pytest
from botocore.stub import Stubber
from django.core.management import call_command

from benchmarks.errors import DomainError
from benchmarks.models import AuroraRate, DatabasePrice, InstanceType
from benchmarks.pricing import aws
from benchmarks.pricing.records import DatabaseInstancePriceRecord
from benchmarks.services import prices as price_services
from benchmarks.services.prices import record_database_prices
from tests.pricing.rds_items import aurora_items, instance_item
from tests.pricing.test_offer_files import write_json

pytestmark = pytest.mark.django_db


def page_of(*items) -> dict:
    return {"FormatVersion": "aws_v1", "PriceList": [json.dumps(item) for item in items]}


def s5_items(m5_item, *, aurora_usd="0.2900000000", effective="2015-07-01T00:00:00Z"):
    aurora = instance_item(m5_item, "db.r3.large", "Aurora MySQL", aurora_usd)
    for term in aurora["terms"]["OnDemand"].values():
        term["effectiveDate"] = effective
    return [
        instance_item(m5_item, "db.r3.large", "MySQL", "0.2400000000"),
        instance_item(m5_item, "db.r3.large", "MySQL", "0.4800000000", deployment="Multi-AZ"),
        aurora,
        *aurora_items(m5_item),
    ]


def stored_prices():
    return {
        (p.instance_type.name, p.engine, p.deployment_option): (
            p.usd_per_hour.normalize(),
            p.effective_from,
            p.effective_to,
        )
        for p in DatabasePrice.objects.select_related("instance_type")
    }


def test_a_saved_price_list_stores_each_engine_and_deployment_and_aurora_rates(tmp_path, m5_item):
    path = tmp_path / "rds.json"
    path.write_text(json.dumps(page_of(*s5_items(m5_item))))

    summary = price_services.import_price_list_file(path=path)

    assert (summary.read, summary.matched, summary.stored) == (5, 5, 5)
    july = datetime.date(2015, 7, 1)
    assert stored_prices() == {
        ("db.r3.large", "MySQL", "Single-AZ"): (Decimal("0.24"), july, None),
        ("db.r3.large", "MySQL", "Multi-AZ"): (Decimal("0.48"), july, None),
        ("db.r3.large", "Aurora MySQL", "Single-AZ"): (Decimal("0.29"), july, None),
    }
    assert InstanceType.objects.get(name="db.r3.large").kind == "database"
    assert {(r.component, r.usd_per_unit.normalize()) for r in AuroraRate.objects.all()} == {
        ("storage", Decimal("0.1")),
        ("io", Decimal("0.2")),
    }


def test_importing_again_stores_nothing_and_a_changed_price_opens_a_new_period(tmp_path, m5_item):
    first = tmp_path / "first.json"
    first.write_text(json.dumps(page_of(*s5_items(m5_item))))
    later = tmp_path / "later.json"
    later.write_text(
        json.dumps(
            page_of(*s5_items(m5_item, aurora_usd="0.2600000000", effective="2016-01-01T00:00:00Z"))
        )
    )
    price_services.import_price_list_file(path=first)

    again = price_services.import_price_list_file(path=first)
    changed = price_services.import_price_list_file(path=later)

    assert (again.stored, again.unchanged) == (0, 5)
    assert (changed.stored, changed.closed) == (1, 1)
    aurora = DatabasePrice.objects.filter(engine="Aurora MySQL").order_by("effective_from")
    assert [(p.usd_per_hour.normalize(), p.effective_to) for p in aurora] == [
        (Decimal("0.29"), datetime.date(2015, 12, 31)),
        (Decimal("0.26"), None),
    ]
    assert DatabasePrice.objects.in_force_on(datetime.date(2015, 9, 1)).get(
        engine="Aurora MySQL"
    ).usd_per_hour == Decimal("0.29")


def test_an_rds_offer_file_gives_the_same_prices(tmp_path, m5_item):
    path = write_json(tmp_path / "index.json", s5_items(m5_item), offer_code="AmazonRDS")

    call_command("import_prices", "--offer-file", str(path))

    assert len(stored_prices()) == 3
    assert AuroraRate.objects.count() == 2
    assert DatabasePrice.objects.first().source.startswith("AWS bulk offer file AmazonRDS")


def test_the_api_source_asks_for_instances_storage_and_io(monkeypatch, aws_session, m5_item):
    items = s5_items(m5_item)
    by_family = {
        family: [item for item in items if item["product"]["productFamily"] == family]
        for family in aws.RDS_PRODUCT_FAMILIES
    }
    client = aws.pricing_client("us-east-1", session=aws_session)
    monkeypatch.setattr(aws, "pricing_client", lambda region, session=None: client)
    with Stubber(client) as stubber:
        for family, family_items in by_family.items():
            filters = [
                {"Type": "TERM_MATCH", "Field": "regionCode", "Value": "us-east-1"},
                {"Type": "TERM_MATCH", "Field": "productFamily", "Value": family},
            ]
            stubber.add_response(
                "get_products",
                page_of(*family_items),
                {"ServiceCode": "AmazonRDS", "Filters": filters, "FormatVersion": "aws_v1"},
            )
        summary = price_services.import_from_api(service="rds", region="us-east-1")
        stubber.assert_no_pending_responses()

    assert (summary.read, summary.matched, summary.stored) == (5, 5, 5)
    assert DatabasePrice.objects.first().source.startswith(
        "AWS Price List API, get_products on us-east-1, fetched "
    )


def test_an_ec2_instance_type_is_not_taken_for_a_db_instance_class():
    InstanceType.objects.create(name="db.r3.large", kind="ec2")
    record = DatabaseInstancePriceRecord(
        instance_class="db.r3.large",
        region="us-east-1",
        engine="MySQL",
        deployment_option="Single-AZ",
        license_model="No license required",
        usd_per_hour=Decimal("0.24"),
        effective_from=datetime.date(2015, 7, 1),
        source="test",
    )

    with pytest.raises(DomainError, match="db.r3.large: known as an instance type"):
        record_database_prices(records=[record])
    assert not DatabasePrice.objects.exists()


def test_an_ec2_price_list_item_brings_the_advertised_bandwidth(m5_item):
    price_services.import_price_list(
        pages=[{"PriceList": [json.dumps(m5_item)]}], source="the real m5.large item"
    )

    assert InstanceType.objects.get(name="m5.large").network_performance == "Up to 10 Gigabit"
