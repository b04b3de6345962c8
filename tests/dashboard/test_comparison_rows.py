"""dashboard/templatetags/comparison_rows.py: the comparison page's long lists written in
Python, as the template language wrote them: flagged runs, links, escaping."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from benchmarks.services import runs as run_services
from dashboard.templatetags.pricebench import type_pages
from tests.selectors.test_comparison import JAN, some_results
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db


def row_of(html: str, name: str) -> str:
    """The results table's `<tr>` of a type."""
    table = html[html.index('id="results-table"') :]
    return re.search(rf'<tr data-instance-type="{re.escape(name)}".*?</tr>', table, re.S).group(0)


def test_flagged_runs_are_counted_beside_the_runs_and_listed_below_the_table(shared_data):
    for name, usd in (("c7g.large", "0.0725"), ("c7a.large", "0.1027")):
        price(name, usd, JAN)
    path = shared_data / "parsers" / "iperf3" / "iperf3lib_3.21_tcp_P2_loopback_client.json"
    capped = path.read_text(encoding="utf-8-sig")
    full = json.loads(capped)
    full["start"]["test_start"]["target_bitrate"] = 0
    runs = {}
    for name, content in (
        ("c7g.large", capped),
        ("c7g.large", json.dumps(full)),
        ("c7a.large", capped),
    ):
        run, _ = run_services.record_run(
            content=content.encode(), instance_type_name=name, region_code="us-east-1"
        )
        runs.setdefault(name, run.pk)
    html = Client().get("/?benchmark=iperf3:tcp&region=us-east-1&direction=send").content.decode()
    mixed, only = row_of(html, "c7g.large"), row_of(html, "c7a.large")
    assert '<small class="flag">+1 flagged, left out</small>' in mixed
    assert 'class="flagged"' not in mixed
    assert 'class="flagged"' in only and '<small class="flag">all flagged</small>' in only
    flagged = html[html.index('<section id="flagged">') :]
    for run_id in runs.values():
        assert f'<a href="{reverse("run", args=[run_id])}">run {run_id}</a>' in flagged


def test_the_rows_link_each_type_as_reverse_does_and_escape_what_they_write():
    some_results()
    run_with("c7g.large", [210.0], params={"block_size": 8192}, variant="<b>tuned</b>")
    html = Client().get("/?benchmark=openssl:sha256&region=us-east-1").content.decode()
    row = row_of(html, "c7g.large")
    assert f'<a href="{reverse("instance-type", args=["c7g.large"])}">c7g.large</a>' in row
    assert "<b>tuned</b>" not in html
    assert "c7g.large (&lt;b&gt;tuned&lt;/b&gt;)" in html  # the charts' data and the menu
    page_of = type_pages()
    for name in ("c7g.large", "hcloud:cax11", "odd name é%", "a&b"):
        link = reverse("instance-type", args=[name]).replace("&", "&amp;")
        assert page_of(name) == link
