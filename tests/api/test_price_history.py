"""Imported prices drive the price-performance answer, and their history is kept."""

import datetime
import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from benchmarks.models import Price
from benchmarks.services import runs as run_services
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

RESPONSES = SHARED_DATA / "pricing" / "aws-responses"
URL = "/api/v1/price-performance/"


def store_result(instance_type: str, value: float) -> None:
    table = (
        "benchmark,instance_type,region,value,unit\n"
        f"openssl:sha256,{instance_type},us-east-1,{value},B/s\n"
    )
    run, _ = run_services.record_run(content=table.encode(), format="csv")
    assert run.status == "done", run.error


def test_the_fargate_price_list_prices_a_fargate_run_today():
    call_command(
        "import_prices",
        "--price-list",
        str(RESPONSES / "GetProducts_AmazonECS_us-east-1_2022-11.json"),
    )
    store_result("fargate-1vcpu-2gb", 1e9)
    body = APIClient().get(URL, {"benchmark": "openssl:sha256", "region": "us-east-1"}).json()
    [row] = body["results"]
    assert row["usd_per_hour"] == pytest.approx(0.04048 + 2 * 0.004445)
    assert row["price_note"] is None
    assert row["per_dollar"] == pytest.approx(1e9 * 3600 / 0.04937)


def test_a_changed_price_opens_a_new_period_and_the_old_day_keeps_the_old_price(tmp_path):
    item = json.loads(
        (RESPONSES / "GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json").read_text()
    )
    page = tmp_path / "page.json"
    page.write_text(json.dumps({"PriceList": [json.dumps(item)]}))
    call_command("import_prices", "--price-list", str(page))
    call_command("import_prices", "--price-list", str(page))
    on_demand = Price.objects.filter(instance_type__name="m5.large", purchase_option="on_demand")
    assert on_demand.count() == 1
    first = on_demand.get()
    assert float(first.usd_per_hour) == pytest.approx(0.096)

    # The same SKU a year later at a new price.
    [term] = item["terms"]["OnDemand"].values()
    later = (first.effective_from + datetime.timedelta(days=365)).isoformat()
    term["effectiveDate"] = f"{later}T00:00:00Z"
    [dimension] = term["priceDimensions"].values()
    dimension["pricePerUnit"]["USD"] = "0.0860000000"
    page.write_text(json.dumps({"PriceList": [json.dumps(item)]}))
    call_command("import_prices", "--price-list", str(page))

    periods = list(on_demand.order_by("effective_from"))
    assert [float(p.usd_per_hour) for p in periods] == [0.096, 0.086]
    assert periods[0].effective_to == datetime.date.fromisoformat(later) - datetime.timedelta(
        days=1
    )
    store_result("m5.large", 5e8)
    client = APIClient()
    query = {"benchmark": "openssl:sha256", "region": "us-east-1"}
    before = client.get(URL, {**query, "at": first.effective_from.isoformat()}).json()
    after = client.get(URL, {**query, "at": later}).json()
    assert before["results"][0]["usd_per_hour"] == pytest.approx(0.096)
    assert after["results"][0]["usd_per_hour"] == pytest.approx(0.086)
