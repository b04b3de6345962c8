"""Fargate estimates only where a task could run the benchmark: never of a GPU benchmark, and
only from EC2 types a task could be (within Fargate's largest task, without a GPU)."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.fargate_estimate import GRAVITON2, MAX_MEMORY_GIB, MAX_VCPUS, runs_on_gpu
from benchmarks.models import InstanceType, Price, Region
from benchmarks.services import statistics
from tests.selectors.test_fargate_estimates import DAY, _graviton2_and_fargate_rates
from tests.selectors.test_price_performance import answer, run_with

AES = "openssl:aes-256-cbc"


def test_fargates_largest_task_bounds_the_sources():
    assert (MAX_VCPUS, MAX_MEMORY_GIB) == (Decimal("16"), Decimal("120"))


@pytest.mark.parametrize(
    "key, params, on_gpu",
    [
        ("ffmpeg:gpu_h264_encode", {"workers": 1}, True),
        ("ffmpeg:cpu_h264_encode", {"workers": 1}, False),
        ("nvbandwidth:host_to_device_memcpy_ce", {}, True),
        ("vllm:output-throughput", {"mode": "gpu", "model": "smol-135m"}, True),
        ("vllm:output-throughput", {"mode": "cpu", "model": "smol-135m"}, False),
        ("llama-bench:generate", {"gpu_layers": 999}, True),
        ("llama-bench:generate", {"gpu_layers": 0}, False),
        (AES, {"block_size": 8192, "processes": 1}, False),
    ],
)
def test_a_gpu_benchmark_is_told_by_its_key_or_its_parameters(key, params, on_gpu):
    assert runs_on_gpu(key, params) is on_gpu


def _beyond_a_task():
    """Graviton2 types no task could be: g5g.xlarge (a GPU) and c6g.16xlarge (64 vCPUs,
    128 GiB), each with a figure that would stand out in an estimate."""
    region = Region.objects.get(code="us-east-1")
    for name, vcpus, memory, gpus in (("g5g.xlarge", 4, 8, 1), ("c6g.16xlarge", 64, 128, None)):
        instance_type = InstanceType.objects.create(
            name=name,
            vcpus=vcpus,
            memory_gib=memory,
            gpu_count=gpus,
            cpu_model=GRAVITON2,
            architecture="arm64",
        )
        Price.objects.create(
            instance_type=instance_type,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=Decimal("0.5"),
            effective_from=datetime.date(2024, 1, 1),
            source="test",
        )
    run_with("g5g.xlarge", [99e9], key=AES, params={"block_size": 8192, "processes": 4})
    run_with("c6g.16xlarge", [99e9], key=AES, params={"block_size": 8192, "processes": 64})
    run_with("g5g.xlarge", [900.0], key="ffmpeg:gpu_h264_encode", params={"workers": 1})


@pytest.mark.django_db
def test_a_gpu_benchmark_has_no_estimated_fargate_row():
    _graviton2_and_fargate_rates()
    _beyond_a_task()
    statistics.keep_noise()
    table = answer("ffmpeg:gpu_h264_encode", "us-east-1", at=DAY, params={"workers": "1"})
    assert [row.instance_type for row in table.results] == ["g5g.xlarge"]
    assert not any(row.estimated for row in table.results)


@pytest.mark.django_db
def test_types_beyond_a_task_or_with_a_gpu_are_no_source():
    _graviton2_and_fargate_rates()
    _beyond_a_task()
    statistics.keep_noise()
    table = answer(AES, "us-east-1", at=DAY, params={"block_size": "8192"})
    estimated = {row.instance_type: row for row in table.results if row.estimated}
    assert estimated
    for row in estimated.values():
        assert set(row.estimate["from"]) <= {"c6g.medium", "c6g.large"}, row.instance_type
    # A 4-vCPU task has no source of its size once g5g.xlarge is left out: scaled from
    # c6g's 1.4 GB/s a process, not g5g's 24.75.
    four = estimated["fargate-4vcpu-8gb-arm64"]
    assert four.estimate["scaled"] and four.median == pytest.approx(4 * 1.4e9)
