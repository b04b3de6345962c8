"""What the standing keeps between answers (selectors/answer/standing.py `kept_standing`): a
row's spread, margin and intervals worked out once while the benchmark's statistics and
noise stay the same, the answers as they were without it, and worked out again once either
moves."""

import datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from benchmarks import freshness, repeats
from benchmarks.models import Benchmark
from benchmarks.noise import Noise
from benchmarks.selectors.answer import standing
from benchmarks.selectors.answer.standing import kept_standing, stand
from benchmarks.services import statistics

URL = "/api/v1/price-performance/"
QUESTION = {"benchmark": "openssl:aes-256-cbc", "region": "us-east-1", "block_size": 8192}
STANDING = ("rank", "rank_range", "spread", "tie_margin", "interval", "per_dollar_interval")


def _noise(spread: float) -> Noise:
    """A benchmark's noise judging every row by one distribution of this width."""
    quantiles = {name: spread for name in repeats.QUANTILES}
    return Noise(
        relative=spread / 2, series=40, method="test", tie_margin=spread, quantiles=quantiles,
        pairs=60,
    )  # fmt: skip


def _rows(per_dollar_of_c7a: float = 100.0) -> list:
    def row(name, per_dollar, median, runs=1, low=None, high=None, estimate=None):
        return SimpleNamespace(
            instance_type=name, family=name.split(".")[0], per_dollar=per_dollar,
            median=median, runs=runs, min=low or median, max=high or median, vendor="aws",
            cpu_allocation="dedicated", params_key='{"block_size":8192}', estimate=estimate,
            spread=None, tie_margin=None, interval=None, per_dollar_interval=None, rank=None,
            rank_range=None,
        )  # fmt: skip

    return [
        row("c7g.large", 110.0, 55.0),
        row("c7a.large", per_dollar_of_c7a, 50.0),
        row("cx22.x", 90.0, 45.0, runs=3, low=40.0, high=52.0),
        row("t2.nano", None, 10.0),
        row("zero.large", 5.0, 0.0),
        row("fargate-1vcpu-2gb", 80.0, 40.0, runs=0,
            estimate={"sources_range": {"low": 30.0, "high": 48.0}}),
    ]  # fmt: skip


def _standing_of(rows) -> list[tuple]:
    return [tuple(getattr(row, name) for name in STANDING) for row in rows]


def test_kept_figures_give_the_rows_what_working_them_out_gives():
    noise = _noise(0.02)
    plain = _rows()
    stand(plain, noise)
    kept: dict = {}
    first, again, repriced = _rows(), _rows(), _rows(per_dollar_of_c7a=104.0)
    stand(first, noise, kept=kept)
    stand(again, noise, kept=kept)
    assert _standing_of(first) == _standing_of(again) == _standing_of(plain)
    # The measured rows' figures are kept (not the estimate's: its interval is its sources').
    assert len(kept) == 5
    # Another price: the same interval, what a dollar buys of it worked out again.
    fresh = _rows(per_dollar_of_c7a=104.0)
    stand(fresh, noise)
    stand(repriced, noise, kept=kept)
    assert _standing_of(repriced) == _standing_of(fresh)
    assert repriced[1].per_dollar_interval != first[1].per_dollar_interval


def test_an_answer_takes_what_an_earlier_one_kept():
    noise = _noise(0.02)
    kept: dict = {}
    stand(_rows(), noise, kept=kept)
    key = next(figures for figures in kept if figures[-1] == 45.0)  # cx22's figures
    kept[key] = (0.5, 0.6, 0.6, *kept[key][3:])
    rows = _rows()
    stand(rows, noise, kept=kept)
    # Taken from what was kept, not worked out again.
    assert (rows[2].spread, rows[2].tie_margin) == (0.5, 0.6)


@pytest.fixture
def clock(monkeypatch):
    """Moves freshness's clock on: past the window (60 s), within a stamp's (STAMPED_SECONDS)."""
    now = [0.0]
    original = freshness.time.monotonic
    monkeypatch.setattr(freshness.time, "monotonic", lambda: original() + now[0])

    def later() -> None:
        now[0] += 61
        assert now[0] < freshness.STAMPED_SECONDS

    return later


@pytest.fixture
def ask(demo_rolled_back, settings, monkeypatch):
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    statistics.keep_noise()
    freshness.forget()
    worked_out = []
    original = standing._keep

    def counted(kept, row, *rest):
        worked_out.append(row.instance_type)
        return original(kept, row, *rest)

    monkeypatch.setattr(standing, "_keep", counted)

    def answer(day: str) -> tuple[dict, int]:
        worked_out.clear()
        response = APIClient().get(URL, {**QUESTION, "at": day})
        assert response.status_code == 200, response.content
        return response.json(), len(worked_out)

    return answer


def _figures(body) -> list[tuple]:
    return [(row["instance_type"], *(row[name] for name in STANDING)) for row in body["results"]]


@pytest.mark.django_db
def test_a_question_asked_again_works_out_no_rows_figures_and_answers_the_same(ask, settings):
    first, worked_first = ask("2026-11-20")
    again, worked_again = ask("2026-11-21")
    assert worked_first > 10 and worked_again == 0
    assert _figures(again) == _figures(first)
    # Without anything kept, the same.
    settings.PRICEBENCH_FRESHNESS_SECONDS = 0
    unkept, _ = ask("2026-11-21")
    assert _figures(unkept) == _figures(again)


@pytest.mark.django_db
def test_new_noise_is_not_judged_by_what_the_old_one_kept(ask, clock):
    before, _ = ask("2026-11-20")
    # Past the window the benchmark is read again, and what its stamps still match is kept.
    clock()
    _same, worked = ask("2026-11-21")
    assert worked == 0
    benchmark = Benchmark.objects.get(key=QUESTION["benchmark"])
    # As keep_noise writes it: a new noise, its own stamp; the statistics' stamp unmoved.
    Benchmark.objects.filter(pk=benchmark.pk).update(
        noise=_noise(0.25).as_dict(), noise_measured_at=timezone.now()
    )
    clock()
    after, worked = ask("2026-11-22")
    assert worked > 10
    margins = [row["tie_margin"] for row in after["results"] if not row["estimated"]]
    assert min(margins) >= 0.25
    assert min(row["tie_margin"] for row in before["results"]) < 0.25


@pytest.mark.django_db
def test_kept_figures_go_when_the_statistics_or_the_noise_move(demo_rolled_back, settings, clock):
    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    statistics.keep_noise()
    freshness.forget()
    benchmark = Benchmark.objects.get(key=QUESTION["benchmark"])
    kept = kept_standing(benchmark)
    assert kept is not None and kept_standing(benchmark) is kept
    clock()  # past the window: kept while the stamps stay
    assert kept_standing(benchmark) is kept
    later = benchmark.stats_updated_at + datetime.timedelta(seconds=1)
    benchmark.stats_updated_at = later
    moved = kept_standing(benchmark)
    assert moved is not None and moved is not kept
    clock()
    benchmark.noise_measured_at = later + datetime.timedelta(seconds=1)
    assert kept_standing(benchmark) is not moved
    # Noise never measured, or a stamp not read with the benchmark: nothing kept.
    benchmark.noise_measured_at = None
    assert kept_standing(benchmark) is None
    deferred = Benchmark.objects.defer("noise_measured_at").get(pk=benchmark.pk)
    assert kept_standing(deferred) is None
