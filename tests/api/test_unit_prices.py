"""`GET /api/v1/unit-prices/`: the answer, its CSV, refusals naming the field, and a fixed
number of queries whatever the number of types."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from benchmarks.models import FargateRate, InstanceType, Price, Region
from benchmarks.selectors.costs.prices import hourly_prices

pytestmark = pytest.mark.django_db

URL = "/api/v1/unit-prices/"
START = datetime.date(2024, 1, 1)


def fleet(count: int, *, zones: int = 3) -> list[str]:
    """`count` types of family zz1 priced in us-east-1, on demand, in `zones` spot zones and
    reserved (1 year, no upfront), and Fargate's x86_64 rates there."""
    names = [f"zz1.n{index}" for index in range(count)]
    InstanceType.objects.bulk_create(
        InstanceType(name=name, vcpus=2, memory_gib=4, architecture="x86_64") for name in names
    )
    types = InstanceType.objects.filter(name__in=names)
    region = Region.objects.get(code="us-east-1")
    Price.objects.bulk_create(
        Price(
            instance_type=instance_type,
            region=region,
            purchase_option=option,
            availability_zone=zone,
            usd_per_hour=Decimal(usd),
            effective_from=START,
            source="test",
        )
        for instance_type in types
        for option, zone, usd in [
            ("on_demand", "", "0.1"),
            *(("spot", f"use1-az{number}", f"0.0{number}") for number in range(1, zones + 1)),
        ]
    )
    Price.objects.bulk_create(
        Price(
            instance_type=instance_type,
            region=region,
            purchase_option="reserved",
            term="1y",
            payment="no_upfront",
            offering_class="standard",
            upfront_usd=Decimal(0),
            hourly_usd=Decimal("0.06"),
            usd_per_hour=Decimal("0.06"),
            effective_from=START,
            source="test",
        )
        for instance_type in types
    )
    for component, usd in (("vcpu", "0.04048"), ("memory_gb", "0.004445")):
        FargateRate.objects.create(
            region=region,
            architecture="x86_64",
            component=component,
            usd_per_unit_hour=Decimal(usd),
            effective_from=START,
            source="test",
        )
    return names


def get(params, **headers):
    return APIClient().get(URL, params, **headers)


def test_it_answers_each_type_and_task_size_per_vcpu_hour_and_per_gib_hour():
    fleet(2)
    body = get({"region": "us-east-1", "families": "zz1,fargate", "at": "2024-06-01"}).json()
    assert (body["region"], body["purchase_option"], body["at"]) == (
        "us-east-1",
        "on_demand",
        "2024-06-01",
    )
    assert body["families"] == ["zz1", "fargate"]
    first = body["results"][0]
    assert first == {
        "instance_type": "zz1.n0",
        "family": "zz1",
        "architecture": "x86_64",
        "vcpus": 2.0,
        "memory_gib": 4.0,
        "usd_per_hour": 0.1,
        "usd_per_vcpu_hour": 0.05,
        "usd_per_gib_hour": 0.025,
        "price_effective_from": "2024-01-01",
        "price_note": None,
        "upfront_usd": None,
        "hourly_usd": None,
        "usd_per_sustained_vcpu_hour": None,  # not burstable
    }
    task = next(row for row in body["results"] if row["instance_type"] == "fargate-2vcpu-4gb")
    assert (task["usd_per_hour"], task["usd_per_vcpu_hour"]) == (0.09874, 0.04937)
    summary = {(row["family"], row["architecture"]): row for row in body["summary"]}
    assert summary[("zz1", "x86_64")]["instance_types"] == 2
    assert summary[("fargate", "x86_64")]["usd_per_vcpu_hour"] == 0.04937
    # No arm64 rates were stored: said, not failed.
    assert body["missing"] == [
        {
            "family": "fargate",
            "instance_type": None,
            "reason": "no Fargate arm64 rates known in us-east-1",
        }
    ]
    assert body["fargate_rates"] == [
        {
            "architecture": "x86_64",
            "usd_per_vcpu_hour": 0.04048,
            "usd_per_gb_hour": 0.004445,
            "effective_from": "2024-01-01",
            "price_note": None,
        }
    ]


def test_spot_answers_the_median_of_the_zones_and_lists_fargate_as_missing():
    fleet(1, zones=3)
    body = get({"region": "us-east-1", "purchase_option": "spot", "families": "zz1,fargate"}).json()
    [row] = body["results"]
    assert (row["usd_per_hour"], row["usd_per_vcpu_hour"]) == (0.02, 0.01)  # 0.01, 0.02, 0.03
    assert row["price_note"] == "median of 3 availability zones"
    assert [missing["family"] for missing in body["missing"]] == ["fargate"]
    assert "Fargate Spot" in body["missing"][0]["reason"]


