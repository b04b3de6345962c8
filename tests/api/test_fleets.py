"""`POST /api/v1/fleets/`: a FOCUS bill or a plain fleet CSV re-bought, as JSON or FOCUS-named
CSV; bad files and questions refused naming what is wrong; nothing stored."""

import csv
import io

import pytest
from rest_framework.test import APIClient

from benchmarks.models import Price, Run
from tests.fleet.fleet_data import KEY, measure_fleet_types
from tests.fleet.focus_rows import acceptance_rows, focus_csv, focus_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    measure_fleet_types()
    return APIClient()


def post(client, content: bytes | str, query: str = f"benchmark={KEY}"):
    upload = io.BytesIO(content.encode() if isinstance(content, str) else content)
    upload.name = "fleet.csv"
    return client.post(f"/api/v1/fleets/?{query}", {"file": upload}, format="multipart")


def test_the_acceptance_bill_is_answered_with_two_lines_a_total_and_a_summary(client):
    prices_before = Price.objects.count()

    response = post(client, focus_csv(acceptance_rows()))

    assert response.status_code == 200
    body = response.json()
    lines = {line["instance_type"]: line for line in body["lines"]}
    assert set(lines) == {"m5.xlarge", "c5.xlarge"}
    assert lines["m5.xlarge"]["hours"] == pytest.approx(48)
    assert lines["m5.xlarge"]["usd_per_month"] == pytest.approx(48 * 0.192)
    assert lines["c5.xlarge"]["usd_per_month"] == pytest.approx(48 * 0.17 * 0.7)
    for line in lines.values():
        saving = line["replacement"]["saving_usd_per_month"]
        assert line["replacement"]["instance_type"] == "c7g.xlarge"
        assert saving["low"] <= saving["mid"] <= saving["high"]
    assert body["total"]["usd_per_month"] == pytest.approx(48 * 0.192 + 48 * 0.17 * 0.7)
    assert body["other_rows"] == 1
    assert body["summary"].startswith("Re-buying 2 of 2 lines")
    # A fleet is a question: nothing stored.
    assert Price.objects.count() == prices_before
    assert Run.objects.count() == 3


def test_format_csv_gives_the_lines_with_focus_and_x_columns(client):
    response = post(client, focus_csv(acceptance_rows()), f"benchmark={KEY}&format=csv")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 2
    for column in (
        "RegionId",
        "ConsumedQuantity",
        "EffectiveCost",
        "x_ReplacementInstanceType",
        "x_WorkRatio",
        "x_SavingLow",
        "x_SavingHigh",
        "x_Estimated",
    ):
        assert column in rows[0]
    assert {row["x_ReplacementInstanceType"] for row in rows} == {"c7g.xlarge"}
    assert {row["x_Estimated"] for row in rows} == {"false"}
    assert float(rows[0]["ConsumedQuantity"]) == pytest.approx(48)
    # c5.xlarge was bought Committed; with no reserved price known it is compared on-demand.
    c5 = next(row for row in rows if row["x_InstanceType"] == "c5.xlarge")
    assert (c5["PricingCategory"], c5["x_ReplacementPricingCategory"]) == ("Committed", "Standard")


def test_a_plain_csv_is_priced_at_list_price(client):
    response = post(client, "instance_type,region,count,hours\nm5.xlarge,us-east-1,2,730\n")

    line = response.json()["lines"][0]
    assert line["usd_per_month"] == pytest.approx(2 * 730 * 0.192)
    assert line["paid"] is False


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not a CSV file"),
        ("hello,world\n1,2\n", "not a fleet file"),
        ("BilledCost,ServiceCategory,RegionId\n1,Compute,us-east-1\n", "SkuPriceDetails"),
        ("instance_type,region,count,hours\nm5.xlarge,us-east-1,1,-730\n", "negative"),
        (focus_csv([focus_row(hours=-3)]), "negative"),
    ],
)
def test_a_bad_file_is_a_400_naming_what_is_wrong(client, content, words):
    response = post(client, content)

    assert response.status_code == 400
    assert words in " ".join(response.json()["file"])


def test_a_file_over_the_upload_limit_is_refused_as_runs_are(client, settings):
    settings.PRICEBENCH_MAX_UPLOAD_BYTES = 1024
    response = post(
        client, "instance_type,region,count,hours\n" + "m5.xlarge,us-east-1,1,1\n" * 100
    )

    assert response.status_code == 413
    assert "limit is 1,024 bytes" in " ".join(response.json()["file"])


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "benchmark"),
        (f"benchmark={KEY}&profile=crypto", "benchmark"),
        ("benchmark=nope:nothing", "benchmark"),
        ("profile=nope", "profile"),
        (f"benchmark={KEY}&regions=moon", "regions"),
        (f"benchmark={KEY}&threads=4", "threads"),
    ],
)
def test_a_bad_question_is_a_400_naming_the_parameter(client, query, field):
    response = post(client, focus_csv(acceptance_rows()), query)

    assert response.status_code == 400
    assert field in response.json()


def test_a_type_no_cloud_sells_is_skipped_with_the_reason(client):
    response = post(client, focus_csv([focus_row(), focus_row(instance_type="zz9.plural")]))

    body = response.json()
    assert response.status_code == 200
    assert [line["instance_type"] for line in body["lines"]] == ["m5.xlarge"]
    assert body["skipped"] == [{"row": 2, "reason": body["skipped"][0]["reason"]}]
    assert "no cloud sells" in body["skipped"][0]["reason"]


def test_a_file_without_one_is_a_400(client):
    response = client.post(f"/api/v1/fleets/?benchmark={KEY}", {}, format="multipart")

    assert response.status_code == 400
    assert "file" in response.json()
