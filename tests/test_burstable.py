"""The vendors' published tables of burstable types (benchmarks/burstable.py)."""

import csv
from decimal import Decimal
from pathlib import Path

import pytest

from benchmarks.burstable import (
    AZURE_BURSTABLE_TYPES,
    BURSTABLE_TYPES,
    SOURCE,
    burstable_spec,
    cpu_allocation_of,
    surplus_usd_per_vcpu_hour,
)
from benchmarks.per_dollar import burst_minutes

SIZES = ("nano", "micro", "small", "medium", "large", "xlarge", "2xlarge")


def test_it_holds_every_size_of_every_burstable_family():
    expected = {f"{family}.{size}" for family in ("t2", "t3", "t3a", "t4g") for size in SIZES}
    assert set(BURSTABLE_TYPES) == expected


@pytest.mark.parametrize("spec", BURSTABLE_TYPES.values(), ids=lambda spec: spec.name)
def test_credits_per_hour_are_the_baseline_times_vcpus_times_sixty(spec):
    assert spec.cpu_credits_per_hour == spec.baseline_share * spec.vcpus * 60


def test_t2_2xlarge_earns_81_6_credits_an_hour_at_17_percent():
    spec = burstable_spec("t2.2xlarge")
    assert (spec.vcpus, spec.baseline_share, spec.cpu_credits_per_hour) == (
        8,
        Decimal("0.17"),
        Decimal("81.6"),
    )


def test_t4g_nano_has_two_vcpus_at_five_percent():
    spec = burstable_spec("t4g.nano")
    assert (spec.vcpus, spec.baseline_share, spec.cpu_credits_per_hour) == (
        2,
        Decimal("0.05"),
        Decimal("6"),
    )
    assert spec.family == "t4g"


def test_a_full_balance_is_24_hours_of_earning():
    assert burstable_spec("t2.nano").max_earned_credits == 72
    assert burstable_spec("t3.2xlarge").max_earned_credits == 4608


def test_a_full_balance_at_full_load_lasts_the_balance_over_the_net_spend():
    # t4g.nano: 144 credits, spending 2 a minute and earning back 0.1: 144 / 1.9 minutes.
    spec = burstable_spec("t4g.nano")
    minutes = burst_minutes(float(spec.cpu_credits_per_hour), spec.vcpus, None)
    assert minutes == pytest.approx(144 / 1.9)


def test_other_types_have_no_burstable_figures():
    assert burstable_spec("c7g.large") is None
    assert burstable_spec("t4g.4xlarge") is None


def test_surplus_credits_cost_five_cents_on_intel_and_amd_and_four_on_graviton():
    assert surplus_usd_per_vcpu_hour("t2") == Decimal("0.05")
    assert surplus_usd_per_vcpu_hour("t3") == Decimal("0.05")
    assert surplus_usd_per_vcpu_hour("t3a") == Decimal("0.05")
    assert surplus_usd_per_vcpu_hour("t4g") == Decimal("0.04")
    assert surplus_usd_per_vcpu_hour("c7g") is None


def test_it_names_its_source():
    assert "burstable performance instances" in SOURCE


AZURE_B_SERIES = 41  # the B, Bsv2, Basv2 and Bpsv2 sizes Spare Cores lists (benchmarks/demo)


def test_azure_holds_every_b_series_size_spare_cores_lists():
    bundled = Path(__file__).resolve().parents[1] / "benchmarks/demo/instance_specs_azure.csv"
    with bundled.open() as handle:
        listed = {
            row["name"] for row in csv.DictReader(handle) if row["cpu_allocation"] == "burstable"
        }
    assert len(listed) == AZURE_B_SERIES
    assert set(AZURE_BURSTABLE_TYPES) == listed


@pytest.mark.parametrize(
    ("name", "vcpus", "share", "earned"),
    [
        # The first B series: the whole VM's base performance over its vCPUs.
        ("Standard_B1ls", 1, "0.05", "3"),
        ("Standard_B2s", 2, "0.2", "24"),
        ("Standard_B4ms", 4, "0.225", "54"),
        ("Standard_B8ms", 8, "0.16875", "81"),
        # The v2 series: per vCPU as Microsoft publishes it.
        ("Standard_B2pts_v2", 2, "0.2", "24"),
        ("Standard_B2ps_v2", 2, "0.4", "48"),
        ("Standard_B4als_v2", 4, "0.3", "72"),
        ("Standard_B16ps_v2", 16, "0.4", "384"),
        ("Standard_B32s_v2", 32, "0.4", "768"),
    ],
)
def test_azure_b_series_baselines_are_microsofts(name, vcpus, share, earned):
    spec = burstable_spec(name, "azure")
    assert (spec.vcpus, spec.baseline_share, spec.cpu_credits_per_hour) == (
        vcpus,
        Decimal(share),
        Decimal(earned),
    )
    assert burstable_spec(name) is None  # not an AWS name


@pytest.mark.parametrize("spec", AZURE_BURSTABLE_TYPES.values(), ids=lambda spec: spec.name)
def test_azure_credits_are_the_baseline_times_vcpus_times_sixty_within_rounding(spec):
    # Microsoft rounds its published credits to a whole number (B12ms: 202% of 1200% -> 121).
    assert abs(spec.cpu_credits_per_hour - spec.baseline_share * spec.vcpus * 60) < 1


@pytest.mark.parametrize(
    ("name", "vcpus", "share"),
    [
        ("e2-micro", 2, "0.125"),
        ("e2-small", 2, "0.25"),
        ("e2-medium", 2, "0.5"),
        ("f1-micro", 1, "0.2"),
        ("g1-small", 1, "0.5"),
    ],
)
def test_googles_shared_core_types_sustain_their_fractional_vcpu(name, vcpus, share):
    spec = burstable_spec(name, "gcp")
    assert (spec.vcpus, spec.baseline_share) == (vcpus, Decimal(share))
    # Google publishes no credit figures.
    assert spec.cpu_credits_per_hour is None and spec.max_earned_credits is None


def test_no_vendor_table_answers_for_another_vendor():
    assert burstable_spec("e2-micro") is None
    assert burstable_spec("t4g.nano", "gcp") is None
    assert burstable_spec("cax11", "hcloud") is None


@pytest.mark.parametrize(
    ("vendor", "name", "allocation"),
    [
        ("aws", "t4g.nano", "burstable"),
        ("aws", "c7g.large", "dedicated"),
        ("aws", "t5.large", None),
        ("azure", "Standard_B2ats_v2", "burstable"),
        ("azure", "Standard_E128ds_v7", "dedicated"),
        ("gcp", "e2-micro", "burstable"),
        ("gcp", "c4n-highcpu-4", "dedicated"),
        ("hcloud", "cpx11", "shared"),
        ("hcloud", "ccx13", "dedicated"),
        ("vultr", "vc2-1c-1gb", "shared"),
        ("vultr", "vhp-2c-4gb-amd", "shared"),
        ("vultr", "voc-c-2c-4gb-50s", "dedicated"),
        ("vultr", "vcg-a16-6c-64g-16vram", None),
        ("upcloud", "1xCPU-1GB", None),
    ],
)
def test_each_vendors_naming_says_how_its_vcpus_are_sold_or_nothing(vendor, name, allocation):
    assert cpu_allocation_of(name, vendor) == allocation
