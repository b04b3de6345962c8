"""GPU types keep their GPUs' model and memory from Spare Cores' server table (bundled in
instance_specs*.csv), beside the count: in the API and on the instance type's page."""

from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Vendor
from benchmarks.services import prices as price_services

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
