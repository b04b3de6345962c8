"""The memory-beyond-cache workload profile (issue 46 item 3): membench's read bandwidth at a
128 MiB working set with a thread per vCPU, and the latency of one load there (lower is
better: a profile inverts it), ranked per dollar like every profile."""

import datetime
import math

import pytest

from benchmarks.models import InstanceType
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db


def membench(name, vcpus, read, latency):
    InstanceType.objects.get_or_create(name=name, defaults={"vcpus": vcpus})
    run_with(name, [read], key="membench:read", params={"size_kb": 131072, "threads": vcpus})
    run_with(name, [latency], key="membench:latency", params={"size_kb": 131072}, hib=False)
    price(name, "0.1", datetime.date(2024, 1, 1))


def test_the_profile_weighs_bandwidth_up_and_latency_down(client):
    membench("c4.xlarge", 4, 2.0e10, 1.0e-7)
    membench("c7g.xlarge", 4, 4.0e10, 0.5e-7)
    response = client.get(
        "/api/v1/price-performance/",
        {"profile": "memory-beyond-cache", "region": "us-east-1", "at": "2024-06-01"},
    )
    assert response.status_code == 200, response.content
    rows = response.json()["results"]
    assert [row["instance_type"] for row in rows] == ["c7g.xlarge", "c4.xlarge"]
    # Medians: 3e10 B/s, and of the inverted latencies (1e7 and 2e7 loads a second) 1.5e7;
    # each member weighed 0.5.
    expected = math.exp(0.5 * math.log(4e10 / 3e10) + 0.5 * math.log(2e7 / 1.5e7))
    assert rows[0]["score"] == pytest.approx(expected, rel=1e-6)
