"""dashboard/views.py `comparison`: the question bar, the family picker's presets as links."""

from html.parser import HTMLParser
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client

from tests.selectors.test_comparison import some_results

pytestmark = pytest.mark.django_db


class Presets(HTMLParser):
    """The family picker's preset links: data-preset -> href."""

    def __init__(self):
        super().__init__()
        self.links: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "a" and "data-preset" in attributes:
            self.links[attributes["data-preset"]] = attributes["href"]


def presets(response) -> dict[str, dict[str, list[str]]]:
    parser = Presets()
    parser.feed(response.content.decode())
    return {
        key: parse_qs(urlparse(href).query, keep_blank_values=True)
        for key, href in parser.links.items()
    }


def test_the_presets_link_the_same_question_with_their_families_and_no_baseline():
    some_results()
    response = Client().get(
        "/?benchmark=openssl:sha256&region=us-east-1&block_size=8192&baseline=c7a.large"
    )
    assert response.status_code == 200
    links = presets(response)
    assert list(links) == ["named", "latest", "graviton", "burstable", "all"]
    # All five, those without results too (issue 45: it dropped Fargate); the answer names them.
    assert links["named"]["families"] == ["fargate,t2,c7g,c7a,c7i"]
    assert links["graviton"]["families"] == ["c7g"]
    assert links["burstable"]["families"] == ["t2"]
    assert links["all"]["families"] == [""]
    for query in links.values():
        assert query["benchmark"] == ["openssl:sha256"] and query["block_size"] == ["8192"]
        assert "baseline" not in query


def test_the_answer_region_follows_the_question_bar():
    some_results()
    html = Client().get("/?benchmark=openssl:sha256&region=us-east-1").content.decode()
    form, answer = html.index('id="comparison-form"'), html.index('id="comparison-answer"')
    assert form < answer < html.index('data-role="answer"') < html.index('id="per-dollar-chart"')
    assert 'id="family-search"' in html and 'id="more-options"' in html
