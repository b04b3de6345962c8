"""AWS's published table of burstable types (benchmarks/burstable.py)."""

from decimal import Decimal

import pytest

from benchmarks.burstable import (
    BURSTABLE_TYPES,
    SOURCE,
    burstable_spec,
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
