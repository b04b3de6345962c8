"""One price-performance question asked of the page, the API and its CSV: the same numbers."""

import csv
import io
import json

import pytest
from rest_framework.test import APIClient

from tests.api.test_price_performance_at_scale import URL, fleet

pytestmark = pytest.mark.django_db

FIGURES = ("median", "usd_per_hour", "per_dollar", "relative_throughput", "relative_per_dollar")


def test_the_page_the_api_and_the_csv_give_identical_numbers(client):
    names = fleet(12)
    question = {
        "benchmark": "tool:x",
        "region": "ap-northeast-1",
        "baseline": names[3],
        "families": "",
    }
    api = APIClient().get(URL, question).json()["results"]
    table = list(
        csv.DictReader(
            io.StringIO(APIClient().get(URL, {**question, "format": "csv"}).content.decode())
        )
    )
    page = client.get("/", question)
    assert page.status_code == 200
    text = page.content.decode()
    chart = json.loads(text.split('id="chart-data" type="application/json">')[1].split("<")[0])

    by_type = {row["instance_type"]: row for row in api}
    assert len(by_type) == 12
    assert [row["instance_type"] for row in table] == [row["instance_type"] for row in api]
    assert {row["instance_type"] for row in chart["rows"]} == set(by_type)
    for row in table:
        for figure in FIGURES:
            assert float(row[figure]) == by_type[row["instance_type"]][figure], figure
    for row in chart["rows"]:
        for figure in FIGURES:
            assert row[figure] == by_type[row["instance_type"]][figure], figure
    assert by_type[names[3]]["relative_per_dollar"] == 1
    # The CSV read alone still says what it answers.
    assert {(row["basis"], row["region"], row["purchase_option"]) for row in table} == {
        ("sustained", "ap-northeast-1", "on_demand")
    }
