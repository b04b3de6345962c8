"""Google Cloud's prices (`import_prices --gcp-skus`): Compute Engine SKUs of the Cloud Billing
Catalog, a family's core and RAM rates turned into each machine type's price (issue 28).

The file is a real `skus` page (../shared/data/pricing/other-clouds/SOURCES.md): A2 core and
RAM in the Americas in USD, T2D and E2 in IDR with the catalog's conversion rate.
"""

import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Price, Region, Vendor
from tests.selectors.test_price_performance import run_with

pytestmark = pytest.mark.django_db

SKUS = (
    Path(__file__).resolve().parents[3]
    / "shared/data/pricing/other-clouds/gcp_billing_skus_opencost.json"
)


def run_import(path, *extra) -> str:
    out = io.StringIO()
    call_command("import_prices", "--gcp-skus", str(path), "--as-of", "2024-01-10", *extra,
                 stdout=out)  # fmt: skip
    return out.getvalue()


def test_the_a2_core_and_ram_rates_are_read_and_named():
    summary = run_import(SKUS)
    assert "A2 Instance Core running in Americas, OnDemand: 0.031611000 USD per vCPU-hour" in (
        summary
    )
    assert "A2 Instance Ram running in Americas, OnDemand: 0.004237000 USD per GiB-hour" in summary
    assert (
        "Nvidia Tesla A100 GPU running in Americas, OnDemand: 2.933908000 USD per GPU-hour"
        in summary
    )


@pytest.mark.parametrize(
    ("name", "usd"),
    [
        # 12 vCPUs, 85 GiB and one A100: Google's published $3.673385 an hour in us-central1.
        ("a2-highgpu-1g", "3.673385"),
        # 96 vCPUs, 1,360 GiB and sixteen A100s.
        ("a2-megagpu-16g", "55.739504"),
    ],
)
def test_a_gpu_type_adds_its_gpus_at_their_skus_rate(name, usd):
    run_import(SKUS)
    price = Price.objects.get(instance_type__name=name, region__code="us-central1")
    assert (price.currency, price.usd_per_hour) == ("USD", Decimal(usd))
    assert "Nvidia Tesla A100 GPU running in Americas" in price.source


def test_a_gpu_type_whose_gpus_sku_is_not_there_is_not_priced():
    run_import(SKUS)
    # A2 Ultra carries the 80 GB A100, a SKU of its own, not in this page; G2 carries L4s.
    assert not Price.objects.filter(instance_type__name__startswith="a2-ultragpu").exists()
    assert not Price.objects.filter(instance_type__name__startswith="g2-").exists()
    assert InstanceType.objects.get(vendor=Vendor.GCP, name="a2-ultragpu-1g").gpu_count == 1


def test_e2_shared_core_types_are_billed_their_fractional_vcpu():
    run_import(SKUS)
    core = Decimal(327) + Decimal("0.173848364")
    ram = Decimal(43) + Decimal("0.852949780")
    for name, fraction, gib in (
        ("e2-micro", "0.25", 1),
        ("e2-small", "0.5", 2),
        ("e2-medium", "1", 4),
    ):
        price = Price.objects.get(instance_type__name=name, region__code="us-central1")
        assert price.quoted_per_hour == (Decimal(fraction) * core + gib * ram).quantize(
            Decimal("1e-8")
        ), name
    # f1-micro and g1-small have SKUs of their own.
    assert not Price.objects.filter(instance_type__name__in=["f1-micro", "g1-small"]).exists()


def test_a_machine_type_costs_its_vcpus_and_gib_at_its_familys_rates_as_quoted():
    run_import(SKUS)
    e2 = Price.objects.get(instance_type__name="e2-standard-2", region__code="us-central1")
    core = Decimal(327) + Decimal("0.173848364")
    ram = Decimal(43) + Decimal("0.852949780")
    assert (e2.currency, e2.quoted_per_hour) == (
        "IDR",
        (2 * core + 8 * ram).quantize(Decimal("1e-8")),
    )
    # In dollars at the catalog's own conversion rate (14,999.999925 IDR per dollar).
    rate = Decimal("14999.999925")
    assert e2.usd_per_hour == (2 * core / rate + 8 * ram / rate).quantize(Decimal("1e-8"))
    assert e2.instance_type.vendor == "gcp" and e2.purchase_option == "on_demand"
    assert set(
        Price.objects.filter(instance_type__name="e2-standard-2").values_list(
            "region__code", flat=True
        )
    ) == {"us-central1", "us-east1", "us-west1"}
    assert Region.objects.filter(vendor=Vendor.GCP, code="asia-southeast1").exists()


