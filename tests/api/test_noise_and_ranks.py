"""`price-performance/` says how sure it is: the benchmark's noise, each row's rank and the
ranks it could take within it, the winner's family and whether its lead is a tie."""

from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from benchmarks.noise import Noise
from benchmarks.selectors.answer.standing import stand
from benchmarks.services import statistics

pytestmark = pytest.mark.django_db

URL = "/api/v1/price-performance/"
# The landing's question (CONTRACT: "the default question").
DEFAULT_QUESTION = {
    "benchmark": "openssl:aes-256-cbc",
    "region": "us-east-1",
    "block_size": 8192,
    "instance_types": "",
}


@pytest.fixture
def answer(demo_rolled_back):
    statistics.keep_noise()

    def ask(**question):
        response = APIClient().get(URL, question)
        assert response.status_code == 200, response.content
        return response.json()

    return ask


def _default(ask):
    body = ask(benchmark="openssl:aes-256-cbc", region="us-east-1", block_size=8192)
    families = {"t2", "c7g", "c7a", "c7i"}
    return body, [row for row in body["results"] if row["family"] in families]


def test_the_default_question_carries_its_measured_noise(answer):
    body, _rows = _default(answer)
    noise = body["noise"]
    assert 0 < noise["relative"] < 0.5
    assert noise["series"] > 10
    assert "same processor and vCPUs" in noise["method"]


def test_rows_are_ranked_with_the_ranks_they_could_take_within_the_noise(answer):
    body, _rows = _default(answer)
    priced = [row for row in body["results"] if row["per_dollar"] is not None]
    assert sorted(row["rank"] for row in priced) == list(range(1, len(priced) + 1))
    for row in priced:
        best, worst = row["rank_range"]
        assert best <= row["rank"] <= worst
    # Within half a percent of each other, c7g sizes share ranks.
    assert any(row["rank_range"][0] < row["rank_range"][1] for row in priced)
    assert all(row["spread"] is None for row in priced if row["runs"] == 1)


def test_the_best_family_names_the_winners_sizes_within_noise(answer):
    body = answer(
        benchmark="openssl:aes-256-cbc",
        region="us-east-1",
        block_size=8192,
        instance_types=",".join(
            f"{family}.{size}"
            for family in ("c7g", "c7a", "c7i")
            for size in ("large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge")
        ),
    )
    best = body["best_family"]
    assert best["family"] == "c7g"
    assert len(best["types"]) >= 3 and all(name.startswith("c7g.") for name in best["types"])
    assert best["lead"] > 0.2
    assert body["tied"] is False


def _row(name, family, per_dollar, runs=1):
    return SimpleNamespace(
        instance_type=name, family=family, per_dollar=per_dollar, runs=runs,
        min=per_dollar, max=per_dollar * (1.1 if runs > 1 else 1), median=per_dollar,
    )  # fmt: skip


def test_a_lead_inside_the_noise_is_a_tie_and_one_beyond_it_is_not():
    noise = Noise(relative=0.01, series=100, method="m")  # margin 2.83%
    close = [_row("c7g.large", "c7g", 102.0), _row("c7a.large", "c7a", 100.0, runs=3)]
    standing = stand(close, noise)
    assert standing.tied is True
    assert standing.best_family.as_dict() == {"family": "c7g", "types": ["c7g.large"], "lead": 0.02}
    assert [row.rank_range for row in close] == [[1, 2], [1, 2]]
    assert close[1].spread == pytest.approx(0.1) and close[0].spread is None
    apart = [_row("c7g.large", "c7g", 104.0), _row("c7g.xlarge", "c7g", 103.0),
             _row("c7a.large", "c7a", 100.0)]  # fmt: skip
    standing = stand(apart, noise)
    assert standing.tied is False
    assert standing.best_family.types == ["c7g.large", "c7g.xlarge"]
    # No noise measured: any lead between single runs counts; a row's own runs still do
    # (c7a.large's three runs are 10% apart, wider than c7g's 2% lead).
    single = [_row("c7g.large", "c7g", 102.0), _row("c7a.large", "c7a", 100.0)]
    assert stand(single, None).tied is False
    assert stand(close, None).tied is True


