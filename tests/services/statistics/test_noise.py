"""Each benchmark's noise, measured from its kept statistics and kept on the benchmark."""

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


@pytest.mark.django_db
def test_the_noise_is_measured_from_the_kept_statistics_and_kept_on_the_benchmark():
    _measure_all()
    assert statistics.keep_noise() == 1
    benchmark = Benchmark.objects.get(key="openssl:aes-256-cbc")
    assert benchmark.noise["series"] == 8
    # The median deviation is the AMD pair's, each half their gap from its middle.
    amd = (4099801088.0 - 4099721898.67) / (4099801088.0 + 4099721898.67)
    assert benchmark.noise["relative"] == pytest.approx(1.4826 * amd, rel=1e-3)
    assert "3 groups of types with the same processor and vCPUs" in benchmark.noise["method"]
    assert benchmark.noise_measured_at is not None


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
    _measure_all()
    Benchmark.objects.update(noise=None, noise_measured_at=None)
    statistics.rebuild_statistics()
    assert Benchmark.objects.get(key="openssl:aes-256-cbc").noise["series"] == 8
