"""An instance type's page shows stress-ng at every load: work per second and per dollar by
workers, and what each worker adds against one alone (SMT halves it when both threads of a
core are busy)."""

import datetime
import json
import re

import pytest

from tests.selectors.test_price_performance import make_type, price, run_with

pytestmark = pytest.mark.django_db


def _type_with_loads(name, vcpus, figures, usd="0.1"):
    make_type(name, vcpus=vcpus)
    price(name, usd, datetime.date(2024, 1, 1))
    for workers, value in figures.items():
        run_with(name, [value], key="stress-ng:cpu", params={"method": "div16", "workers": workers})


def test_the_page_charts_work_per_second_and_per_dollar_at_each_load(client):
    _type_with_loads("c7i.xlarge", 4, {1: 1800.0, 2: 3600.0, 4: 3660.0})
    page = client.get("/instance-types/c7i.xlarge/").content.decode()
    data = json.loads(re.search(r'id="cpu-scaling-data"[^>]*>(.*?)</script>', page).group(1))
    assert [point["workers"] for point in data["points"]] == [1, 2, 4]
    four = data["points"][2]
    assert four["busy_share"] == 1.0
    assert four["efficiency"] == pytest.approx(3660 / (4 * 1800), abs=1e-4)  # 51%: SMT
    assert four["per_dollar"] == pytest.approx(3660 * 3600 / 0.1)
    assert data["region"] == "us-east-1"
    table = re.search(r'id="cpu-scaling-table">(.*?)</table>', page, re.S).group(1)
    assert "<td>51%</td>" in table and "<td>50%</td>" in table  # 4 workers; 2 of 4 vCPUs busy
    assert "cpu-scaling.js" in page


def test_one_load_alone_draws_no_scaling(client):
    _type_with_loads("c7g.large", 2, {1: 1500.0})
    page = client.get("/instance-types/c7g.large/").content.decode()
    assert "cpu-scaling-data" not in page and "cpu-scaling.js" not in page
