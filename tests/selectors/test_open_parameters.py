"""A parameter the question left open never turns into a 400 because data arrived (issue 54,
item 2): after one upload of `openssl speed` with one process for c7a.large, measured by Spare
Cores with one process per vCPU, the question without `processes` answers with one per vCPU,
says so, and names the value left aside; the page keeps its question."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks.errors import DomainError
from benchmarks.questions.parameters import PER_VCPU, rule_value
from tests.selectors.test_price_performance import answer, make_type, price, run_with

pytestmark = pytest.mark.django_db

KEY = "openssl:aes-256-cbc"
DAY = datetime.date(2024, 6, 1)


@pytest.fixture
def uploaded():
    """c7a.large and c7g.large as Spare Cores measured them (two processes on two vCPUs),
    c7g.xlarge too (four on four), then one upload of one process on c7a.large."""
    for name, vcpus in (("c7a.large", 2), ("c7g.large", 2), ("c7g.xlarge", 4)):
        make_type(name, vcpus=Decimal(vcpus))
        price(name, "0.1", datetime.date(2024, 1, 1))
        run_with(name, [2000.0 * vcpus], key=KEY, params={"block_size": 8192, "processes": vcpus})
    run_with("c7a.large", [1000.0], key=KEY, params={"block_size": 8192, "processes": 1})


def test_per_vcpu_takes_the_value_nearest_the_vcpus():
    assert rule_value(PER_VCPU, Decimal(2), {1, 2}) == 2
    assert rule_value(PER_VCPU, Decimal(4), {1, 2}) == 2
    assert rule_value(PER_VCPU, Decimal("0.5"), {1, 2}) == 1
    assert rule_value(PER_VCPU, None, {1, 2}) == 2


def test_the_answer_takes_one_process_per_vcpu_and_says_so(uploaded):
    table = answer(KEY, "us-east-1", at=DAY, params={"block_size": "8192"})
    medians = {row.instance_type: row.median for row in table.results}
    assert medians == {"c7a.large": 4000.0, "c7g.large": 4000.0, "c7g.xlarge": 8000.0}
    assert table.open_rules == [
        "processes left open: one per vCPU, as Spare Cores measures "
        "(c7a.large also with 1: choose processes= to rank those)"
    ]


def test_processes_asked_still_ranks_the_upload(uploaded):
    table = answer(KEY, "us-east-1", at=DAY, params={"block_size": "8192", "processes": "1"})
    assert {row.instance_type: row.median for row in table.results} == {"c7a.large": 1000.0}
    assert table.open_rules == []


def test_a_parameter_without_a_rule_is_still_refused_when_mixed(uploaded):
    run_with("c7g.large", [9.0], key=KEY, params={"block_size": 16, "processes": 2})
    with pytest.raises(DomainError, match="several values of block_size"):
        answer(KEY, "us-east-1", at=DAY)


def test_the_api_answers_200_naming_the_rule_in_its_sentence(uploaded):
    response = APIClient().get(
        "/api/v1/price-performance/",
        {"benchmark": KEY, "region": "us-east-1", "block_size": 8192, "at": DAY.isoformat()},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert {row["instance_type"] for row in body["results"]} == {
        "c7a.large",
        "c7g.large",
        "c7g.xlarge",
    }
    assert "Processes left open: one per vCPU, as Spare Cores measures" in body["summary"]


def test_the_page_keeps_its_question_and_answers_200(uploaded, client):
    response = client.get("/", {"benchmark": KEY, "region": "us-east-1", "at": DAY.isoformat()})
    assert response.status_code == 200
    html = response.content.decode()
    assert "several values" not in html
    assert "Processes left open: one per vCPU" in html
    # processes stays open: the page did not switch to the uploaded value.
    assert "processes" not in response.context["comparison"].table.params
