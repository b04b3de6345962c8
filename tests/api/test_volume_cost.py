"""`volume-cost/` and `volume-prices/`: EBS volumes priced with the rates of a day."""

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.models import Region, VolumePrice
from benchmarks.pricing.records import VolumePriceRecord
from benchmarks.services.prices import record_volume_prices

pytestmark = pytest.mark.django_db

URL = "/api/v1/volume-cost/"
TOKYO_JUNE_2014 = {"region": "ap-northeast-1", "at": "2014-06-15"}


def rate(volume_type, component, usd, tier=1, region="us-east-1", day=datetime.date(2021, 2, 1)):
    return VolumePriceRecord(
        region=region,
        volume_type=volume_type,
        component=component,
        tier=tier,
        usd_per_unit_month=Decimal(usd),
        effective_from=day,
        source="AWS's published us-east-1 EBS prices, as test figures",
    )


@pytest.fixture
def us_east_1_rates():
    record_volume_prices(
        records=[
            rate("gp3", "storage", "0.08"),
            rate("gp3", "iops", "0.005"),
            rate("gp3", "throughput", "0.04"),
            rate("io2", "storage", "0.125"),
            rate("io2", "iops", "0.065", tier=1),
            rate("io2", "iops", "0.0455", tier=2),
            rate("io2", "iops", "0.032", tier=3),
            rate("st1", "storage", "0.045"),
        ]
    )


def get(**query):
    return APIClient().get(URL, query)


def test_after_loaddemo_study_s4s_volumes_cost_88_20_and_48_00_a_month():
    call_command("loaddemo", "--part", "first")
    io1 = get(**TOKYO_JUNE_2014, volume_type="io1", size_gb=100, iops=1000)
    assert io1.status_code == 200, io1.json()
    body = io1.json()
    assert body["usd_per_month"] == pytest.approx(88.20)
    assert [(part["what"], part["usd_per_month"]) for part in body["parts"]] == [
        ("storage", pytest.approx(14.2)),
        ("iops", pytest.approx(74.0)),
    ]
    assert (body["baseline_iops"], body["max_iops"]) == (1000, 1000)
    assert (body["region"], body["volume_type"], body["at"]) == (
        "ap-northeast-1",
        "io1",
        "2014-06-15",
    )

    gp2 = get(**TOKYO_JUNE_2014, volume_type="gp2", size_gb=400).json()
    assert gp2["usd_per_month"] == pytest.approx(48.00)
    assert (gp2["baseline_iops"], gp2["max_iops"]) == (1200, 3000)


def test_each_part_names_its_rate_its_period_and_its_source():
    call_command("import_prices", "--snapshot")
    body = get(**TOKYO_JUNE_2014, volume_type="io1", size_gb=100, iops=1000).json()
    iops = body["parts"][1]
    assert iops == {
        "what": "iops",
        "tier": 1,
        "quantity": 1000,
        "unit": "IOPS-month",
        "usd_per_unit_month": pytest.approx(0.074),
        "usd_per_month": pytest.approx(74.0),
        "effective_from": "2014-06-01",
        "effective_to": "2014-06-30",
        "source": iops["source"],
        "price_note": None,
    }
    assert iops["source"].startswith("Study S4")


def test_a_day_without_a_price_in_force_uses_the_nearest_known_and_says_so():
    call_command("import_prices", "--snapshot")
    body = get(region="ap-northeast-1", volume_type="gp2", size_gb=400, at="2026-01-01").json()
    assert body["usd_per_month"] == pytest.approx(48.0)
    (part,) = body["parts"]
    assert part["price_note"] == (
        "no price in force on 2026-01-01; using the nearest known, in force from 2014-06-01 "
        "to 2014-06-30"
    )


def test_io2_iops_are_priced_by_tier_and_gp3_pays_above_its_allowances(us_east_1_rates):
    io2 = get(region="us-east-1", volume_type="io2", size_gb=100, iops=80_000).json()
    assert [(p["what"], p["tier"], p["quantity"]) for p in io2["parts"]] == [
        ("storage", 1, 100),
        ("iops", 1, 32_000),
        ("iops", 2, 32_000),
        ("iops", 3, 16_000),
    ]
    assert io2["usd_per_month"] == pytest.approx(12.5 + 2080 + 1456 + 512)
    gp3 = get(region="us-east-1", volume_type="gp3", size_gb=100, iops=6000, throughput=250)
    body = gp3.json()
    assert body["usd_per_month"] == pytest.approx(8 + 3000 * 0.005 + 125 * 0.04)
    assert (body["iops"], body["throughput"], body["max_throughput"]) == (6000, 250, 250)
    plain = get(region="us-east-1", volume_type="gp3", size_gb=100).json()
    assert [part["what"] for part in plain["parts"]] == ["storage"]
    assert (plain["iops"], plain["throughput"]) == (3000, 125)


