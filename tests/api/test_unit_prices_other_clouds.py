"""`GET /api/v1/unit-prices/` in another cloud's region: its types matched by their family
(Hetzner's cax, Azure's Dpsv6, Google Cloud's n2), its vendor's default families when none is
asked, no Fargate; and an AWS region answered as before."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Price, Region
from benchmarks.questions.price_performance import DEFAULT_FAMILIES, VENDOR_DEFAULT_FAMILIES

pytestmark = pytest.mark.django_db

URL = "/api/v1/unit-prices/"
START = datetime.date(2024, 1, 1)


def priced(vendor: str, region_code: str, types: dict[str, tuple[str, int, int, str]]) -> None:
    """`types` (name: (on-demand USD an hour, vCPUs, GiB, architecture)) of `vendor`, priced
    in its region `region_code`."""
    region, _ = Region.objects.get_or_create(
        vendor=vendor, code=region_code, defaults={"name": region_code}
    )
    for name, (usd, vcpus, memory_gib, architecture) in types.items():
        instance_type = InstanceType.objects.create(
            vendor=vendor,
            kind=InstanceType.Kind.VM,
            name=name,
            vcpus=vcpus,
            memory_gib=memory_gib,
            architecture=architecture,
        )
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=Decimal(usd),
            effective_from=START,
            source="test",
        )


def get(**params):
    response = APIClient().get(URL, {"at": "2024-06-01", **params})
    assert response.status_code == 200, response.content
    return response.json()


def rows(body) -> dict[str, tuple]:
    return {
        row["instance_type"]: (row["family"], row["usd_per_vcpu_hour"], row["usd_per_gib_hour"])
        for row in body["results"]
    }


def test_a_hetzner_region_answers_its_families_asked():
    priced(
        "hcloud",
        "fsn1",
        {
            "cax11": ("0.00587558", 2, 4, "arm64"),
            "cax21": ("0.0104", 4, 8, "arm64"),
            "cx22": ("0.008", 2, 4, "x86_64"),
        },
    )
    body = get(region="hcloud:fsn1", families="cax,cx")
    assert (body["region"], body["families"]) == ("fsn1", ["cax", "cx"])
    assert rows(body) == {
        "cax11": ("cax", 0.00293779, 0.001468895),
        "cax21": ("cax", 0.0026, 0.0013),
        "cx22": ("cx", 0.004, 0.002),
    }
    assert [row["instance_type"] for row in body["results"]] == ["cax11", "cax21", "cx22"]
    assert body["missing"] == [] and body["fargate_rates"] == []


def test_a_hetzner_region_asked_no_families_answers_hetzners_defaults_and_no_fargate():
    priced("hcloud", "fsn1", {"cax11": ("0.00587558", 2, 4, "arm64")})
    body = get(region="hcloud:fsn1")
    assert tuple(body["families"]) == VENDOR_DEFAULT_FAMILIES["hcloud"]
    assert list(rows(body)) == ["cax11"]
    # The defaults without a price in fsn1 are said, and Fargate is not one of them.
    assert {missing["family"] for missing in body["missing"]} == {"cx", "cpx", "ccx"}


def test_fargate_asked_in_another_clouds_region_is_said_to_be_awss_only():
    priced("hcloud", "fsn1", {"cax11": ("0.00587558", 2, 4, "arm64")})
    body = get(region="hcloud:fsn1", families="fargate,cax")
    assert list(rows(body)) == ["cax11"]
    assert body["missing"] == [
        {
            "family": "fargate",
            "instance_type": None,
            "reason": "Fargate is sold by Amazon Web Services only: fsn1 is Hetzner Cloud's region",
        }
    ]


def test_an_azure_region_answers_its_families_as_azure_writes_them():
    priced(
        "azure",
        "westus2",
        {
            "Standard_D2ps_v6": ("0.077", 2, 8, "arm64"),
            "Standard_D4ps_v6": ("0.154", 4, 16, "arm64"),
            "Standard_D2s_v5": ("0.096", 2, 8, "x86_64"),
            "Standard_B2s_v2": ("0.0832", 2, 8, "x86_64"),
        },
    )
    body = get(region="azure:westus2", families="Dpsv6,Dsv5")
    assert body["families"] == ["Dpsv6", "Dsv5"]
    assert rows(body) == {
        "Standard_D2ps_v6": ("Dpsv6", 0.0385, 0.009625),
        "Standard_D4ps_v6": ("Dpsv6", 0.0385, 0.009625),
        "Standard_D2s_v5": ("Dsv5", 0.048, 0.012),
    }
    # Without families: Azure's defaults, those priced here answered.
    defaults = get(region="westus2")
    assert tuple(defaults["families"]) == VENDOR_DEFAULT_FAMILIES["azure"]
    assert {row["family"] for row in defaults["results"]} == {"Bsv2", "Dpsv6"}


def test_a_google_cloud_region_answers_its_machine_series():
    priced(
        "gcp",
        "us-central1",
        {
            "n2-standard-2": ("0.097118", 2, 8, "x86_64"),
            "n2-highcpu-4": ("0.143432", 4, 4, "x86_64"),
            "n2d-standard-2": ("0.084492", 2, 8, "x86_64"),
            "c4a-standard-1": ("0.04496", 1, 4, "arm64"),
        },
    )
    body = get(region="gcp:us-central1", families="n2")
    assert rows(body) == {
        "n2-standard-2": ("n2", 0.048559, 0.01213975),
        "n2-highcpu-4": ("n2", 0.035858, 0.035858),
    }
    defaults = get(region="gcp:us-central1")
    assert tuple(defaults["families"]) == VENDOR_DEFAULT_FAMILIES["gcp"]
    assert {row["family"] for row in defaults["results"]} == {"n2", "n2d", "c4a"}


def test_an_aws_region_still_answers_the_five_and_its_own_types_only():
    priced("hcloud", "fsn1", {"cax11": ("0.00587558", 2, 4, "arm64")})
    c7g = InstanceType.objects.create(name="c7g.large", vcpus=2, memory_gib=4, architecture="arm64")
    Price.objects.create(
        instance_type=c7g,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="on_demand",
        usd_per_hour=Decimal("0.0725"),
        effective_from=START,
        source="test",
    )
    body = get(region="us-east-1")
    assert tuple(body["families"]) == DEFAULT_FAMILIES
    assert [(row["instance_type"], row["family"]) for row in body["results"]] == [
        ("c7g.large", "c7g")
    ]
    # AWS's families read in lower case however they are written.
    assert get(region="us-east-1", families="C7G,Fargate")["families"] == ["c7g", "fargate"]


def test_a_region_pricing_none_of_its_vendors_defaults_answers_every_family_priced_there():
    # As the comparison page widens: the defaults stay listed, each missing with its reason.
    priced(
        "azure",
        "westus2",
        {
            "Standard_D16as_v4": ("0.768", 16, 64, "x86_64"),
            "Standard_D32a_v4": ("1.536", 32, 128, "x86_64"),
        },
    )
    body = get(region="westus2")
    defaults = VENDOR_DEFAULT_FAMILIES["azure"]
    assert tuple(body["families"]) == (*defaults, "Dasv4", "Dav4")
    assert rows(body) == {
        "Standard_D16as_v4": ("Dasv4", 0.048, 0.012),
        "Standard_D32a_v4": ("Dav4", 0.048, 0.012),
    }
    assert [missing["family"] for missing in body["missing"]] == list(defaults)
    # Families asked are answered as asked, priced or not.
    asked = get(region="westus2", families="Dpsv6")
    assert (asked["families"], asked["results"]) == (["Dpsv6"], [])
    assert asked["missing"][0]["reason"] == "no on_demand price known for any Dpsv6 type in westus2"
