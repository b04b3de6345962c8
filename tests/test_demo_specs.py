"""The demo specifies every type it has a result or a price for, burstable ones with AWS's
baseline (issue 23's acceptance)."""

from decimal import Decimal

import pytest
from django.core.management import call_command

from benchmarks.models import InstanceType
from benchmarks.pricing import snapshot
from benchmarks.selectors.pages.instance_types import types_lacking_specs
from benchmarks.services.prices.specs import bundled_specs_file

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
    assert ec2.count() >= 1148
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
    # Its network in AWS's words comes from describe_instance_types (moto's copy).
    assert nano["specs_source"] == (
        "AWS describe_instance_types; AWS documentation; Spare Cores (sparecores.com), CC BY-SA 4.0"
    )
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


def bundled_names(vendor: str) -> set[str]:
    """The types the demo has a price or Spare Cores' figures for, of another cloud."""
    import csv
    import lzma

    from benchmarks.pricing import snapshot
    from benchmarks.services import demo_figures

    names = {record.instance_type for record, _ in snapshot.read_cloud_prices()
             if record.vendor == vendor}  # fmt: skip
    path = demo_figures.sparecores_file(vendor)
    with lzma.open(path, "rt", encoding="utf-8", newline="") as handle:
        names |= {row["instance_type"] for row in csv.DictReader(handle)}
    return names


# AWS's too: 14 types of the newer kinds' archive (m9g.24xlarge, c8ib.large, ...) had figures
# and no memory, from AWS's describe_instance_types now.
@pytest.mark.parametrize("vendor", ["aws", "azure", "gcp", "hcloud"])
def test_every_type_a_cloud_has_a_price_or_a_result_for_is_specified(vendor):
    from benchmarks.models import InstanceType
    from benchmarks.services.prices.specs import import_bundled_specs

    import_bundled_specs(vendor=vendor)
    wanted = bundled_names(vendor)
    types = InstanceType.objects.filter(vendor=vendor, name__in=wanted)
    incomplete = sorted(
        types.filter(memory_gib=None)
        .values_list("name", flat=True)
        .union(types.filter(cpu_allocation="").values_list("name", flat=True))
    )
    missing = wanted - set(types.values_list("name", flat=True))
    # Microsoft's size pages list no Standard_M16s_v4 (the Msv4 series is M16ls_v4 and up).
    unknown = ["Standard_M16s_v4"] if vendor == "azure" else []
    assert (sorted(missing), incomplete) == (unknown, [])


@pytest.mark.parametrize(
    ("name", "vcpus", "memory", "source"),
    [
        # Measured: its lscpu and the memory PassMark saw; dedicated, not of the B series.
        ("Standard_E128ds_v7", 128, 1024, "the machine itself"),
        # The same size as one Spare Cores lists, by Microsoft's naming conventions.
        ("Standard_E16-8ads_v6", 8, 128, "the vendor's naming conventions"),
        ("Standard_E128bds_v6", 128, 1024, "the vendor's naming conventions"),
        ("Basic_A2", 2, Decimal("3.5"), "the vendor's naming conventions"),
        # Microsoft Learn's size page.
        ("Standard_NC320lds_xl_RTXPRO6000BSE_v6", 320, 640, "the vendor's documentation"),
    ],
)
def test_azure_types_spare_cores_does_not_list_are_specified_with_their_source(
    name, vcpus, memory, source
):
    from benchmarks.models import InstanceType
    from benchmarks.services.prices.specs import import_bundled_specs

    import_bundled_specs(vendor="azure")
    size = InstanceType.objects.get(vendor="azure", name=name)
    assert (size.vcpus, size.memory_gib, size.architecture) == (vcpus, memory, "x86_64")
    assert (size.cpu_allocation, size.burstable) == ("dedicated", False)
    assert size.specs_source.startswith(source)


def test_a_burstable_types_network_is_aws_up_to_figure_with_spare_cores_baseline(
    demo_rolled_back, client
):
    # AWS sells t4g.medium "Up to 5 Gigabit"; Spare Cores' 0.256 Gbit/s is its baseline.
    medium = InstanceType.objects.get(name="t4g.medium")
    assert (medium.network_performance, medium.network_gbps) == (
        "Up to 5 Gigabit",
        Decimal("0.256"),
    )
    assert medium.spec_sources["network_performance"] == "describe_instance_types"
    assert "moto" in medium.source and "Apache-2.0" in medium.source
    html = client.get("/instance-types/t4g.medium/").content.decode()
    assert "up to 5 Gbit/s, 0.256 Gbit/s baseline once the burst is spent" in html
    # A type sold at one rate over several network cards: AWS's total, as it sells it.
    assert InstanceType.objects.get(name="c8gb.48xlarge").network_performance == "400 Gigabit"


def test_ovhclouds_network_is_in_gbit_per_second():
    # Spare Cores' OVHcloud rows give Mbit/s (b2-7: OVH's 250 Mbit/s; a10-180: 25 Gbit/s).
    rows = {
        row.name: row.values["network_gbps"]
        for row in snapshot.read_instance_specs(bundled_specs_file("ovh"))
    }
    assert (rows["b2-7"], rows["a10-180"]) == (Decimal("0.25"), Decimal("25"))
    assert max(rows.values()) <= 25
