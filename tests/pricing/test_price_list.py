"""Price List `get_products` items -> on-demand EC2 prices and Fargate rates (no database).

Reserved terms of the same items are tested in test_reserved.py."""

import datetime
import json
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.pricing.price_list import (
    decode_price_list,
    load_price_list_file,
    read_price_list,
)
from benchmarks.pricing.records import FargateRateRecord, PriceRecord, ReadStats
from tests.pricing.conftest import ECS_RESPONSE, M5_ITEM, decoy, with_usd


def page_of(*items) -> dict:
    """A get_products page as AWS sends it: each item a JSON string."""
    return {"FormatVersion": "aws_v1", "PriceList": [json.dumps(item) for item in items]}


def on_demand(records) -> list:
    return [record for record in records if record.purchase_option == "on_demand"]


def test_the_m5_large_item_gives_its_on_demand_price_and_its_reserved_ones(m5_item):
    stats = ReadStats()
    records = list(read_price_list([page_of(m5_item)], source="test", stats=stats))
    (record,) = on_demand(records)
    assert record == PriceRecord(
        instance_type="m5.large",
        region="us-east-1",
        purchase_option="on_demand",
        usd_per_hour=Decimal("0.096"),
        effective_from=datetime.date(2021, 2, 1),
        source="test (AmazonEC2 offer version 20210205204500, published 2021-02-05)",
        network_performance="Up to 10 Gigabit",
    )
    assert (stats.read, stats.matched) == (1, 13)
    assert {r.purchase_option for r in records[1:]} == {"reserved"}


def test_it_maps_the_location_to_a_region_when_the_item_has_no_region_code(m5_item):
    assert "regionCode" not in m5_item["product"]["attributes"]
    tokyo = decoy(m5_item, "TOKYO", location="Asia Pacific (Tokyo)")
    frankfurt = decoy(m5_item, "FRANKFURT", location="EU (Frankfurt)")
    newer_name = decoy(m5_item, "PARIS", location="Europe (Paris)")
    records = on_demand(read_price_list([page_of(tokyo, frankfurt, newer_name)], source="test"))
    assert [record.region for record in records] == ["ap-northeast-1", "eu-central-1", "eu-west-3"]


def test_it_prefers_the_region_code_when_there_is_one(m5_item):
    item = decoy(m5_item, "CODE", regionCode="eu-west-1", location="US East (N. Virginia)")
    (record,) = on_demand(read_price_list([page_of(item)], source="test"))
    assert record.region == "eu-west-1"


@pytest.mark.parametrize(
    "attributes",
    [
        {"operatingSystem": "Windows"},
        {"operatingSystem": "RHEL"},
        {"operatingSystem": "SUSE"},
        {"preInstalledSw": "SQL Std"},
        {"tenancy": "Dedicated"},
        {"tenancy": "Host"},
        {"capacitystatus": "UnusedCapacityReservation"},
        {"capacitystatus": "AllocatedCapacityReservation"},
        {"marketoption": "CapacityBlock"},
        {"locationType": "AWS Local Zone", "location": "US East (Boston)"},
    ],
    ids=lambda attributes: "-".join(attributes.values()),
)
def test_it_ignores_decoys_that_are_not_plain_linux_on_demand(m5_item, attributes):
    stats = ReadStats()
    records = list(
        read_price_list([page_of(decoy(m5_item, "DECOY", **attributes))], source="t", stats=stats)
    )
    assert records == []
    assert (stats.read, stats.matched) == (1, 0)


def test_it_ignores_a_zero_price_and_an_item_without_an_on_demand_term(m5_item):
    free = with_usd(decoy(m5_item, "FREE"), "0.0000000000")
    reserved_only = decoy(m5_item, "RESERVEDONLY")
    reserved_only["terms"].pop("OnDemand")
    records = list(read_price_list([page_of(free, reserved_only)], source="t"))
    # Their Reserved terms are prices all the same.
    assert on_demand(records) == []
    assert len(records) == 24


def test_the_amazonecs_response_gives_fargate_rates_for_x86_arm_and_storage(load_response):
    stats = ReadStats()
    records = list(read_price_list([load_response(ECS_RESPONSE)], source="t", stats=stats))
    assert all(isinstance(record, FargateRateRecord) for record in records)
    rates = {(r.architecture, r.component): r.usd_per_unit_hour for r in records}
    assert rates == {
        ("x86_64", "vcpu"): Decimal("0.04048"),
        ("x86_64", "memory_gb"): Decimal("0.004445"),
        ("arm64", "vcpu"): Decimal("0.03238"),
        ("arm64", "memory_gb"): Decimal("0.00356"),
        ("any", "ephemeral_storage_gb"): Decimal("0.000111"),
    }
    # Windows vCPU, memory and OS licence, ECS Anywhere and EC2 metering are not Fargate rates.
    assert (stats.read, stats.matched) == (11, 5)
    assert {r.region for r in records} == {"us-east-1"}
    assert {r.effective_from for r in records} == {datetime.date(2022, 11, 1)}


def test_it_decodes_items_sent_as_json_strings_and_names_a_broken_one(m5_item):
    pages = [page_of(m5_item), {"PriceList": ['{"product": ']}]
    with pytest.raises(DomainError, match=r"page 2, PriceList\[0\]: not JSON"):
        list(decode_price_list(pages))


def test_it_refuses_a_page_that_is_not_a_get_products_response():
    with pytest.raises(DomainError, match="page 1: not a get_products response"):
        list(decode_price_list([{"Products": []}]))


def test_a_saved_file_may_be_one_response_a_list_of_them_or_one_item(tmp_path, aws_responses):
    one = load_price_list_file(aws_responses / ECS_RESPONSE)
    assert len(one) == 1 and len(one[0]["PriceList"]) == 11
    item = load_price_list_file(aws_responses / M5_ITEM)
    assert item == [{"PriceList": [json.loads((aws_responses / M5_ITEM).read_text())]}]
    several = tmp_path / "pages.json"
    several.write_text(json.dumps(one + item))
    assert load_price_list_file(several) == one + item
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2")
    with pytest.raises(DomainError, match="broken.json: not JSON"):
        load_price_list_file(broken)
