"""EBS volume rates from every price source import_prices reads, kept with their history.

The items are built on the real m5.large item's schema (see tests/pricing/volume_items.py):
../shared/data has no EBS item.
"""

import datetime
import json
from decimal import Decimal

import pytest
from botocore.stub import Stubber
from django.core.management import call_command

from benchmarks.errors import DomainError
from benchmarks.models import Price, VolumePrice
from benchmarks.pricing import aws
from benchmarks.pricing.offer_files import OfferFile
from benchmarks.pricing.price_list import read_price_list
from benchmarks.pricing.records import ReadStats, VolumePriceRecord
from benchmarks.services import prices as price_services
from tests.pricing.test_offer_files import write_csv, write_json
from tests.pricing.volume_items import (
    decoys,
    iops_item,
    storage_item,
    tokyo_2014_items,
    us_east_1_items,
)

US_EAST_1_RATES = {
    ("gp2", "storage", 1): Decimal("0.1"),
    ("gp3", "storage", 1): Decimal("0.08"),
    ("io1", "storage", 1): Decimal("0.125"),
    ("io2", "storage", 1): Decimal("0.125"),
    ("st1", "storage", 1): Decimal("0.045"),
    ("sc1", "storage", 1): Decimal("0.015"),
    ("io1", "iops", 1): Decimal("0.065"),
    ("io2", "iops", 1): Decimal("0.065"),
    ("io2", "iops", 2): Decimal("0.0455"),
    ("io2", "iops", 3): Decimal("0.032"),
    ("gp3", "iops", 1): Decimal("0.005"),
    # 40.96 USD per GiB/s-month is 0.04 USD per MiB/s-month.
    ("gp3", "throughput", 1): Decimal("0.04"),
}


def page_of(*items) -> dict:
    """A get_products page as AWS sends it: each item a JSON string."""
    return {"FormatVersion": "aws_v1", "PriceList": [json.dumps(item) for item in items]}


def rates_of(records) -> dict:
    return {
        (r.volume_type, r.component, r.tier): r.usd_per_unit_month
        for r in records
        if isinstance(r, VolumePriceRecord)
    }


# ---- readers (no database) -------------------------------------------------------------


def test_get_products_items_give_every_volume_rate_and_no_decoy(m5_item):
    stats = ReadStats()
    items = us_east_1_items(m5_item) + decoys(m5_item)
    records = list(read_price_list([page_of(*items)], source="test", stats=stats))
    assert rates_of(records) == US_EAST_1_RATES
    assert (stats.read, stats.matched) == (15, 12)
    assert {r.region for r in records} == {"us-east-1"}
    assert {r.effective_from for r in records} == {datetime.date(2021, 2, 1)}
    assert records[0].source.startswith("test (AmazonEC2 offer version 20210205204500")


def test_ebs_items_and_instance_prices_share_a_page(m5_item):
    records = list(read_price_list([page_of(m5_item, *us_east_1_items(m5_item))], source="t"))
    assert [r.instance_type for r in records if not isinstance(r, VolumePriceRecord)] == [
        "m5.large"
    ] * 13  # its on-demand price and 12 Reserved terms
    assert len(rates_of(records)) == 12


def test_older_items_name_only_the_location_and_tokyo_prefixes_its_usage_types(m5_item):
    items = tokyo_2014_items(m5_item)
    assert "regionCode" not in items[0]["product"]["attributes"]
    assert items[0]["product"]["attributes"]["usagetype"] == "APN1-EBS:VolumeUsage.gp2"
    records = list(read_price_list([page_of(*items)], source="t"))
    assert {(r.region, r.effective_from) for r in records} == {
        ("ap-northeast-1", datetime.date(2014, 6, 1))
    }
    assert rates_of(records) == {
        ("gp2", "storage", 1): Decimal("0.12"),
        ("io1", "storage", 1): Decimal("0.142"),
        ("io1", "iops", 1): Decimal("0.074"),
    }


def test_a_volume_api_name_that_disagrees_with_the_usage_type_is_another_product(m5_item):
    item = storage_item(m5_item, "gp2", "0.1", volumeApiName="gp3")
    assert list(read_price_list([page_of(item)], source="t")) == []


def test_a_rate_in_a_unit_pricebench_does_not_know_is_not_read(m5_item):
    item = iops_item(m5_item, "piops", "0.065", volume_type="io1")
    ((_, term),) = item["terms"]["OnDemand"].items()
    for dimension in term["priceDimensions"].values():
        dimension["unit"] = "IOPS-Hrs"
    assert list(read_price_list([page_of(item)], source="t")) == []


def test_a_json_offer_file_gives_the_same_volume_rates(tmp_path, m5_item):
    items = [m5_item, *us_east_1_items(m5_item), *decoys(m5_item)]
    offer = OfferFile(write_json(tmp_path / "index.json", items))
    records = list(offer.records())
    assert rates_of(records) == US_EAST_1_RATES
    assert (offer.stats.read, offer.stats.matched) == (16, 12 + 13)


def test_a_csv_offer_file_gives_the_same_volume_rates(tmp_path, m5_item):
    items = [m5_item, *us_east_1_items(m5_item), *decoys(m5_item)]
    offer = OfferFile(write_csv(tmp_path / "index.csv", items))
    records = list(offer.records())
    assert rates_of(records) == US_EAST_1_RATES
    assert {r.region for r in records} == {"us-east-1"}
    assert offer.stats.matched == 12 + 13