def test_csv_answers_one_line_per_row():
    fleet(3)
    response = get({"region": "us-east-1", "families": "zz1", "format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["instance_type"] for row in rows] == ["zz1.n0", "zz1.n1", "zz1.n2"]
    assert rows[0]["usd_per_vcpu_hour"] == "0.05" and rows[0]["usd_per_gib_hour"] == "0.025"
    assert rows[0]["price_effective_from"] == "2024-01-01"


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({}, "region", "required"),
        ({"region": "us-east-9"}, "region", "unknown region 'us-east-9'"),
        ({"region": "us-east-1", "purchase_option": "reserved_1y"}, "purchase_option", "valid"),
        ({"region": "us-east-1", "term": "5y"}, "term", "5y is not a valid choice"),
        ({"region": "us-east-1", "at": "13/12/2017"}, "at", "YYYY-MM-DD"),
        ({"region": "us-east-1", "families": "c7g,C7G.large"}, "families", "not a family name"),
        (
            {"region": "us-east-1", "families": ",".join(f"f{n}" for n in range(21))},
            "families",
            "at most 20",
        ),
    ],
)
def test_a_bad_question_is_a_400_naming_the_field(params, field, words):
    response = get(params)
    assert response.status_code == 400, response.content
    assert words in " ".join(response.json()[field])


def test_the_api_root_lists_it():
    assert APIClient().get("/api/v1/").json()["unit-prices"].endswith(URL)


@pytest.mark.parametrize("count", [10, 1000])
@pytest.mark.parametrize("option", ["on_demand", "spot", "reserved"])
def test_it_answers_in_three_queries_whatever_the_number_of_types(count, option):
    fleet(count)
    with CaptureQueriesContext(connection) as captured:
        response = get(
            {"region": "us-east-1", "families": "zz1,fargate", "purchase_option": option}
        )
    assert response.status_code == 200
    rows = [row for row in response.json()["results"] if row["family"] == "zz1"]
    assert len(rows) == count
    assert len(captured) <= 3, [query["sql"][:120] for query in captured]


def test_a_reserved_answer_prices_each_type_by_its_term_and_says_its_parts():
    fleet(2)
    region = Region.objects.get(code="us-east-1")
    Price.objects.create(
        instance_type=InstanceType.objects.get(name="zz1.n0"),
        region=region,
        purchase_option="reserved",
        term="3y",
        payment="all_upfront",
        offering_class="standard",
        upfront_usd=Decimal("1051.2"),
        hourly_usd=Decimal(0),
        usd_per_hour=Decimal("0.04"),
        effective_from=START,
        source="test",
    )
    query = {"region": "us-east-1", "families": "zz1,fargate", "at": "2024-06-01"}
    body = get({**query, "purchase_option": "reserved", "term": "3y", "payment": "all_upfront"})
    body = body.json()
    assert (body["term"], body["payment"], body["offering_class"], body["plan"]) == (
        "3y",
        "all_upfront",
        "standard",
        None,
    )
    [row] = body["results"]
    assert (row["instance_type"], row["usd_per_hour"], row["usd_per_vcpu_hour"]) == (
        "zz1.n0",
        0.04,
        0.02,
    )
    assert (row["upfront_usd"], row["hourly_usd"]) == (1051.2, 0)
    # Fargate has no Reserved rates: said, not failed.
    assert [missing["family"] for missing in body["missing"]] == ["fargate"]


def test_spot_is_the_median_zone_unless_the_cheapest_is_asked():
    fleet(1)
    query = {"region": "us-east-1", "families": "zz1", "at": "2024-06-01"}
    median = get({**query, "purchase_option": "spot"}).json()["results"][0]
    cheapest = get({**query, "purchase_option": "spot", "spot_zone": "cheapest"}).json()
    assert median["usd_per_hour"] == pytest.approx(0.02)
    assert cheapest["results"][0]["usd_per_hour"] == pytest.approx(0.01)
    assert cheapest["spot_zone"] == "cheapest"
    assert cheapest["results"][0]["price_note"] == "cheapest of 3 availability zones: use1-az1"


def test_fargate_spot_sizes_of_the_same_gib_hour_price_give_the_same_figure(shared_data):
    # Fargate Spot in eu-west-1 (2019): 0.01379631 a vCPU-hour, 0.00151494 a GB-hour. Any size
    # with 2 GB per vCPU costs 0.5 x 0.01379631 + 0.00151494 = 0.008413095 a GiB-hour; the
    # rounded task price (0.004206548 for 0.0042065475) made the smallest 0.008413096.
    sample = shared_data / "pricing/aws-samples/aws_fargate_spot_prices_ligoj_2019.json"
    call_command("import_prices", "--fargate-spot", str(sample), stdout=io.StringIO())
    body = get(
        {"region": "eu-west-1", "families": "fargate", "purchase_option": "fargate_spot",
         "at": "2024-06-01"}
    ).json()  # fmt: skip
    rows = {row["instance_type"]: row for row in body["results"]}
    small, large = rows["fargate-0.25vcpu-0.5gb"], rows["fargate-1vcpu-2gb"]
    assert (small["usd_per_hour"], large["usd_per_hour"]) == (0.0042065475, 0.01682619)
    assert small["usd_per_gib_hour"] == large["usd_per_gib_hour"] == 0.008413095
    # As price-performance prices the task: the rates times the sizes, exactly.
    quote = hourly_prices(
        instance_types=[InstanceType.objects.get(name="fargate-0.25vcpu-0.5gb")],
        region=Region.objects.get(code="eu-west-1"),
        purchase_option="fargate_spot",
        day=datetime.date(2024, 6, 1),
    ).popitem()[1]
    assert quote.usd_per_hour == Decimal(str(small["usd_per_hour"]))
