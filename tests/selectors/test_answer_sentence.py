"""The answer's sentence of a lower-is-better question: it names the row the answer ranks
first, the most per dollar (3600 ÷ (median × USD per hour)), and says so (issue 42, item 5)."""

import datetime

import pytest

from benchmarks.models import Benchmark
from benchmarks.selectors.answer.answer_sentence import summary
from tests.selectors.test_price_performance import DAY, answer, price, run_with

pytestmark = pytest.mark.django_db

JAN = datetime.date(2024, 1, 1)


@pytest.fixture
def latencies():
    """c7i.large answers in 1 ms at $1/h; m5.large in 2 ms at $0.10/h: five times the waits of
    its length a dollar pays for."""
    Benchmark.objects.create(key="redis:set-latency", unit="s", higher_is_better=False)
    price("c7i.large", "1.00", JAN)
    price("m5.large", "0.10", JAN)
    run_with("c7i.large", [0.001], key="redis:set-latency", hib=False)
    run_with("m5.large", [0.002], key="redis:set-latency", hib=False)
    return answer("redis:set-latency", "us-east-1", at=DAY, baseline="c7i.large")


def test_a_latencys_sentence_names_the_first_row_most_per_dollar(latencies):
    assert [row.instance_type for row in latencies.results] == ["m5.large", "c7i.large"]
    assert latencies.results[0].per_dollar == pytest.approx(3600 / (0.002 * 0.10))
    sentence = summary(latencies)
    assert sentence.startswith("m5.large ranks first per dollar on redis:set-latency (")
    # The ratios are of what a dollar buys, not of the latencies.
    assert "5.0 times as much per dollar as the best of the next family (c7i.large)" in sentence
    assert "5.0 times as much per dollar as the baseline c7i.large" in sentence
    assert "2 ms" in sentence
