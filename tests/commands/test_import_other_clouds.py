"""Other clouds' types: stored under their vendor, named as the vendor names them, with the
specifications Spare Cores publishes; AWS's answers unchanged (issue 28, part one).

Reads the shared Hetzner Cloud archive whole (34 types, about 5 seconds).
"""

import io
import re
import tarfile
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Vendor, family_of, in_family
from benchmarks.models.places import vm_family, vm_family_pattern
from benchmarks.selectors.answer.lookups import get_instance_type, vendor_and_name
from benchmarks.services import statistics
from benchmarks.services.prices.specs import bundled_specs_file, import_bundled_specs
from tests.selectors.test_price_performance import make_type

pytestmark = pytest.mark.django_db

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
HCLOUD = SHARED / "sparecores-inspector" / "hcloud.tar.xz"


def run_import(*args) -> str:
    out = io.StringIO()
    call_command("import_sparecores", *map(str, args), "--jobs", "1", stdout=out,
                 stderr=io.StringIO())  # fmt: skip
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Standard_D2ps_v6", "Dpsv6"),
        ("Standard_D16as_v4", "Dasv4"),
        ("Standard_B2ats_v2", "Batsv2"),
        ("Standard_E64-32s_v5", "Esv5"),
        ("Standard_NC24ads_A100_v4", "NCadsv4"),
        ("Standard_F2", "F"),
        ("n2-standard-2", "n2"),
        ("e2-micro", "e2"),
        ("t2a-standard-1", "t2a"),
        ("cax11", "cax"),
        ("ccx13", "ccx"),
    ],
)
def test_another_clouds_family_is_read_from_the_name_and_finds_it_again(name, family):
    assert vm_family(name) == family == family_of(InstanceType.Kind.VM, name)
    assert re.search(vm_family_pattern(family), name)
    make_type(name, kind=InstanceType.Kind.VM)
    make_type("c7g.large")
    assert list(InstanceType.objects.filter(in_family(family)).values_list("name", flat=True)) == [
        name
    ]


def test_ec2_families_find_no_other_clouds_types():
    make_type("c7g.large")
    make_type("c7g.xlarge")
    make_type("cax11", kind=InstanceType.Kind.VM)
    make_type("t2a-standard-1", kind=InstanceType.Kind.VM)
    assert sorted(InstanceType.objects.filter(in_family("c7g")).values_list("name", flat=True)) == [
        "c7g.large",
        "c7g.xlarge",
    ]
    assert not InstanceType.objects.filter(in_family("t2")).exists()


def test_a_name_is_unique_within_its_vendor_and_aws_answers_for_a_bare_name():
    aws = make_type("shared.large")
    other = InstanceType.objects.create(vendor=Vendor.GCP, name="shared.large", kind="vm")
    with pytest.raises(IntegrityError), transaction.atomic():
        InstanceType.objects.create(vendor=Vendor.GCP, name="shared.large", kind="vm")
    assert get_instance_type("shared.large") == aws
    assert get_instance_type("gcp:shared.large") == other
    # A variant after the colon is not a vendor.
    assert vendor_and_name("c7a.xlarge:base") == (None, "c7a.xlarge:base")
    assert vendor_and_name("hcloud:cax11") == ("hcloud", "cax11")


@pytest.fixture
def hcloud():
    return run_import(HCLOUD, "--vendor", "hcloud")


def test_hetzners_types_are_stored_under_hcloud_with_spare_cores_specifications(hcloud):
    assert "specifications of hcloud's types" in hcloud and "34 types created" in hcloud
    types = InstanceType.objects.filter(vendor=Vendor.HCLOUD)
    assert types.count() == 34
    assert not InstanceType.objects.exclude(vendor=Vendor.HCLOUD).filter(name="cax11").exists()
    cax11 = types.get(name="cax11")
    assert (cax11.kind, cax11.family, cax11.vcpus, cax11.memory_gib, cax11.architecture) == (
        "vm",
        "cax",
        2,
        4,
        "arm64",
    )
    # Hetzner publishes no baseline for its shared vCPUs: shared, not burstable.
    assert (cax11.cpu_allocation, cax11.burstable, cax11.baseline_share) == ("shared", False, None)
    assert types.get(name="ccx13").cpu_allocation == "dedicated"
    assert "Spare Cores" in cax11.source and "Hetzner Cloud" in cax11.source
    assert cax11.series.exists()
    assert statistics.check_statistics().clean