SIZES = ("large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "16xlarge")


def test_the_sentence_names_the_family_and_its_sizes_within_noise(answer):
    body = answer(
        benchmark="openssl:aes-256-cbc",
        region="us-east-1",
        block_size=8192,
        instance_types=",".join(f"{f}.{size}" for f in ("c7g", "c7a", "c7i") for size in SIZES),
    )
    sizes = body["best_family"]["types"]
    assert body["summary"].startswith("c7g at "), body["summary"]
    assert "within noise of" in body["summary"] and "tied" not in body["summary"]
    assert "the best of the next family" in body["summary"]
    assert len(sizes) >= 3


def test_a_tie_is_said_and_names_both(answer):
    from benchmarks.models import Benchmark

    # A benchmark this noisy (a margin of 113%) holds c7g's lead over c7a inside it.
    Benchmark.objects.filter(key="openssl:aes-256-cbc").update(
        noise={"relative": 0.4, "series": 100, "method": "set by the test"}
    )
    body = answer(
        benchmark="openssl:aes-256-cbc",
        region="us-east-1",
        block_size=8192,
        instance_types="c7g.xlarge,c7a.xlarge",
    )
    assert body["tied"] is True
    assert body["summary"].startswith("c7g.xlarge and c7a.xlarge are tied for the most "), body[
        "summary"
    ]
    assert "the best of the next family" not in body["summary"]


def test_a_profiles_answer_ranks_within_its_members_noise(answer):
    body = answer(profile="crypto", region="us-east-1")
    members = body["profile"]["benchmarks"]
    assert {member["benchmark"] for member in members} >= {"openssl:aes-256-cbc"}
    noise = body["noise"]
    assert 0 < noise["relative"] < 0.5 and "members' noise" in noise["method"]
    ranks = [row["rank"] for row in body["results"] if row["per_dollar"] is not None]
    assert ranks == list(range(1, len(ranks) + 1))
    assert all(
        row["rank_range"][0] <= row["rank"] <= row["rank_range"][1] for row in body["results"]
    )
    assert body["best_family"]["family"] == body["results"][0]["family"]
    assert isinstance(body["tied"], bool)


def test_every_row_of_the_default_question_carries_both_intervals_around_its_figures(answer):
    body = answer(**{**DEFAULT_QUESTION, "families": "fargate,t2,c7g,c7a,c7i"})
    noise = body["noise"]
    assert noise["tie_margin"] == noise["quantiles"]["p95"]
    assert set(noise["quantiles"]) == {"p50", "p90", "p95", "p99"}
    assert noise["basis"] in ("repeats", "peers", "repeats and peers")
    assert set(noise["calibration"]) == {"pairs", "beyond_tie_margin", "interval_coverage", "level"}
    assert body["results"]
    for row in body["results"]:
        interval, bought = row["interval"], row["per_dollar_interval"]
        assert interval["level"] == bought["level"] == 0.9
        assert interval["low"] <= row["median"] <= interval["high"]
        assert bought["low"] <= row["per_dollar"] <= bought["high"]
        assert row["tie_margin"] >= 0


def test_a_row_whose_own_runs_differ_widely_spans_ranks_and_its_interval_covers_them(answer):
    from benchmarks.models import Benchmark

    # The noise as measured on the full demo's AWS dedicated types (aes-256-cbc's peers).
    Benchmark.objects.filter(key="openssl:aes-256-cbc").update(
        noise={"relative": 0.004, "series": 100, "method": "set by the test",
               "tie_margin": 0.01, "quantiles": {"p50": 0.004, "p90": 0.008, "p95": 0.01,
               "p99": 0.05}, "basis": "peers", "calibration": None, "pairs": 100, "groups": {}}
    )  # fmt: skip
    body = answer(**DEFAULT_QUESTION)
    rows = [row for row in body["results"] if row["per_dollar"] is not None]
    for row in rows:
        interval = row["interval"]
        assert interval["low"] <= row["min"] and row["max"] <= interval["high"]
        if row["runs"] >= 2 and row["max"] / row["min"] - 1 > 0.01:
            assert row["tie_margin"] == pytest.approx(row["max"] / row["min"] - 1, rel=1e-5)
        else:
            assert row["tie_margin"] == 0.01
