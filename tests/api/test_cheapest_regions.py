"""`GET /api/v1/cheapest-regions/`: every region with a price for one type, cheapest first,
for any purchase option; a fixed number of queries whatever the number of regions."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from benchmarks.models import FargateRate, InstanceType, Price, Region

pytestmark = pytest.mark.django_db

URL = "/api/v1/cheapest-regions/"
START = datetime.date(2024, 1, 1)


def priced(name, prices: dict[str, str], *, option="on_demand", zone="", **commitment):
    instance_type, _ = InstanceType.objects.get_or_create(name=name)
    for code, usd in prices.items():
        Price.objects.create(
            instance_type=instance_type,
            region=Region.objects.get(code=code),
            purchase_option=option,
            availability_zone=zone,
            usd_per_hour=Decimal(usd),
            effective_from=START,
            source="test",
            **commitment,
        )


def get(params):
    return APIClient().get(URL, {"at": "2024-06-01", **params})


def test_it_lists_every_region_with_a_price_cheapest_first():
    priced("m5.large", {"us-east-1": "0.096", "eu-west-1": "0.107", "us-east-2": "0.096"})
    body = get({"instance_type": "m5.large"}).json()
    assert [(row["region"], row["usd_per_hour"]) for row in body["results"]] == [
        ("us-east-1", 0.096),
        ("us-east-2", 0.096),
        ("eu-west-1", 0.107),
    ]
    assert body["results"][0]["price_effective_from"] == "2024-01-01"


def test_a_commitment_is_compared_by_its_effective_hourly_price():
    priced("m5.large", {"us-east-1": "0.096"})
    priced(
        "m5.large",
        {"eu-west-1": "0.05"},
        option="reserved",
        term="1y",
        payment="no_upfront",
        offering_class="standard",
        upfront_usd=Decimal(0),
        hourly_usd=Decimal("0.05"),
    )
    body = get({"instance_type": "m5.large", "purchase_option": "reserved"}).json()
    assert body["term"] == "1y"
    assert [(row["region"], row["hourly_usd"]) for row in body["results"]] == [("eu-west-1", 0.05)]


def test_fargate_task_sizes_are_priced_from_each_regions_rates():
    for code, vcpu in (("us-east-1", "0.04048"), ("eu-west-1", "0.04456")):
        for component, usd in (("vcpu", vcpu), ("memory_gb", "0.004445")):
            FargateRate.objects.create(
                region=Region.objects.get(code=code),
                architecture="x86_64",
                component=component,
                usd_per_unit_hour=Decimal(usd),
                effective_from=START,
                source="test",
            )
    body = get({"instance_type": "fargate-1vcpu-2gb"}).json()
    assert [row["region"] for row in body["results"]] == ["us-east-1", "eu-west-1"]
    assert body["results"][0]["usd_per_hour"] == pytest.approx(0.04048 + 2 * 0.004445)


def test_an_unknown_type_is_a_400_naming_it():
    response = get({"instance_type": "m5.huge"})
    assert response.status_code == 400
    assert "m5.huge" in str(response.json())
    assert get({}).status_code == 400


@pytest.mark.parametrize("count", [10, 1000])
def test_it_answers_in_two_queries_whatever_the_number_of_prices(count):
    # Spot prices in every zone of every region: many periods, one row per region.
    regions = list(Region.objects.all())
    instance_type = InstanceType.objects.create(name="m5.large")
    Price.objects.bulk_create(
        Price(
            instance_type=instance_type,
            region=regions[index % len(regions)],
            purchase_option="spot",
            availability_zone=f"zone-{index}",
            usd_per_hour=Decimal("0.03"),
            effective_from=START,
            source="test",
        )
        for index in range(count)
    )
    with CaptureQueriesContext(connection) as captured:
        response = get({"instance_type": "m5.large", "purchase_option": "spot"})
    assert response.status_code == 200
    assert len(response.json()["results"]) == min(count, len(regions))
    assert len(captured) <= 2, [query["sql"][:120] for query in captured]


def test_the_api_root_lists_it():
    assert APIClient().get("/api/v1/").json()["cheapest-regions"].endswith(URL)