def test_importing_hetzner_again_stores_nothing_new(hcloud):
    runs = InstanceType.objects.filter(vendor=Vendor.HCLOUD, series__isnull=False).count()
    again = run_import(HCLOUD, "--vendor", "hcloud")
    assert "0 types created" in again and "34 already imported" in again
    assert InstanceType.objects.filter(vendor=Vendor.HCLOUD, series__isnull=False).count() == runs


def test_the_api_filters_types_and_regions_by_vendor_and_names_the_vendor(hcloud):
    make_type("c7g.large")
    client = APIClient()
    listed = client.get("/api/v1/instance-types/", {"vendor": "hcloud", "family": "cax"}).json()
    assert [row["name"] for row in listed["results"]] == ["cax11", "cax21", "cax31", "cax41"]
    assert {row["vendor"] for row in listed["results"]} == {"hcloud"}
    assert client.get("/api/v1/instance-types/c7g.large/").json()["vendor"] == "aws"
    assert client.get("/api/v1/instance-types/hcloud:cax11/").json()["name"] == "cax11"
    assert client.get("/api/v1/instance-types/aws:cax11/").status_code == 404
    assert client.get("/api/v1/instance-types/", {"vendor": "oracle"}).status_code == 400
    regions = client.get("/api/v1/regions/", {"vendor": "aws"}).json()
    assert regions["count"] > 0 and {row["vendor"] for row in regions["results"]} == {"aws"}
    assert client.get("/instance-types/hcloud:cax11/").status_code == 200


def test_an_unknown_vendor_is_refused_before_anything_is_read(tmp_path):
    with pytest.raises(CommandError, match="invalid choice: 'oracle'"):
        run_import(tmp_path, "--vendor", "oracle")
    assert not InstanceType.objects.exclude(vendor=Vendor.AWS).exists()


@pytest.mark.parametrize("vendor", ["azure", "gcp", "hcloud", "upcloud", "alicloud", "ovh"])
def test_each_vendors_bundled_specifications_load_and_credit_spare_cores(vendor):
    summary = import_bundled_specs(vendor=vendor)
    rows = bundled_specs_file(vendor).read_text().count("\n") - 1
    assert summary.instance_types_created == rows
    types = InstanceType.objects.filter(vendor=vendor)
    assert types.count() == rows and not types.exclude(kind="vm").exists()
    assert not types.filter(vcpus=None).exists() and not types.filter(cpu_allocation="").exists()
    assert import_bundled_specs(vendor=vendor).instance_types_created == 0


def test_an_aws_region_prices_and_lists_only_aws_types(hcloud):
    import datetime

    from tests.selectors.test_price_performance import price, run_with

    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    run_with("c7g.large", [9000.0], key="passmark:cpu-mark")
    answer = (
        APIClient()
        .get(
            "/api/v1/price-performance/", {"benchmark": "passmark:cpu-mark", "region": "us-east-1"}
        )
        .json()
    )
    assert [row["instance_type"] for row in answer["results"]] == ["c7g.large"]
    assert answer["results"][0]["vendor"] == "aws" and answer["unpriced"] == []
    # The finder page lists the region's vendor's types.
    page = APIClient().get("/instance-types/", {"region": "us-east-1"})
    assert page.status_code == 200
    assert "c7g.large" in page.content.decode() and "cax11" not in page.content.decode()


