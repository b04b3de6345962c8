"""The processor lottery on the pages: a type or task measured on several processors says
how often each was met, where its processors are listed (study S1's smallest Fargate task:
4 of 5 tasks on an E5-2676 v3, 1 on an E5-2686 v4)."""

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

S1 = "/?benchmark=openssl:aes-128-gcm&region=us-east-1&at=2017-12-13&block_size=8192&processes=1"


def row_of(html: str, attribute: str, name: str) -> str:
    match = re.search(rf'<tr {attribute}="{re.escape(name)}".*?</tr>', html, re.S)
    assert match, f"no row {name}"
    return match.group(0)


def test_the_comparison_table_gives_each_processors_odds_and_figure(demo_rolled_back):
    html = Client().get(S1 + "&families=fargate,t2").content.decode()
    task = row_of(html, "data-instance-type", "fargate-0.25vcpu-0.5gb")
    assert "4 of 5 tasks ran on Intel Xeon E5-2676 v3: 2.78 GB/s<br>" in task
    assert "1 of 5 tasks ran on Intel Xeon E5-2686 v4: 3.52 GB/s" in task
    # One processor: its name and the machines it stands for, no odds.
    nano = row_of(html, "data-instance-type", "t2.nano")
    assert "Intel Xeon E5-2676 v3 (5)" in nano and " of 5 " not in nano
    assert '<th scope="col">CPU models (machines)</th>' in html


def test_the_instance_type_page_gives_the_odds_under_the_runs(demo_rolled_back):
    html = Client().get("/instance-types/fargate-0.25vcpu-0.5gb/").content.decode()
    rank = row_of(html, "data-benchmark", "openssl:aes-128-gcm")
    assert (
        '<small class="odds">4 of 5 tasks ran on Intel Xeon E5-2676 v3; '
        "1 of 5 tasks ran on Intel Xeon E5-2686 v4</small>"
    ) in rank
    nano = Client().get("/instance-types/t2.nano/").content.decode()
    assert 'class="odds"' not in nano