def test_hdd_volumes_answer_their_throughput(us_east_1_rates):
    body = get(region="us-east-1", volume_type="st1", size_gb=2048).json()
    assert body["usd_per_month"] == pytest.approx(92.16)
    assert (body["baseline_iops"], body["max_iops"]) == (None, 500)
    assert (body["baseline_throughput"], body["max_throughput"]) == (80, 500)


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ({"volume_type": "io1", "size_gb": 100}, "iops", "need their provisioned iops"),
        ({"volume_type": "io2", "size_gb": 100}, "iops", "need their provisioned iops"),
        ({"volume_type": "gp2", "size_gb": 0}, "size_gb", "1 to 16,384 GB"),
        ({"volume_type": "gp2", "size_gb": 16_385}, "size_gb", "1 to 16,384 GB"),
        ({"volume_type": "io1", "size_gb": 3, "iops": 100}, "size_gb", "4 to 16,384 GB"),
        ({"volume_type": "io1", "size_gb": 10, "iops": 1000}, "iops", "at most 500 IOPS"),
        ({"volume_type": "gp2", "size_gb": 400, "iops": 1000}, "iops", "no provisioned IOPS"),
        ({"volume_type": "gp3", "size_gb": 100, "throughput": 900}, "throughput", "at most"),
        ({"volume_type": "io1", "size_gb": 100, "iops": 1000, "throughput": 200}, "throughput", ""),
        ({"volume_type": "gp4", "size_gb": 100}, "volume_type", "not a valid choice"),
        ({"volume_type": "gp2"}, "size_gb", "required"),
        ({"volume_type": "gp2", "size_gb": "big"}, "size_gb", "valid integer"),
        ({"volume_type": "gp2", "size_gb": 100, "region": "ap-northeast-9"}, "region", "unknown"),
        ({"volume_type": "gp2", "size_gb": 100, "at": "June"}, "at", "Date has wrong format"),
    ],
)
def test_a_bad_query_is_a_400_naming_the_field(query, field, message):
    response = get(**{"region": "us-east-1", **query})
    assert response.status_code == 400
    body = response.json()
    assert list(body) == [field]
    assert message in body[field][0]


def test_a_volume_with_no_price_known_is_a_404_that_says_how_to_get_one():
    response = get(region="us-east-1", volume_type="gp2", size_gb=100)
    assert response.status_code == 404
    assert "no gp2 storage price is known in us-east-1" in response.json()["detail"]


@pytest.mark.parametrize("periods", [10, 1000])
def test_it_answers_in_two_queries_whatever_the_history(periods, django_assert_num_queries):
    region = Region.objects.get(code="us-east-1")
    start = datetime.date(2000, 1, 1)
    VolumePrice.objects.bulk_create(
        VolumePrice(
            region=region,
            volume_type="io1",
            component=component,
            usd_per_unit_month=Decimal("0.1") + Decimal(number) / 10_000,
            effective_from=start + datetime.timedelta(days=2 * number),
            effective_to=start + datetime.timedelta(days=2 * number + 1),
            source="test",
        )
        for number in range(periods // 2)
        for component in ("storage", "iops")
    )
    with django_assert_num_queries(2):
        response = get(region="us-east-1", volume_type="io1", size_gb=100, iops=1000)
    assert response.status_code == 200


def test_volume_prices_lists_every_period_or_those_in_force_on_a_day():
    call_command("import_prices", "--snapshot")
    client = APIClient()
    every = client.get("/api/v1/volume-prices/", {"region": "ap-northeast-1"}).json()
    assert every["count"] == 3
    iops = [price for price in every["results"] if price["component"] == "iops"]
    assert iops == [
        {
            "region": "ap-northeast-1",
            "volume_type": "io1",
            "component": "iops",
            "tier": 1,
            "unit": "IOPS-month",
            "usd_per_unit_month": pytest.approx(0.074),
            "effective_from": "2014-06-01",
            "effective_to": "2014-06-30",
            "source": iops[0]["source"],
        }
    ]
    later = client.get("/api/v1/volume-prices/", {"region": "ap-northeast-1", "at": "2015-01-01"})
    assert later.json()["count"] == 0
    gp2 = client.get("/api/v1/volume-prices/", {"volume_type": "gp2", "at": "2014-06-15"}).json()
    assert [price["usd_per_unit_month"] for price in gp2["results"]] == [pytest.approx(0.12)]
