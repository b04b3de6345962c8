"""A benchmark run at several worker counts ranked at one share of each type's vCPUs busy
(`busy=`): stress-ng at 1..n workers, a 2-vCPU and an 8-vCPU type compared half busy alike."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.selectors.answer.busy import workers_at
from tests.selectors.test_price_performance import make_type, price, run_with

pytestmark = pytest.mark.django_db

URL = "/api/v1/price-performance/?benchmark=stress-ng:cpu&region=us-east-1&at=2024-06-01"


def _measured(name, vcpus, usd, figures):
    make_type(name, vcpus=vcpus)
    price(name, usd, datetime.date(2024, 1, 1))
    for workers, value in figures.items():
        run_with(name, [value], key="stress-ng:cpu", params={"method": "div16", "workers": workers})


def test_workers_at_a_share_round_half_up_and_never_below_one():
    assert workers_at(Decimal("8"), Decimal("0.5")) == 4
    assert workers_at(Decimal("2"), Decimal("0.25")) == 1
    assert workers_at(Decimal("1"), Decimal("0.5")) == 1
    assert workers_at(Decimal("6"), Decimal("0.75")) == 5  # 4.5 rounds up
    assert workers_at(None, Decimal("0.5")) is None


def test_each_type_is_ranked_at_its_share_of_vcpus_busy(client):
    _measured("c7i.large", 2, "0.1", {1: 1800.0, 2: 2000.0})
    _measured("c7g.2xlarge", 8, "0.3", {1: 1500.0, 4: 6000.0, 8: 12000.0})
    rows = {row["instance_type"]: row for row in client.get(URL + "&busy=0.5").json()["results"]}
    assert rows["c7i.large"]["median"] == 1800  # 1 of 2 vCPUs
    assert rows["c7g.2xlarge"]["median"] == 6000  # 4 of 8
    full = {row["instance_type"]: row for row in client.get(URL + "&busy=1").json()["results"]}
    assert full["c7i.large"]["median"] == 2000 and full["c7g.2xlarge"]["median"] == 12000
    # Without busy= the worker count is open: one must be named.
    assert client.get(URL).status_code == 400


@pytest.mark.parametrize(
    "asked, says",
    [
        ("&busy=0.5&workers=2", "not both"),
        ("&busy=0", "greater than or equal to 0.01"),
        ("&busy=1.5", "less than or equal to 1"),
    ],
)
def test_a_busy_share_that_cannot_apply_is_refused_naming_busy(client, asked, says):
    _measured("c7i.large", 2, "0.1", {1: 1800.0, 2: 2000.0})
    response = client.get(URL + asked)
    assert response.status_code == 400
    assert says in " ".join(response.json()["busy"])


def test_a_benchmark_without_worker_counts_refuses_busy(client):
    _measured("c7i.large", 2, "0.1", {})
    run_with("c7i.large", [5.0], key="redis:set")
    response = client.get(
        "/api/v1/price-performance/?benchmark=redis:set&region=us-east-1&busy=0.5"
    )
    assert response.status_code == 400
    assert "no workers or processes parameter" in response.json()["busy"][0]


def test_the_finder_offers_the_share_for_a_benchmark_run_at_several_loads(client):
    _measured("c7i.large", 2, "0.1", {1: 1800.0, 2: 2000.0})
    page = client.get("/instance-types/?benchmark=stress-ng:cpu&busy=0.5&at=2024-06-01")
    html = page.content.decode()
    assert page.status_code == 200
    assert '<option value="0.5" selected' in html
    assert 'data-instance-type="c7i.large"' in html


def test_compare_sets_types_of_every_size_side_by_side_at_half_and_all_vcpus_busy(client):
    from benchmarks.questions.compare import CompareQuery
    from benchmarks.selectors.compare_types.compare import compare_types

    _measured("c7i.large", 2, "0.1", {1: 1800.0, 2: 2000.0})
    _measured("c7g.2xlarge", 8, "0.3", {1: 1500.0, 4: 6000.0, 8: 12000.0})
    comparison = compare_types(
        CompareQuery(
            types=("c7i.large", "c7g.2xlarge"),
            baseline="c7i.large",
            region="us-east-1",
            at=datetime.date(2024, 6, 1),
        )
    )
    [stress] = [lines for lines in comparison.benchmarks if lines.benchmark == "stress-ng:cpu"]
    by_busy = {
        line.params.get("busy"): [cell and cell.median for cell in line.cells]
        for line in stress.lines
        if "busy" in line.params
    }
    assert by_busy == {0.5: [1800.0, 6000.0], 1.0: [2000.0, 12000.0]}
