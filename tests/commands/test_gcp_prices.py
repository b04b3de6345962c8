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

from benchmarks.models import InstanceType, Price, Region, Vendor

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
    # A2 types carry A100 GPUs, whose SKU is not matched to types: they are not priced.
    assert not Price.objects.filter(instance_type__name__startswith="a2-").exists()
    assert "Nvidia Tesla A100 GPU running in Americas" in summary


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
    # Shared-core types are billed by a fraction of a vCPU: not priced from these rates.
    assert not Price.objects.filter(instance_type__name="e2-micro").exists()
    assert InstanceType.objects.filter(vendor=Vendor.GCP, name="e2-micro").exists()


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
