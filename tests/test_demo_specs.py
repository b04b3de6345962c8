"""The demo specifies every type it has a result or a price for, burstable ones with AWS's
baseline (issue 23's acceptance)."""

from decimal import Decimal

import pytest
from django.core.management import call_command

from benchmarks.models import InstanceType
from benchmarks.selectors.instance_types import types_lacking_specs

pytestmark = pytest.mark.django_db


def test_every_type_with_a_result_or_a_price_has_its_specifications(demo_rolled_back, capsys):
    check = types_lacking_specs()
    assert check.checked > 800
    assert check.lacking == []
    call_command("check_specs")
    assert capsys.readouterr().out.startswith(f"all {check.checked:,} types")


def test_t4g_nano_is_burstable_at_five_percent_of_each_vcpu(demo_rolled_back):
    nano = InstanceType.objects.get(name="t4g.nano")
    assert (nano.vcpus, nano.memory_gib, nano.architecture) == (2, Decimal("0.5"), "arm64")
    assert (nano.cpu_allocation, nano.burstable) == ("burstable", True)
    assert (nano.baseline_share, nano.cpu_credits_per_hour) == (Decimal("0.05"), Decimal(6))


def test_every_aws_type_is_specified_and_spare_cores_is_credited(demo_rolled_back):
    ec2 = InstanceType.objects.filter(kind="ec2")
    assert ec2.count() >= 1394
    assert not ec2.filter(cpu_allocation="").exists()
    assert ec2.filter(burstable=True).count() == 28
    m5 = ec2.get(name="m5.large")
    assert "Spare Cores" in m5.specs_source
    assert "CC BY-SA 4.0" in m5.source


def test_the_api_gives_each_types_specifications_and_their_sources(demo_rolled_back):
    from rest_framework.test import APIClient

    client = APIClient()
    nano = client.get("/api/v1/instance-types/t4g.nano/").json()
    assert nano["cpu_allocation"] == "burstable" and nano["burstable"] is True
    assert nano["baseline_share"] == pytest.approx(0.05)
    assert nano["cpu_credits_per_hour"] == pytest.approx(6)
    assert nano["cpu_model"] == "AWS ARMv8 Neoverse-N1"
    assert (nano["gpu_count"], nano["network_gbps"]) == (0, pytest.approx(0.032))
    assert nano["specs_source"] == "AWS documentation; Spare Cores (sparecores.com), CC BY-SA 4.0"
    listed = client.get("/api/v1/instance-types/", {"family": "c7g", "limit": 500}).json()
    for row in listed["results"]:
        assert row["cpu_allocation"] == "dedicated"
        assert row["specs_source"].startswith("AWS describe_instance_types")


def test_the_instance_type_page_shows_the_specifications(demo_rolled_back, client):
    html = client.get("/instance-types/t4g.nano/").content.decode()
    assert "AWS ARMv8 Neoverse-N1" in html
    assert "burstable: a sustained 5% of each vCPU" in html
    assert "earning 6 CPU credits an hour" in html
    assert "Spare Cores (sparecores.com), CC BY-SA 4.0" in html
    html = client.get("/instance-types/c7g.xlarge/").content.decode()
    assert '<dd id="cpu-allocation">dedicated</dd>' in html