def test_prices_gives_the_rupiah_quote_to_ten_significant_digits():
    run_import(SKUS)
    # 16 x 327.173848364 + 16 x 43.852949780 IDR, kept as 5936.42877030: its figure past
    # ten digits is below the rupiah's smallest coin.
    answer = APIClient().get(
        "/api/v1/prices/", {"instance_type": "e2-highcpu-16", "region": "us-central1"}
    )
    [row] = answer.json()["results"]
    assert (row["currency"], row["price_per_hour"]) == ("IDR", 5936.42877)
    # And so does a price-performance row asked in rupiah.
    run_with("e2-highcpu-16", [20000.0], key="passmark:cpu-mark", region=None)
    answer = APIClient().get(
        "/api/v1/price-performance/",
        {"benchmark": "passmark:cpu-mark", "region": "us-central1", "currency": "IDR",
         "at": "2024-01-15"},
    )  # fmt: skip
    [row] = answer.json()["results"]
    assert (row["currency"], row["price_per_hour"]) == ("IDR", 5936.42877)


def test_importing_again_stores_nothing(tmp_path):
    first = run_import(SKUS)
    assert "stored 0, unchanged" in run_import(SKUS) and "stored 0" not in first


def test_pages_that_are_not_the_catalogs_are_refused_with_nothing_written(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"items": []}))
    with pytest.raises(CommandError, match="each needs a `skus` list"):
        run_import(path)
    page = json.loads(SKUS.read_text())
    del page["skus"][1]["pricingInfo"]
    path.write_text(json.dumps(page))
    with pytest.raises(CommandError, match="A2 Instance Ram running in Americas"):
        run_import(path)
    assert not Price.objects.exists()


KEY = "a-test-api-key"


def skus_pages(path, query, headers):
    """The catalog's `skus`: the real page's SKUs two a page with `nextPageToken`, only for
    the API key KEY (sent as a header)."""
    if headers.get("X-Goog-Api-Key") != KEY:
        return 403, {"error": {"code": 403, "message": "API key not valid."}}
    skus = json.loads(SKUS.read_text())["skus"]
    start = int(query.get("pageToken", ["0"])[0])
    following = start + 2 if start + 2 < len(skus) else None
    return 200, {"skus": skus[start : start + 2], "nextPageToken": str(following or "")}


@pytest.fixture
def catalog(settings):
    from tests.json_api import JsonApi

    api = JsonApi(skus_pages, prefix="/v1/services/6F81-5844-456A/skus")
    settings.PRICEBENCH_GCP_SKUS_URL = api.url
    yield api
    api.close()


def test_the_live_catalog_is_read_page_by_page_with_the_key(catalog, settings):
    settings.PRICEBENCH_GOOGLE_API_KEY = KEY
    out = io.StringIO()
    call_command("import_prices", "--api", "--service", "gcp", "--region", "us-central1",
                 stdout=out)  # fmt: skip
    assert len(catalog.requests) == 4  # 7 SKUs, 2 a page
    assert all(KEY not in request for request in catalog.requests)
    prices = Price.objects.filter(instance_type__vendor=Vendor.GCP)
    assert set(prices.values_list("region__code", flat=True)) == {"us-central1"}
    assert prices.get(instance_type__name="a2-highgpu-1g").usd_per_hour == Decimal("3.673385")
    assert f"read 7, matched {prices.count()}, stored {prices.count()}" in out.getvalue()
    assert "us-central1, fetched" in out.getvalue()


def test_without_a_key_or_with_a_wrong_one_nothing_is_written(catalog, settings):
    settings.PRICEBENCH_GOOGLE_API_KEY = ""
    with pytest.raises(CommandError, match="set GOOGLE_API_KEY"):
        call_command("import_prices", "--api", "--service", "gcp", "--region", "us-central1")
    settings.PRICEBENCH_GOOGLE_API_KEY = "wrong"
    with pytest.raises(CommandError, match="HTTP 403") as refused:
        call_command("import_prices", "--api", "--service", "gcp", "--region", "us-central1")
    assert "wrong" not in str(refused.value)
    assert not Price.objects.exists() and len(catalog.requests) == 1