def test_azure_b_series_and_googles_shared_core_types_get_their_published_baselines():
    import_bundled_specs(vendor="azure")
    import_bundled_specs(vendor="gcp")
    b2s = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_B2s")
    assert (b2s.cpu_allocation, b2s.burstable, b2s.baseline_share, b2s.cpu_credits_per_hour) == (
        "burstable",
        True,
        Decimal("0.2000"),
        Decimal("24.00"),
    )
    assert b2s.spec_sources["baseline_share"] == "vendor_documentation"
    assert "the vendor's documentation" in b2s.specs_source
    # Spare Cores calls e2-micro shared; Google publishes its sustained fraction.
    micro = InstanceType.objects.get(vendor=Vendor.GCP, name="e2-micro")
    assert (micro.cpu_allocation, micro.baseline_share, micro.cpu_credits_per_hour) == (
        "burstable",
        Decimal("0.1250"),
        None,
    )
    assert InstanceType.objects.filter(vendor=Vendor.AZURE, burstable=True).count() == 41
    assert not InstanceType.objects.filter(burstable=True, baseline_share=None).exists()
    # Spare Cores' dedicated types stay so.
    d2 = InstanceType.objects.get(vendor=Vendor.AZURE, name="Standard_D2s_v5")
    assert (d2.cpu_allocation, d2.baseline_share) == ("dedicated", None)
    assert import_bundled_specs(vendor="azure").specs_updated == 0


def test_its_help_names_every_vendor_spare_cores_measures(capsys):
    with pytest.raises(SystemExit):
        call_command("import_sparecores", "--help")
    help_text = " ".join(capsys.readouterr().out.split())
    assert "{aws,azure,gcp,hcloud,upcloud,vultr,alicloud,ovh}" in help_text


def lay_out(tmp_path: Path, vendor: str, name: str) -> Path:
    """A folder `<vendor>/<name>/<benchmark>/` holding the real files of Hetzner's cpx11 (the
    shared data holds no inspector outputs of the vendors added last; the import reads the
    same layout and files for every vendor)."""
    with tarfile.open(HCLOUD) as archive:
        for member in archive.getmembers():
            parts = member.name.split("/")
            if parts[:2] == ["hcloud", "cpx11"]:
                target = tmp_path / vendor / name / Path(*parts[2:])
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.extractfile(member).read())
    return tmp_path


def test_an_upcloud_folder_stores_its_results_and_spare_cores_specifications(tmp_path):
    out = run_import(lay_out(tmp_path, "upcloud", "1xCPU-1GB"), "--vendor", "upcloud")
    assert "specifications of upcloud's types" in out and "93 types created" in out
    assert "1 read, 1 with runs" in out
    plan = InstanceType.objects.get(vendor=Vendor.UPCLOUD, name="1xCPU-1GB")
    assert (plan.kind, plan.vcpus, plan.memory_gib, plan.cpu_allocation) == ("vm", 1, 1, "shared")
    assert "server table of UpCloud" in plan.source
    assert plan.series.exists() and not plan.prices.exists()
    assert get_instance_type("upcloud:1xCPU-1GB") == plan
    listed = APIClient().get("/api/v1/instance-types/", {"vendor": "upcloud", "limit": 200})
    assert listed.status_code == 200 and listed.json()["count"] == 93


def test_a_vultr_folder_is_specified_by_the_machine_and_vultrs_plan_names(tmp_path):
    out = run_import(lay_out(tmp_path, "vultr", "vc2-2c-2gb"), "--vendor", "vultr")
    assert "no bundled specifications of vultr's types" in out
    plan = InstanceType.objects.get(vendor=Vendor.VULTR, name="vc2-2c-2gb")
    # cpx11's own lscpu and the memory PassMark saw; Vultr's Cloud Compute shares its vCPUs.
    assert (plan.vcpus, plan.memory_gib, plan.architecture) == (2, Decimal("1.953"), "x86_64")
    assert plan.cpu_allocation == "shared"
    assert plan.specs_source.startswith("the machine itself")
    assert plan.series.exists()
