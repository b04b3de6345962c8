"""describe_spot_price_history -> spot prices per availability zone, Linux/UNIX only."""

import datetime
from decimal import Decimal

import pytest
from botocore.stub import ANY, Stubber

from benchmarks.errors import DomainError
from benchmarks.pricing import aws
from benchmarks.pricing.records import ReadStats
from benchmarks.pricing.spot import read_spot_price_history


def test_the_documented_response_gives_one_price_per_zone(spot_example):
    stats = ReadStats()
    records = list(read_spot_price_history([spot_example], source="saved", stats=stats))
    assert [(r.region, r.availability_zone, r.usd_per_hour) for r in records] == [
        ("us-west-1", "us-west-1a", Decimal("0.080000")),
        ("us-west-1", "us-west-1c", Decimal("0.080000")),
    ]
    first = records[0]
    assert (first.instance_type, first.purchase_option) == ("m1.xlarge", "spot")
    assert first.effective_from == datetime.date(2014, 1, 6)
    assert first.observed_at == datetime.datetime(2014, 1, 6, 4, 32, 53, tzinfo=datetime.UTC)
    assert first.source == "saved: Linux/UNIX (Amazon VPC), price set 2014-01-06 04:32 UTC"
    assert (stats.read, stats.matched) == (2, 2)


def test_other_operating_systems_are_not_linux_spot_prices(spot_example):
    windows = dict(spot_example["SpotPriceHistory"][0], ProductDescription="Windows")
    suse = dict(spot_example["SpotPriceHistory"][0], ProductDescription="SUSE Linux")
    spot_example["SpotPriceHistory"] += [windows, suse]
    records = list(read_spot_price_history([spot_example], source="saved"))
    assert len(records) == 2


def test_a_zone_id_names_the_zone_when_aws_gives_one(spot_example):
    entry = dict(spot_example["SpotPriceHistory"][0], AvailabilityZoneId="usw1-az1")
    (record,) = read_spot_price_history([{"SpotPriceHistory": [entry]}], source="saved")
    assert (record.region, record.availability_zone) == ("us-west-1", "usw1-az1")


def test_without_zone_names_the_region_must_be_given(spot_example):
    entry = dict(spot_example["SpotPriceHistory"][0], AvailabilityZoneId="usw1-az1")
    del entry["AvailabilityZone"]
    with pytest.raises(DomainError, match=r"SpotPriceHistory\[0\]: no availability zone name"):
        list(read_spot_price_history([{"SpotPriceHistory": [entry]}], source="saved"))
    (record,) = read_spot_price_history(
        [{"SpotPriceHistory": [entry]}], source="saved", region="us-west-1"
    )
    assert record.region == "us-west-1"


def test_every_page_of_the_history_is_followed(aws_session, spot_example):
    client = aws.ec2_client("us-west-1", session=aws_session)
    first, second = spot_example["SpotPriceHistory"]
    at = datetime.datetime(2014, 1, 6, 8, 9, 10, tzinfo=datetime.UTC)
    expected = {"ProductDescriptions": ["Linux/UNIX"], "StartTime": at, "EndTime": at}
    with Stubber(client) as stubber:
        stubber.add_response(
            "describe_spot_price_history",
            {"SpotPriceHistory": [first], "NextToken": "more"},
            expected,
        )
        stubber.add_response(
            "describe_spot_price_history",
            {"SpotPriceHistory": [second]},
            {**expected, "NextToken": "more"},
        )
        pages = aws.collect(aws.fetch_spot_price_history(client, at=at))
        stubber.assert_no_pending_responses()
    records = list(read_spot_price_history(pages, source="api", region="us-west-1"))
    assert [record.availability_zone for record in records] == ["us-west-1a", "us-west-1c"]


def test_the_fetcher_asks_for_the_prices_in_force_now_by_default(aws_session):
    client = aws.ec2_client("us-east-1", session=aws_session)
    with Stubber(client) as stubber:
        stubber.add_response(
            "describe_spot_price_history",
            {"SpotPriceHistory": []},
            {"ProductDescriptions": ["Linux/UNIX"], "StartTime": ANY, "EndTime": ANY},
        )
        assert aws.collect(aws.fetch_spot_price_history(client)) == [{"SpotPriceHistory": []}]
