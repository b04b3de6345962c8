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
