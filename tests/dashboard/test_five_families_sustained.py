"""The five families' table on the landing page: t2's vCPU-hour also per sustained vCPU-hour
(a t2.nano's $0.0058 looked like the cheapest compute there is; it sustains 5% of a vCPU)."""

import re

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo_rolled_back")]

QUESTION = "/?benchmark=openssl:aes-256-cbc&region=us-east-1&block_size=8192&at=2026-11-24"


def line(html: str, family: str) -> str:
    found = re.search(rf'<tr data-family="{family}">(.*?)</tr>', html, re.S)
    assert found, family
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_t2s_vcpu_hour_is_also_shown_at_what_it_sustains():
    html = Client().get(QUESTION).content.decode()
    t2 = line(html, "t2")
    # On demand: t2.nano's $0.0058, and t2.small's $0.023 at 20% ($0.115) the cheapest
    # sustained; spot likewise.
    assert "$0.0058 t2.nano$0.115 per sustained vCPU-hour t2.small" in t2
    assert t2.count("per sustained vCPU-hour") == 2
    assert "per sustained vCPU-hour" not in line(html, "c7i")
    assert 'id="five-families-sustained"' in html
