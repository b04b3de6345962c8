"""An instance type's page charts its memory by working-set size from membench's figures:
read, write and copy bandwidth and the latency of a load, one point per size measured."""

import json
import re

import pytest

from benchmarks.models import InstanceType
from tests.selectors.test_price_performance import run_with

pytestmark = pytest.mark.django_db


def _membench(name, figures):
    InstanceType.objects.get_or_create(name=name, defaults={"vcpus": 4})
    for key, by_size in figures.items():
        for size, value in by_size.items():
            run_with(name, [value], key=key, params={"size_kb": size})


def test_the_page_charts_bandwidth_and_latency_by_working_set_size(client):
    _membench(
        "c4.xlarge",
        {
            "membench:read": {16: 1.6e11, 65536: 2.0e10},
            "membench:write": {16: 1.1e11, 65536: 1.2e10},
            "membench:latency": {16: 1.29e-9, 65536: 9.5e-8},
        },
    )
    page = client.get("/instance-types/c4.xlarge/").content.decode()
    data = json.loads(re.search(r'id="memory-data"[^>]*>(.*?)</script>', page).group(1))
    assert data["sizes_kb"] == [16, 65536]
    assert data["bandwidths"]["read"] == [1.6e11, 2.0e10]
    # copy was not measured: no point, not a zero.
    assert data["bandwidths"]["copy"] == [None, None]
    assert data["latency"] == [1.29e-9, 9.5e-8]
    assert "memory.js" in page and 'id="memory-chart"' in page


def test_one_size_alone_draws_no_memory_chart(client):
    _membench("c4.large", {"membench:read": {16: 1.0e11}})
    page = client.get("/instance-types/c4.large/").content.decode()
    assert "memory-data" not in page and "memory.js" not in page
