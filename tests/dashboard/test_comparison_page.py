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


def test_a_line_under_the_answer_says_how_far_a_second_run_moves():
    from benchmarks.models import Benchmark

    some_results()
    page = "/?benchmark=openssl:sha256&region=us-east-1&block_size=8192"
    # No noise measured: nothing to say.
    assert 'data-role="second-run"' not in Client().get(page).content.decode()
    Benchmark.objects.update(
        noise={"relative": 0.001, "series": 2000, "method": "set by the test",
               "tie_margin": 0.157, "quantiles": {"p50": 0.001, "p90": 0.056, "p95": 0.157,
               "p99": 0.6}, "basis": "repeats", "calibration": None, "pairs": 2623,
               "groups": {}}
    )  # fmt: skip
    html = Client().get(page).content.decode()
    answer, line = html.index('data-role="answer"'), html.index('data-role="second-run"')
    # Under the answer, beneath the per-dollar chart whose error bars it explains.
    assert answer < html.index('id="per-dollar-chart"') < line
    assert (
        "A second run of the same type differs by up to 5.6% in 9 runs of 10 and by up to 16% "
        "in 19 of 20: a lead inside that is a tie (2,623 pairs of runs)."
    ) in html


def test_the_line_under_the_answer_names_the_group_the_winner_was_judged_by():
    from benchmarks.models import Benchmark, InstanceType

    some_results()
    InstanceType.objects.filter(name="t2.nano").update(cpu_allocation="burstable")
    quantiles = {"p50": 0.001, "p90": 0.035, "p95": 0.075, "p99": 0.2}
    Benchmark.objects.update(
        noise={"relative": 0.001, "series": 100, "method": "set by the test",
               "tie_margin": 0.2, "quantiles": {**quantiles, "p95": 0.2}, "basis": "peers",
               "calibration": None, "pairs": 500,
               "groups": {"aws burstable": {"pairs": 62, "quantiles": quantiles,
                                            "tie_margin": 0.075}}}
    )  # fmt: skip
    html = Client().get("/?benchmark=openssl:sha256&region=us-east-1&block_size=8192")
    # t2.nano wins (burstable, AWS): its group's quantiles, and peers said as peers.
    line = html.content.decode().split('data-role="second-run">')[1].split("<")[0]
    assert (
        "On Amazon Web Services&#x27; burstable vCPUs, two types with the same processor and "
        "vCPUs (no type was run twice) differ by up to 3.5% in 9 pairs of 10 and by up to 7.5% "
        "in 19 of 20: a lead inside that is a tie (62 pairs of runs)."
    ) == line
