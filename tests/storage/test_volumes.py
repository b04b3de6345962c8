"""EBS volume rules and monthly cost, pure arithmetic (no database)."""

import re
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.storage.volumes import Charge, charges, monthly_cost, performance, volume

# Study S4's Tokyo prices of June 2014.
S4_RATES = {
    ("storage", 1): Decimal("0.142"),
    ("iops", 1): Decimal("0.074"),
}


def test_study_s4s_io1_volume_costs_88_20_a_month():
    io1 = volume("io1", 100, iops=1000)
    parts = monthly_cost(io1, S4_RATES)
    assert [(part.what, part.quantity, part.usd_per_month) for part in parts] == [
        ("storage", 100, Decimal("14.200")),
        ("iops", 1000, Decimal("74.000")),
    ]
    assert sum(part.usd_per_month for part in parts) == Decimal("88.2")
    assert performance(io1).baseline_iops == performance(io1).max_iops == 1000


def test_study_s4s_gp2_volume_costs_48_a_month_for_1200_baseline_iops():
    gp2 = volume("gp2", 400)
    (part,) = monthly_cost(gp2, {("storage", 1): Decimal("0.12")})
    assert (part.unit, part.usd_per_month) == ("GB-month", Decimal("48.00"))
    assert performance(gp2).baseline_iops == 1200
    assert performance(gp2).max_iops == 3000


def test_gp3_pays_only_for_iops_and_throughput_above_what_it_includes():
    assert volume("gp3", 100) == volume("gp3", 100, iops=3000, throughput=125)
    assert charges(volume("gp3", 100)) == [Charge("storage", 1, 100)]
    assert charges(volume("gp3", 100, iops=6000, throughput=500)) == [
        Charge("storage", 1, 100),
        Charge("iops", 1, 3000),
        Charge("throughput", 1, 375),
    ]


def test_io2_iops_are_priced_in_three_tiers():
    assert charges(volume("io2", 100, iops=20_000))[1:] == [Charge("iops", 1, 20_000)]
    assert charges(volume("io2", 200, iops=100_000))[1:] == [
        Charge("iops", 1, 32_000),
        Charge("iops", 2, 32_000),
        Charge("iops", 3, 36_000),
    ]


def test_hdd_volumes_deliver_throughput_per_tib_up_to_their_maximum():
    st1 = performance(volume("st1", 2048))
    assert (st1.baseline_throughput, st1.max_throughput, st1.max_iops) == (80, 500, 500)
    sc1 = performance(volume("sc1", 16_384))
    assert (sc1.baseline_throughput, sc1.max_throughput) == (192, 250)
    assert sc1.baseline_iops is None


def test_a_missing_rate_is_named():
    with pytest.raises(KeyError, match="iops"):
        monthly_cost(volume("io1", 100, iops=1000), {("storage", 1): Decimal("0.1")})


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        (("gp4", 100), "volume_type", "not one of gp2, gp3, io1, io2, st1, sc1"),
        (("gp2", 0), "size_gb", "1 to 16,384 GB"),
        (("gp2", 16_385), "size_gb", "1 to 16,384 GB"),
        (("io1", 3, 150), "size_gb", "4 to 16,384 GB"),
        (("st1", 100), "size_gb", "125 to 16,384 GB"),
        (("io1", 100), "iops", "need their provisioned iops"),
        (("io2", 100), "iops", "need their provisioned iops"),
        (("io1", 100, 6000), "iops", "at most 5,000 IOPS (50 per GB)"),
        (("io1", 4000, 70_000), "iops", "100 to 64,000"),
        (("io2", 10, 20_000), "iops", "at most 10,000 IOPS"),
        (("gp3", 10, 6000), "iops", "at most 5,000 IOPS"),
        (("gp3", 100, 2000), "iops", "3,000 to 16,000"),
        (("gp2", 100, 1000), "iops", "see gp2-burst"),
        (("sc1", 500, 100), "iops", "no provisioned IOPS"),
    ],
)
def test_it_refuses_what_aws_refuses_naming_the_field(arguments, field, message):
    volume_type, size_gb, *iops = arguments
    with pytest.raises(DomainError, match=re.escape(message)) as raised:
        volume(volume_type, size_gb, iops=iops[0] if iops else None)
    assert raised.value.field == field


def test_gp3_throughput_is_bounded_by_its_iops():
    with pytest.raises(DomainError, match="at most 750 MiB/s") as raised:
        volume("gp3", 100, iops=3000, throughput=800)
    assert raised.value.field == "throughput"
    with pytest.raises(DomainError, match="no provisioned throughput"):
        volume("io1", 100, iops=1000, throughput=200)
    assert volume("gp3", 1, throughput=750).throughput == 750
