"""`manage.py check_specs`: every type with a result or a price has vCPUs, memory,
architecture and cpu_allocation, or it is named with what it lacks."""

import datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from benchmarks.models import InstanceType, Price, Region
from benchmarks.selectors.pages.instance_types import types_lacking_specs

pytestmark = pytest.mark.django_db


def priced(name: str, **specs) -> InstanceType:
    instance_type = InstanceType.objects.create(name=name, **specs)
    Price.objects.create(
        instance_type=instance_type,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="on_demand",
        usd_per_hour=Decimal("0.1"),
        effective_from=datetime.date(2026, 7, 20),
        source="test",
    )
    return instance_type


FULL = {
    "vcpus": Decimal(2),
    "memory_gib": Decimal(8),
    "architecture": "x86_64",
    "cpu_allocation": "dedicated",
}


def test_it_names_each_type_and_what_it_lacks_and_exits_with_1(capsys):
    priced("m5.large", vcpus=Decimal(2), architecture="x86_64")
    priced("m5.xlarge", **FULL)
    with pytest.raises(CommandError, match="1 of 2 types with a result or a price") as raised:
        call_command("check_specs")
    assert raised.value.returncode == 1
    assert capsys.readouterr().out.splitlines() == ["m5.large: no memory_gib, no cpu_allocation"]


def test_it_says_all_are_specified_in_one_line_and_exits_with_0(capsys):
    priced("m5.xlarge", **FULL)
    call_command("check_specs")
    assert capsys.readouterr().out == (
        "all 1 types with a result or a price have vcpus, memory_gib, architecture, "
        "cpu_allocation\n"
    )


def test_types_with_neither_result_nor_price_are_not_checked():
    InstanceType.objects.create(name="m5.2xlarge")
    check = types_lacking_specs()
    assert (check.checked, check.lacking) == (0, [])


def test_fargate_task_sizes_count_as_priced_by_their_architectures_rates():
    from benchmarks.models import FargateRate

    FargateRate.objects.create(
        region=Region.objects.get(code="us-east-1"),
        architecture="arm64",
        component="vcpu",
        usd_per_unit_hour=Decimal("0.03238"),
        effective_from=datetime.date(2026, 7, 20),
        source="test",
    )
    check = types_lacking_specs()
    arm_sizes = InstanceType.objects.filter(kind="fargate", architecture="arm64").count()
    assert (check.checked, check.lacking) == (arm_sizes, [])


def test_the_check_is_one_query(django_assert_num_queries):
    for size in range(10):
        priced(f"m5.{size}xlarge", vcpus=Decimal(2))
    with django_assert_num_queries(1):
        check = types_lacking_specs()
    assert len(check.lacking) == 10
