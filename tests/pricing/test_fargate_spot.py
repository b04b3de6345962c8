"""The Fargate Spot feed: rates per vCPU-hour and GB-hour, what it lacks said, and
`fargate-rates/?purchase_option=fargate_spot`."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.errors import DomainError
from benchmarks.models import FargateRate
from benchmarks.pricing.fargate_spot import load_fargate_spot_file, read_fargate_spot

SAMPLE = "aws_fargate_spot_prices_ligoj_2019.json"


def test_the_feed_gives_its_rates_from_the_day_of_its_version(aws_samples):
    feed = load_fargate_spot_file(aws_samples / SAMPLE)
    rates = {(r.region, r.component): r.usd_per_unit_hour for r in feed.records}
    assert rates == {
        ("us-east-1", "vcpu"): Decimal("0.01458"),
        ("eu-west-1", "vcpu"): Decimal("0.01379631"),
        ("eu-west-1", "memory_gb"): Decimal("0.00151494"),
    }
    assert {r.effective_from for r in feed.records} == {datetime.date(2019, 7, 30)}
    assert {(r.purchase_option, r.architecture) for r in feed.records} == {
        ("fargate_spot", "x86_64")
    }


def test_it_says_which_regions_lack_a_gb_hour_rate(aws_samples):
    assert load_fargate_spot_file(aws_samples / SAMPLE).missing == [
        "us-east-1 (x86_64) has no GB-hour rate"
    ]


def test_something_else_is_refused_naming_what_is_wrong():
    with pytest.raises(DomainError, match="not the Fargate Spot feed"):
        read_fargate_spot({"PriceList": []}, name="x.json")
    with pytest.raises(DomainError, match="does not start with a date"):
        read_fargate_spot({"metadata": {}, "prices": []}, name="x.json")


@pytest.mark.django_db
def test_the_command_imports_it_once_and_the_api_lists_it(aws_samples):
    out = io.StringIO()
    call_command("import_prices", "--fargate-spot", str(aws_samples / SAMPLE), stdout=out)
    assert "read 3, matched 3, stored 3" in out.getvalue()
    assert "missing: us-east-1 (x86_64) has no GB-hour rate" in out.getvalue()
    again = io.StringIO()
    call_command("import_prices", "--fargate-spot", str(aws_samples / SAMPLE), stdout=again)
    assert "stored 0, unchanged 3" in again.getvalue()
    assert FargateRate.objects.filter(purchase_option="fargate_spot").count() == 3
    body = (
        APIClient()
        .get("/api/v1/fargate-rates/", {"purchase_option": "fargate_spot", "region": "eu-west-1"})
        .json()
    )
    rows = body["results"] if isinstance(body, dict) else body
    assert {(row["component"], row["purchase_option"]) for row in rows} == {
        ("vcpu", "fargate_spot"),
        ("memory_gb", "fargate_spot"),
    }
    assert APIClient().get("/api/v1/fargate-rates/", {"purchase_option": "spot"}).status_code == 400
