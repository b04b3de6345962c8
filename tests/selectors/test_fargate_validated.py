"""An estimated Fargate row claims validation only where study S1 validated the method, and
its interval covers how far its source types disagree (selectors/answer/fargate_estimates.py)."""

from types import SimpleNamespace

import pytest

from benchmarks import fargate_estimate
from benchmarks.fargate_estimate import Source
from benchmarks.selectors.answer.fargate_estimates import _validated

S1_ROW = {"task": "fargate-1vcpu-2gb", "processor": "Intel Xeon E5-2686 v4",
          "benchmark": "openssl:aes-128-gcm", "params": {"block_size": 8192, "processes": 1},
          "error": 0.0076, "counted": True}  # fmt: skip


def test_only_s1s_benchmark_processor_and_process_count_are_validated():
    basis = SimpleNamespace(
        validation=[S1_ROW, {**S1_ROW, "error": 0.0124}, {**S1_ROW, "counted": False, "error": 0.5}]
    )
    assert _validated(basis, "openssl:aes-128-gcm", "Intel Xeon E5-2686 v4", 1) == 0.01
    # Another processor (x86 tasks estimated from E5-2670 v2), another process count, another
    # benchmark: S1 validated none of them.
    assert _validated(basis, "openssl:aes-128-gcm", "Intel Xeon E5-2670 v2", 1) is None
    assert _validated(basis, "openssl:aes-128-gcm", "Intel Xeon E5-2686 v4", 4) is None
    assert _validated(basis, "openssl:aes-256-cbc", "Intel Xeon E5-2686 v4", 1) is None
    assert _validated(SimpleNamespace(validation=[]), "x", "y", None) is None


def test_an_estimate_keeps_the_least_and_greatest_of_its_sources():
    sources = [
        Source("m3.large", 2, 1_700_000_000.0, processes=2),
        Source("r3.large", 2, 1_640_000_000.0, processes=2),
        Source("i2.xlarge", 4, 1_560_000_000.0, processes=4),
    ]
    estimate = fargate_estimate.estimate(sources, 2.0)
    # Per process: 850, 820 MB/s (the 2-vCPU sources); two processes.
    assert estimate.figure == pytest.approx(1_670_000_000.0)
    assert (estimate.low, estimate.high) == (pytest.approx(1.64e9), pytest.approx(1.7e9))
