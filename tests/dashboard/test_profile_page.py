"""The comparison page asked about a workload profile: the menu's `profile:KEY` sent on to
`?profile=KEY`, the answer (sentence, chart data, members with their weights, every ranked
type, the types left out with why), refusals beside the menu, a fixed number of queries."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api.test_profiles import TYPES, measured

pytestmark = pytest.mark.django_db


def get(path: str, **params):
    return Client().get(path, params)


def test_the_menu_names_a_profile_and_the_page_sends_it_on_to_its_own_address():
    response = get("/", benchmark="profile:crypto", region="us-east-1", families="")
    assert response.status_code == 302
    assert response["Location"] == "/?region=us-east-1&families=&profile=crypto"


def test_a_profile_is_answered_with_its_sentence_chart_members_and_rows():
    measured(TYPES)
    response = get("/", profile="crypto", region="us-east-1", families="", at="2024-06-01")
    assert response.status_code == 200
    html = response.content.decode()
    answer = re.search(r'data-role="answer">(.*?)</p>', html).group(1)
    # pf2.large: four times pf1.large's AES at its price, the same SHA-256 and SHA-512.
    assert answer.startswith("For Crypto work, pf2.large buys the most per dollar")
    assert "Left out: 1 lacking one of its benchmarks." in answer
    assert '<option value="profile:crypto"' in html and "selected>Crypto workload" in html
    rows = re.findall(r'<tr data-instance-type="([^"]+)"', html)
    assert rows == ["pf2.large", "pf1.large", "pf1.xlarge"]
    assert 'id="lacking"' in html and "pf3.large" in html.split('id="lacking"')[1]
    for member in ("openssl:aes-256-cbc", "openssl:sha256", "openssl:sha512"):
        assert f'href="/benchmarks/{member}/"' in html
    chart = json.loads(re.search(r'id="chart-data" type="application/json">(.*?)</script>', html)
                       .group(1))  # fmt: skip
    assert [bar["label"] for bar in chart["bars"]] == rows
    assert chart["bars"][0]["per_dollar"] > chart["bars"][1]["per_dollar"]
    # The same question in the API, and its CSV.
    assert 'href="/api/v1/price-performance/?profile=crypto&amp;region=us-east-1' in html


def test_the_profile_page_keeps_the_five_families_unless_asked():
    measured(TYPES)
    html = get("/", profile="crypto", region="us-east-1").content.decode()
    # None of the test's types is among Fargate, t2, c7g, c7a and c7i.
    assert "No instance type can be ranked on Crypto work" in html


def test_an_unknown_profile_is_said_beside_the_menu_over_the_default_benchmark():
    response = get("/", profile="gaming")
    assert response.status_code == 400
    html = response.content.decode()
    assert "gaming is not a profile; choose from cpu-integer" in html


def test_the_profile_page_takes_a_fixed_number_of_queries():
    measured(TYPES)
    with CaptureQueriesContext(connection) as queries:
        response = get("/", profile="crypto", region="us-east-1", families="")
    assert response.status_code == 200
    assert len(queries) <= 10, [query["sql"][:80] for query in queries]
    # Every benchmark is read for the menus, without its kept noise (a megabyte for some):
    # only the profile's members' noise is read.
    every = [query["sql"] for query in queries if '"benchmarks_benchmark"' in query["sql"]]
    assert every and not [sql for sql in every if '"noise"' in sql and "WHERE" not in sql]
