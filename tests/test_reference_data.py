"""A fresh, migrated database already knows every AWS region and every Fargate task size."""

from decimal import Decimal

import pytest

from benchmarks.models import InstanceType, Region, fargate_name

pytestmark = pytest.mark.django_db


def test_it_knows_every_region_with_its_pricing_location():
    assert Region.objects.get(code="us-east-1").pricing_location == "US East (N. Virginia)"
    assert Region.objects.get(code="ap-northeast-1").name == "Asia Pacific (Tokyo)"
    assert Region.objects.count() >= 30


def test_it_knows_every_fargate_task_size_for_both_architectures():
    fargate = InstanceType.objects.filter(kind="fargate")
    names = set(fargate.values_list("name", flat=True))
    assert {"fargate-0.25vcpu-0.5gb", "fargate-4vcpu-30gb", "fargate-16vcpu-120gb"} <= names
    assert "fargate-0.25vcpu-0.5gb-arm64" in names
    assert "fargate-4vcpu-31gb" not in names
    assert (
        fargate.filter(architecture="arm64").count()
        == fargate.filter(architecture="x86_64").count()
    )
    task = fargate.get(name="fargate-1vcpu-2gb")
    assert (task.vcpus, task.memory_gib) == (Decimal("1"), Decimal("2"))


@pytest.mark.parametrize(
    ("vcpus", "memory", "architecture", "name"),
    [
        ("0.25", "0.5", "x86_64", "fargate-0.25vcpu-0.5gb"),
        ("4", "30", "x86_64", "fargate-4vcpu-30gb"),
        ("4.00", "30.000", "arm64", "fargate-4vcpu-30gb-arm64"),
        ("16", "120", "x86_64", "fargate-16vcpu-120gb"),
    ],
)
def test_fargate_names_drop_trailing_zeros(vcpus, memory, architecture, name):
    assert fargate_name(Decimal(vcpus), Decimal(memory), architecture) == name
