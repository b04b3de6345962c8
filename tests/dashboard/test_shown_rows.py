"""The comparison page writes out the first rows as ranked and the baseline, with a link to
every row (`rows=all`): all families across four clouds was 1.5 MB of HTML."""

import json
import re

import pytest
from django.test import Client

from benchmarks.selectors.answer import shown_rows
from benchmarks.selectors.pages import comparison

pytestmark = pytest.mark.django_db

QUESTION = "/?benchmark=openssl:aes-256-cbc&region=us-east-1&families="


def table_rows(html: str) -> list[str]:
    table = html[
        html.index('id="results-table"') : html.index("</table>", html.index('id="results-table"'))
    ]
    return re.findall(r'<tr data-instance-type="([^"]+)"', table)


def chart_rows(html: str) -> list[str]:
    data = re.search(r'<script id="chart-data" type="application/json">(.*?)</script>', html, re.S)
    return [row["instance_type"] for row in json.loads(data.group(1))["rows"]]


@pytest.fixture
def few(monkeypatch):
    monkeypatch.setattr(shown_rows, "ROWS_SHOWN", 5)
    monkeypatch.setattr(shown_rows, "UNPRICED_SHOWN", 2)
    monkeypatch.setattr(comparison, "BARS_CHARTED", 3)


def test_the_page_writes_the_first_rows_and_links_every_row(demo_rolled_back, few):
    everything = Client().get(QUESTION + "&rows=all")
    assert everything.status_code == 200
    every_row = table_rows(everything.content.decode())
    assert len(every_row) > 5

    response = Client().get(QUESTION)
    html = response.content.decode()
    assert response.status_code == 200
    assert table_rows(html) == every_row[:5]
    assert f"The first 5 of {len(every_row)} instance types" in html
    link = re.search(r'<a href="([^"]+)" id="show-all-rows">Show all</a>', html).group(1)
    assert "rows=all" in link and "benchmark=openssl%3Aaes-256-cbc" in link
    assert table_rows(Client().get("/" + link.replace("&amp;", "&")).content.decode()) == every_row
    # The charts' data: the rows shown and the bars, not every row.
    charted = chart_rows(html)
    assert set(every_row[:5]) <= set(charted) and len(charted) < len(every_row)


def test_the_baseline_is_shown_when_it_ranks_below_the_first_rows(demo_rolled_back, few):
    every_row = table_rows(Client().get(QUESTION + "&rows=all").content.decode())
    last = every_row[-1]
    html = Client().get(f"{QUESTION}&baseline={last}").content.decode()
    assert table_rows(html) == [*every_row[:5], last]


def test_a_refused_rows_value_answers_400_naming_it(demo_rolled_back):
    response = Client().get(QUESTION + "&rows=bogus")
    assert response.status_code == 400
    assert re.search(r'id="rows-error">rows: .*bogus', response.content.decode())


def test_rows_all_is_the_pages_own_and_never_said_dropped(demo_rolled_back, few):
    html = Client().get(QUESTION + "&rows=all").content.decode()
    # Not a benchmark parameter: no "rows=all does not apply ...: dropped" above the rows.
    assert "dropped" not in html
    assert "rows=all does not apply" not in html
    assert re.search(r'id="rows-left-out">Every row is shown\. ', html)
