"""Each benchmark's noise, measured from its repeated runs (or its peers) and kept on the
benchmark."""

import pytest

from benchmarks.models import Benchmark, InstanceType
from benchmarks.services import statistics
from tests.services.statistics.common import upload

# Spare Cores' openssl:aes-256-cbc, 8192-byte blocks, one process per vCPU (B/s): three
# Graviton3 types of four vCPUs, three of eight, and two AMD EPYC 9R14 types of four.
MEASURED = [
    ("c7g.xlarge", 5824703146.66, "Neoverse-V1"),
    ("m7g.xlarge", 5824653994.66, "Neoverse-V1"),
    ("r7g.xlarge", 5832892416.0, "Neoverse-V1"),
    ("c7g.2xlarge", 11678460586.68, "Neoverse-V1"),
    ("m7g.2xlarge", 11677952682.66, "Neoverse-V1"),
    ("r7g.2xlarge", 11663927978.67, "Neoverse-V1"),
    ("c7a.xlarge", 4099721898.67, "AMD EPYC 9R14"),
    ("r7a.xlarge", 4099801088.0, "AMD EPYC 9R14"),
]
VCPUS = {"xlarge": 4, "2xlarge": 8}
# Ten types run twice, months apart: the second run 1% .. 10% faster.
REPEATED = [f"{family}.{size}" for family in ("c7g", "m7g") for size in
            ("medium", "large", "xlarge", "2xlarge", "4xlarge")]  # fmt: skip


def _measure_all():
    for name, _value, _cpu in MEASURED:
        InstanceType.objects.update_or_create(
            name=name, defaults={"vcpus": VCPUS[name.split(".")[1]]}
        )
    upload(
        [{"benchmark": "openssl:aes-256-cbc", "instance_type": name, "region": "us-east-1",
          "value": value, "unit": "B/s", "cpu_model": cpu, "param.block_size": 8192}
         for name, value, cpu in MEASURED]
    )  # fmt: skip


def _repeat_all():
    for name in REPEATED:
        InstanceType.objects.update_or_create(name=name, defaults={"vcpus": 2})
    for day, factor in (("2024-06-03", lambda n: 1.0), ("2024-09-12", lambda n: 1 + n / 100)):
        upload(
            [{"benchmark": "stress-ng:cpu", "instance_type": name, "region": "us-east-1",
              "value": 1000 * factor(n), "unit": "bogo-op/s", "measured_at": day}
             for n, name in enumerate(REPEATED, start=1)]
        )  # fmt: skip


@pytest.mark.django_db
def test_repeated_runs_measure_the_noise_and_it_is_kept_on_the_benchmark():
    _repeat_all()
    assert statistics.keep_noise() == 1
    noise = Benchmark.objects.get(key="stress-ng:cpu").noise
    assert noise["basis"] == "repeats"
    assert noise["pairs"] == noise["series"] == 10
    # Ten differences, 1% .. 10%: the 95% quantile of ten is the largest (ceil(11 x 0.95)).
    assert noise["tie_margin"] == pytest.approx(0.10, abs=2e-4)
    assert noise["quantiles"]["p50"] == pytest.approx(0.06, abs=2e-4)
    assert noise["relative"] == noise["quantiles"]["p50"]
    # Upload tables name no tool version: the method says so.
    assert "the data names no tool version for 10 pairs" in noise["method"]
    # Older five estimate, newer five are held out.
    assert noise["calibration"]["pairs"] == 5 and noise["calibration"]["level"] == 0.9


@pytest.mark.django_db
def test_peers_stand_in_where_no_type_was_run_twice():
    _measure_all()
    # Five pairs of consecutive peers measure nothing yet ...
    statistics.keep_noise()
    assert Benchmark.objects.get(key="openssl:aes-256-cbc").noise is None
    # ... a fourth Graviton3 type of four vCPUs and three more of eight make eight.
    more = [("x8g.xlarge", 5830000000.0, 4), ("c6g.2xlarge", 11670000000.0, 8),
            ("x2gd.2xlarge", 11690000000.0, 8), ("c7gn.2xlarge", 11600000000.0, 8)]  # fmt: skip
    for name, _value, vcpus in more:
        InstanceType.objects.update_or_create(name=name, defaults={"vcpus": vcpus})
    upload(
        [{"benchmark": "openssl:aes-256-cbc", "instance_type": name, "region": "us-east-1",
          "value": value, "unit": "B/s", "cpu_model": "Neoverse-V1", "param.block_size": 8192}
         for name, value, _vcpus in more]
    )  # fmt: skip
    statistics.keep_noise()
    noise = Benchmark.objects.get(key="openssl:aes-256-cbc").noise
    assert noise["basis"] == "peers" and noise["pairs"] == 9
    assert "too few repeats" in noise["method"]


@pytest.mark.django_db
def test_only_benchmarks_whose_statistics_changed_are_measured_again():
    _measure_all()
    statistics.keep_noise()
    assert statistics.keep_noise() == 0
    upload(
        [{"benchmark": "openssl:aes-256-cbc", "instance_type": "m7g.xlarge",
          "region": "eu-west-1", "value": 5.9e9, "unit": "B/s", "cpu_model": "Neoverse-V1",
          "param.block_size": 8192}]
    )  # fmt: skip
    assert statistics.keep_noise() == 1
    assert statistics.keep_noise(stale_only=False) == 1


@pytest.mark.django_db
def test_a_benchmark_too_thinly_measured_keeps_no_noise():
    InstanceType.objects.update_or_create(name="c7g.large", defaults={"vcpus": 2})
    upload(
        [{"benchmark": "tool:x", "instance_type": "c7g.large", "region": "us-east-1",
          "value": 5, "unit": "op/s", "cpu_model": "Neoverse-V1"}]
    )  # fmt: skip
    statistics.keep_noise()
    benchmark = Benchmark.objects.get(key="tool:x")
    assert benchmark.noise is None and benchmark.noise_measured_at is not None


@pytest.mark.django_db
def test_a_rebuild_measures_every_benchmarks_noise():
    _repeat_all()
    Benchmark.objects.update(noise=None, noise_measured_at=None)
    statistics.rebuild_statistics()
    assert Benchmark.objects.get(key="stress-ng:cpu").noise["pairs"] == 10


@pytest.mark.django_db
def test_a_benchmark_with_more_repeated_results_than_the_budget_reads_a_spread_share(
    monkeypatch,
):
    from benchmarks.services.statistics import noise as kept_noise

    _repeat_all()
    # Two results a series: a budget of eight reads four of the ten series.
    monkeypatch.setattr(kept_noise, "REPEAT_RESULTS_READ", 8)
    measured = kept_noise.measure_benchmark(Benchmark.objects.get(key="stress-ng:cpu").pk)
    assert measured is None  # four pairs measure nothing
    monkeypatch.setattr(kept_noise, "REPEAT_RESULTS_READ", 16)
    measured = kept_noise.measure_benchmark(Benchmark.objects.get(key="stress-ng:cpu").pk)
    assert measured.pairs == 8
