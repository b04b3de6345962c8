"""benchmarks/questions/fleet.py: the fleet question's validation and defaults, without a
request or a database."""

import datetime

from django.http import QueryDict

from benchmarks.questions.base import MAX_PARAMS
from benchmarks.questions.fleet import FleetForm, FleetQuestion


def form(query: str) -> FleetForm:
    return FleetForm(QueryDict(query))


def test_a_benchmark_with_its_own_parameters_is_the_question_and_same_regions_the_default():
    asked = form("benchmark=openssl:aes-256-cbc&block_size=8192&at=2026-10-01")

    assert asked.is_valid(), asked.errors
    assert asked.question() == FleetQuestion(
        benchmark="openssl:aes-256-cbc",
        params={"block_size": "8192"},
        regions="same",
        at=datetime.date(2026, 10, 1),
    )


def test_exactly_one_of_benchmark_and_profile_is_asked():
    for query in ("", "benchmark=openssl:sha256&profile=crypto", "regions=any"):
        asked = form(query)
        assert not asked.is_valid()
        assert "exactly one" in " ".join(asked.error_dict()["benchmark"])
    assert form("profile=crypto&regions=any").is_valid()


def test_parameters_are_bounded_as_the_price_performance_questions_are():
    many = "&".join(f"p{number}=1" for number in range(MAX_PARAMS + 1))
    assert form(f"benchmark=openssl:sha256&{many}").error_dict() == {
        "detail": [f"at most {MAX_PARAMS} benchmark parameters"]
    }
    assert "too long" in form("benchmark=openssl:sha256&threads=" + "9" * 201).error_text()
    assert "takes no benchmark parameters" in form("profile=crypto&threads=4").error_text()


def test_an_unknown_profile_region_choice_or_day_is_refused_by_name():
    assert set(form("profile=nope&regions=moon&at=2026-02-30").error_dict()) == {
        "profile",
        "regions",
        "at",
    }
