"""The gp2 burst model against study S4's figures (pure arithmetic, no database)."""

import pytest

from benchmarks.errors import DomainError
from benchmarks.storage.gp2 import gp2_burst


def test_a_300_gb_volume_bursts_at_3000_iops_for_about_42_minutes():
    burst = gp2_burst(300, iops=3000)
    assert burst.baseline_iops == 900
    # 5,400,000 / (3,000 - 900) = 2,571.4 s
    assert burst.burst_seconds == 2571
    assert 42 * 60 < burst.burst_seconds < 43 * 60
    assert burst.credits_run_out


def test_a_100_gb_volume_falls_to_300_iops_once_its_credits_are_spent():
    burst = gp2_burst(100, iops=3000, seconds=3 * 3600)
    assert burst.baseline_iops == 300
    assert burst.iops_once_credits_run_out == 300
    assert burst.burst_seconds == 2000  # 5,400,000 / 2,700
    assert burst.timeline == [(0, 3000), (2000, 3000), (2000, 300), (10800, 300)]


def test_the_baseline_is_at_least_100_and_at_most_16000_iops():
    assert gp2_burst(1).baseline_iops == 100
    assert gp2_burst(33).baseline_iops == 100
    assert gp2_burst(34).baseline_iops == 102
    assert gp2_burst(16384).baseline_iops == 16000


def test_a_volume_whose_baseline_meets_the_load_never_runs_out():
    burst = gp2_burst(1000, iops=3000)
    assert burst.baseline_iops == 3000
    assert burst.burst_seconds is None
    assert not burst.credits_run_out
    assert burst.timeline == [(0, 3000), (burst.seconds, 3000)]


def test_a_big_volume_does_not_burst_above_its_baseline_and_never_runs_out():
    burst = gp2_burst(2000, iops=8000, seconds=600)
    assert (burst.baseline_iops, burst.burst_iops) == (6000, 6000)
    assert burst.iops_while_credits_last == 6000
    assert burst.burst_seconds is None
    assert burst.timeline == [(0, 6000), (600, 6000)]


def test_a_load_above_the_burst_gets_3000_iops_while_credits_last():
    burst = gp2_burst(100, iops=5000)
    assert burst.iops_while_credits_last == 3000
    assert burst.iops_once_credits_run_out == 300
    assert burst.burst_seconds == 2000


def test_a_light_load_below_the_baseline_is_delivered_whole():
    burst = gp2_burst(100, iops=250, seconds=60)
    assert burst.timeline == [(0, 250), (60, 250)]
    assert burst.burst_seconds is None


def test_a_burst_longer_than_the_window_shows_no_drop():
    burst = gp2_burst(300, iops=3000, seconds=1200)
    assert burst.burst_seconds == 2571
    assert burst.timeline == [(0, 3000), (1200, 3000)]


def test_an_empty_bucket_refills_at_the_baseline():
    # S4 rested a 100 GB volume for 2 hours: 2,160,000 credits, 40% of the bucket.
    assert gp2_burst(100).full_refill_seconds == 18000
    assert gp2_burst(300).full_refill_seconds == 6000


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"size_gb": 0}, "size_gb"),
        ({"size_gb": 16385}, "size_gb"),
        ({"size_gb": 100, "iops": 0}, "iops"),
        ({"size_gb": 100, "iops": 16001}, "iops"),
        ({"size_gb": 100, "seconds": 0}, "seconds"),
    ],
)
def test_it_refuses_what_no_gp2_volume_is_naming_the_field(arguments, field):
    size_gb = arguments.pop("size_gb")
    with pytest.raises(DomainError) as raised:
        gp2_burst(size_gb, **arguments)
    assert raised.value.field == field