# ---- writes ----------------------------------------------------------------------------


def volume_periods(volume_type="gp2", component="storage", tier=1):
    return [
        (str(p.usd_per_unit_month.normalize()), p.effective_from, p.effective_to)
        for p in VolumePrice.objects.filter(
            volume_type=volume_type, component=component, tier=tier
        ).order_by("effective_from")
    ]


@pytest.mark.django_db
def test_a_saved_price_list_is_stored_once_and_a_changed_rate_opens_a_new_period(tmp_path, m5_item):
    path = tmp_path / "ebs.json"
    path.write_text(json.dumps(page_of(*us_east_1_items(m5_item))))
    call_command("import_prices", "--price-list", str(path))
    call_command("import_prices", "--price-list", str(path))
    assert VolumePrice.objects.count() == 12
    assert volume_periods("gp3", "throughput") == [("0.04", datetime.date(2021, 2, 1), None)]

    cheaper = storage_item(m5_item, "gp2", "0.0900000000", effective="2022-07-01T00:00:00Z")
    path.write_text(json.dumps(page_of(cheaper)))
    call_command("import_prices", "--price-list", str(path))
    assert volume_periods("gp2") == [
        ("0.1", datetime.date(2021, 2, 1), datetime.date(2022, 6, 30)),
        ("0.09", datetime.date(2022, 7, 1), None),
    ]
    assert not Price.objects.exists()


@pytest.mark.django_db
def test_json_and_csv_offer_files_are_stored_through_the_same_history(tmp_path, m5_item):
    items = [m5_item, *us_east_1_items(m5_item)]
    first = price_services.import_offer_file(path=write_json(tmp_path / "index.json", items))
    # 12 volume rates, the m5.large's on-demand price and its 12 Reserved terms.
    assert (first.matched, first.stored) == (25, 25)
    again = price_services.import_offer_file(path=write_csv(tmp_path / "index.csv", items))
    assert (again.stored, again.unchanged) == (0, 25)
    assert VolumePrice.objects.count() == 12


@pytest.mark.django_db
def test_the_api_source_asks_for_each_ebs_product_family(monkeypatch, aws_session, m5_item):
    items = us_east_1_items(m5_item)
    by_family = {
        family: [item for item in items if item["product"]["productFamily"] == family]
        for family in ("Storage", "System Operation", "Provisioned Throughput")
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
                {"ServiceCode": "AmazonEC2", "Filters": filters, "FormatVersion": "aws_v1"},
            )
        summary = price_services.import_from_api(service="ebs", region="us-east-1")
        stubber.assert_no_pending_responses()
    assert (summary.read, summary.matched, summary.stored) == (12, 12, 12)
    stored = {
        (p.volume_type, p.component, p.tier): p.usd_per_unit_month.normalize()
        for p in VolumePrice.objects.all()
    }
    assert stored == US_EAST_1_RATES
    assert VolumePrice.objects.first().source.startswith(
        "AWS Price List API, get_products on us-east-1, fetched "
    )


@pytest.mark.django_db
def test_the_bundled_snapshot_holds_study_s4s_tokyo_prices_as_dated_periods():
    price_services.import_snapshot()
    assert {
        (p.region.code, p.volume_type, p.component): (
            p.usd_per_unit_month.normalize(),
            p.effective_from,
            p.effective_to,
        )
        for p in VolumePrice.objects.select_related("region")
    } == {
        ("ap-northeast-1", "gp2", "storage"): (
            Decimal("0.12"),
            datetime.date(2014, 6, 1),
            datetime.date(2014, 6, 30),
        ),
        ("ap-northeast-1", "io1", "storage"): (
            Decimal("0.142"),
            datetime.date(2014, 6, 1),
            datetime.date(2014, 6, 30),
        ),
        ("ap-northeast-1", "io1", "iops"): (
            Decimal("0.074"),
            datetime.date(2014, 6, 1),
            datetime.date(2014, 6, 30),
        ),
    }
    assert all(p.source.startswith("Study S4") for p in VolumePrice.objects.all())
    assert price_services.import_snapshot().stored == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"volume_type": "standard"}, "volume type 'standard' is not one of gp2"),
        ({"component": "snapshot"}, "component 'snapshot' is not one of storage"),
        ({"tier": 2}, "only io2 IOPS have tiers 2 and 3"),
        ({"usd_per_unit_month": Decimal(0)}, "is not above zero"),
        ({"effective_to": datetime.date(2020, 1, 1)}, "is before effective_from"),
    ],
)
def test_a_bad_volume_rate_is_refused_and_nothing_is_written(changes, message):
    good = VolumePriceRecord(
        region="us-east-1",
        volume_type="gp2",
        component="storage",
        usd_per_unit_month=Decimal("0.1"),
        effective_from=datetime.date(2021, 2, 1),
        source="test",
    )
    bad = VolumePriceRecord(**{**_fields(good), **changes})
    with pytest.raises(DomainError, match=message):
        price_services.record_volume_prices(records=[good, bad])
    assert not VolumePrice.objects.exists()


def _fields(record: VolumePriceRecord) -> dict:
    return {name: getattr(record, name) for name in record.__slots__}
