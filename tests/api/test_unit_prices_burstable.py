"""`GET /api/v1/unit-prices/` on the demo's prices: a burstable type's vCPU-hour at what it
sustains once its CPU credits are spent, in the JSON and the CSV; null for the others."""

import csv
import io
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]

QUERY = {"region": "us-east-1", "families": "t2,c7i,fargate", "at": "2026-11-24"}


def test_t2_nano_sustains_its_vcpu_hour_over_five_percent():
    body = APIClient().get("/api/v1/unit-prices/", QUERY).json()
    rows = {row["instance_type"]: row for row in body["results"]}
    nano = rows["t2.nano"]
    # $0.0058 a vCPU-hour / 0.05: exactly $0.116 (as floats, 0.11599999999999999).
    assert nano["usd_per_vcpu_hour"] == 0.0058
    assert nano["usd_per_sustained_vcpu_hour"] == float(Decimal("0.0058") / Decimal("0.05"))
    assert nano["usd_per_sustained_vcpu_hour"] == 0.116
    # Every burstable row has one, with no float noise; the others say null.
    assert {row["family"] for row in body["results"] if row["usd_per_sustained_vcpu_hour"]} == {
        "t2"
    }
    assert rows["c7i.large"]["usd_per_sustained_vcpu_hour"] is None
    assert rows["fargate-1vcpu-2gb"]["usd_per_sustained_vcpu_hour"] is None
    assert rows["t2.large"]["usd_per_sustained_vcpu_hour"] == 0.1546667  # 0.0464 / 0.3


def test_the_csv_has_the_column_empty_for_types_that_do_not_burst():
    response = APIClient().get("/api/v1/unit-prices/", {**QUERY, "format": "csv"})
    rows = {row["instance_type"]: row for row in csv.DictReader(io.StringIO(response.text))}
    assert rows["t2.nano"]["usd_per_sustained_vcpu_hour"] == "0.116"
    assert rows["c7i.large"]["usd_per_sustained_vcpu_hour"] == ""
