"""GPU types keep their GPUs' model and memory from Spare Cores' server table (bundled in
instance_specs*.csv), beside the count: in the API and on the instance type's page. Azure's
GPU sizes take theirs from Microsoft's size pages where a stored page lists them
(benchmarks/gpus.py), a part of one GPU as its part."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from benchmarks.gpus import AZURE_GPU_TYPES
from benchmarks.models import InstanceType, Region, SpecSource, Vendor
from benchmarks.services import prices as price_services
from benchmarks.services.prices.spec_sources import SpecUpdate, record_specs
from tests.commands.test_azure_prices import ITEMS
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db


def test_the_specifications_keep_each_gpu_types_model_and_memory():
    # sparecores-servers/aws.csv: g5.xlarge, 1 A10G, gpu_memory_total 22888 MiB
    price_services.import_bundled_specs()
    price_services.import_bundled_specs(vendor=Vendor.AZURE)

    g5 = InstanceType.objects.get(vendor=Vendor.AWS, name="g5.xlarge")
    assert (g5.gpu_count, g5.gpu_model, g5.gpu_memory_gib) == (1, "A10G", Decimal("22.352"))
    a100 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_NC24ads_A100_v4")
    assert (a100.gpu_count, a100.gpu_model, a100.gpu_memory_gib) == (1, "A100", Decimal(80))
    m5 = InstanceType.objects.get(vendor=Vendor.AWS, name="m5.large")
    assert (m5.gpu_count, m5.gpu_model, m5.gpu_memory_gib) == (0, "", None)

    again = price_services.import_bundled_specs()
    assert again.specs_updated == 0


def test_the_api_and_the_page_show_the_gpus():
    price_services.import_bundled_specs()

    row = APIClient().get("/api/v1/instance-types/g5.xlarge/").json()
    assert (row["gpu_count"], row["gpu_model"], row["gpu_memory_gib"]) == (1, "A10G", 22.352)
    page = Client().get("/instance-types/g5.xlarge/").content.decode()
    assert '<dd id="gpu-count">1 x A10G, 22.352 GiB of GPU memory</dd>' in page


def test_the_finder_shows_each_types_gpus_under_its_cpu_model():
    price_services.import_snapshot()
    price_services.import_bundled_specs()

    page = Client().get("/instance-types/", {"region": "us-east-1"}).content.decode()

    g5 = page[page.index('<tr data-instance-type="g5.xlarge">') :]
    g5 = g5[: g5.index("</tr>")]
    assert '<small class="gpus">GPUs: 1 x A10G, 22.352 GiB</small>' in g5
    m5 = page[page.index('<tr data-instance-type="m5.large">') :]
    assert "GPUs:" not in m5[: m5.index("</tr>")]


def _azure_gpu_rows() -> list[dict]:
    with (SHARED_DATA / "sparecores-servers" / "azure.csv").open() as handle:
        return [row for row in csv.DictReader(handle) if row["gpu_count"] not in ("", "0")]


def test_every_azure_gpu_size_a_stored_page_lists_gets_its_gpus_from_microsofts_page():
    price_services.import_bundled_specs(vendor=Vendor.AZURE)

    rows = _azure_gpu_rows()
    assert len(rows) == 73
    types = {it.name: it for it in InstanceType.objects.filter(vendor=Vendor.AZURE)}
    covered = [row["api_reference"] for row in rows if row["api_reference"] in AZURE_GPU_TYPES]
    assert len(covered) == 59
    for name in covered:
        it, page = types[name], AZURE_GPU_TYPES[name]
        assert (it.gpu_count, it.gpu_fraction, it.gpu_model, it.gpu_memory_gib) == (
            page.count,
            page.fraction,
            page.model,
            page.memory_gib,
        ), name
        assert it.spec_sources["gpu_model"] == "vendor_documentation", name
    # As Microsoft's pages give them (sizes/gpu-accelerated/nc-series, nvadsa10v5-series,
    # nd-h200-v5-series), beside what Spare Cores' table says (a count, no model).
    assert (types["Standard_NC6"].gpu_model, types["Standard_NC6"].gpu_memory_gib) == (
        "K80",
        Decimal(12),
    )
    h200 = types["Standard_ND96isr_H200_v5"]
    assert (h200.gpu_count, h200.gpu_model, h200.gpu_memory_gib) == (8, "H200", Decimal(1128))
    # A size no stored page lists keeps Spare Cores' count, without a model.
    a10_v4 = types["Standard_NC8ads_A10_v4"]
    assert (a10_v4.gpu_count, a10_v4.gpu_model, a10_v4.gpu_fraction) == (1, "", "")


def test_a_part_of_one_gpu_reads_as_its_part_in_the_api_the_page_and_the_finder():
    price_services.import_bundled_specs(vendor=Vendor.AZURE)
    Region.objects.create(vendor=Vendor.AZURE, code="eastus", name="East US")

    row = APIClient().get("/api/v1/instance-types/Standard_NV6ads_A10_v5/").json()
    assert (row["gpu_count"], row["gpu_fraction"], row["gpu_model"], row["gpu_memory_gib"]) == (
        1,
        "1/6",
        "A10",
        4.0,
    )
    page = Client().get("/instance-types/Standard_NV6ads_A10_v5/").content.decode()
    assert '<dd id="gpu-count">1/6 x A10, 4 GiB of GPU memory</dd>' in page
    finder = Client().get("/instance-types/", {"region": "eastus"}).content.decode()
    nv6 = finder[finder.index('<tr data-instance-type="Standard_NV6ads_A10_v5">') :]
    assert '<small class="gpus">GPUs: 1/6 x A10, 4 GiB</small>' in nv6[: nv6.index("</tr>")]
    nv72 = finder[finder.index('<tr data-instance-type="Standard_NV72ads_A10_v5">') :]
    assert '<small class="gpus">GPUs: 2 x A10, 48 GiB</small>' in nv72[: nv72.index("</tr>")]


def test_microsofts_page_wins_over_spare_cores_table_and_its_source_is_recorded():
    # Spare Cores: Standard_NV24ads_V710_v5 has 2 GPUs, Standard_NC40ads_H100_v5 95,830 MiB
    # of GPU memory; Microsoft's pages: one V710, and 94 GB.
    assert {row["api_reference"]: row["gpu_count"] for row in _azure_gpu_rows()}[
        "Standard_NV24ads_V710_v5"
    ] == "2"
    price_services.import_bundled_specs(vendor=Vendor.AZURE)

    v710 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_NV24ads_V710_v5")
    assert (v710.gpu_count, v710.gpu_model, v710.gpu_memory_gib) == (1, "V710", Decimal(24))
    h100 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_NC40ads_H100_v5")
    assert h100.gpu_memory_gib == Decimal(94)
    # Spare Cores' table again (a later import) changes none of them.
    record_specs(
        specs=[SpecUpdate(v710.name, {"gpu_count": 2, "gpu_model": "", "gpu_memory_gib": None})],
        source=SpecSource.SPARECORES,
        kind=InstanceType.Kind.VM,
        vendor=Vendor.AZURE,
    )
    v710.refresh_from_db()
    assert v710.gpu_count == 1
    assert "the vendor's documentation" in v710.specs_source
    assert (
        "Microsoft Learn, NVads_V710_v5-series sizes (https://learn.microsoft.com/azure/"
        "virtual-machines/sizes/gpu-accelerated/nvadsv710-v5-series" in v710.source
    )
    assert "CC BY 4.0" in v710.source and "Spare Cores" in v710.source
    row = APIClient().get("/api/v1/instance-types/Standard_NV24ads_V710_v5/").json()
    assert "nvadsv710-v5-series" in row["source"]
    assert price_services.import_bundled_specs(vendor=Vendor.AZURE).specs_updated == 0


def test_azures_prices_bring_a_new_gpu_sizes_documented_gpus():
    # Real Retail Prices API items: Standard_NV4as_v4 and Standard_ND96isr_H200_v5 among them,
    # on a database that has no Azure type yet.
    call_command("import_prices", "--azure-retail", str(ITEMS), stdout=io.StringIO())

    nv4 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_NV4as_v4")
    assert (nv4.kind, nv4.gpu_count, nv4.gpu_fraction, nv4.gpu_model, nv4.gpu_memory_gib) == (
        "vm",
        1,
        "1/8",
        "MI25",
        Decimal(2),
    )
    assert "sizes/gpu-accelerated/nvv4-series" in nv4.source
    h200 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_ND96isr_H200_v5")
    assert (h200.gpu_count, h200.gpu_model, h200.gpu_memory_gib) == (8, "H200", Decimal(1128))
    # A size no page of Microsoft's says anything of arrives bare, as before.
    d16 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_D16as_v4")
    assert (d16.vcpus, d16.gpu_count, d16.source, d16.spec_sources) == (None, None, "", {})
