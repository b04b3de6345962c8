"""benchmarks/questions/base.py and parameters.py: how a question's values are read, without a
request (numbers and days in ASCII digits, days the calendar has, a parameter's kind)."""

from types import SimpleNamespace

import pytest
from django.http import QueryDict

from benchmarks.errors import DomainError
from benchmarks.questions.base import day_error
from benchmarks.questions.commitment_cost import CommitmentCostForm
from benchmarks.questions.parameters import benchmark_params, coerce_param
from benchmarks.questions.price_performance import PricePerformanceForm
from benchmarks.questions.unit_prices import UnitPricesForm

BENCHMARK = SimpleNamespace(
    key="openssl:sha256",
    params={"block_size": [16, 8192], "processes": [1, 2], "op": ["sign"], "ratio": [0.5]},
    families=["c7g"],
)


@pytest.mark.parametrize("text", ["①", "²", "٣", "1_000", "0x2000", "８"])
def test_only_ascii_is_read_as_a_number(text):
    assert coerce_param(text) == text


def test_ascii_numbers_are_read_as_before():
    assert (coerce_param("8192"), coerce_param(" 8 "), coerce_param("0.5")) == (8192, 8, 0.5)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("2017-02-30", "2017-02-30 does not exist: February 2017 has days 01 to 28."),
        ("2016-02-30", "2016-02-30 does not exist: February 2016 has days 01 to 29."),
        ("2017-04-00", "2017-04-00 does not exist: April 2017 has days 01 to 30."),
        ("2017-13-01", "Date has wrong format. Use YYYY-MM-DD. There is no month 13 (01 to 12)."),
        ("0000-01-01", "Date has wrong format. Use YYYY-MM-DD. There is no year 0000."),
        ("２０１７-12-13", "Date has wrong format. Use YYYY-MM-DD."),
        ("13/12/2017", "Date has wrong format. Use YYYY-MM-DD."),
        ("2016-02-29", None),
    ],
)
def test_a_day_is_refused_saying_why(text, error):
    assert day_error(text) == error


@pytest.mark.parametrize("raw", ["-1", "0", "1.5", "①", "٣", "0x2"])
def test_a_count_takes_a_whole_number_from_1(raw):
    with pytest.raises(DomainError) as refused:
        benchmark_params(BENCHMARK, {"processes": raw})
    assert refused.value.field == "processes"
    assert refused.value.message == (
        f"processes={raw}: processes takes a whole number from 1, in ASCII digits; "
        "openssl:sha256 was measured with 1, 2"
    )


def test_a_value_of_the_measured_kind_is_taken_as_the_results_store_it():
    assert benchmark_params(BENCHMARK, {"processes": "1.0", "block_size": "4096"}) == {
        "processes": 1,
        "block_size": 4096,
    }
    # Text and fractional parameters take what they are given.
    assert benchmark_params(BENCHMARK, {"op": "verify", "ratio": "0.25"}) == {
        "op": "verify",
        "ratio": 0.25,
    }
    with pytest.raises(DomainError, match="ratio takes a number"):
        benchmark_params(BENCHMARK, {"ratio": "half"})


def test_the_page_drops_a_value_of_another_kind_with_a_note():
    notes = []
    assert benchmark_params(BENCHMARK, {"processes": "-1"}, lenient=True, notes=notes) == {}
    assert notes == ["processes=-1 is not a value of processes: dropped"]


@pytest.mark.parametrize(
    ("form", "query", "field"),
    [
        (PricePerformanceForm, "benchmark=b&region=r&vcpus=٢", "vcpus"),
        (PricePerformanceForm, "benchmark=b&region=r&at=２０１７-12-13", "at"),
        (CommitmentCostForm, "instance_type=t&region=r&hours_per_month=٣", "hours_per_month"),
    ],
)
def test_a_form_refuses_a_number_not_in_ascii_digits(form, query, field):
    asked = form(QueryDict(query))
    assert not asked.is_valid()
    assert field in asked.error_dict()


@pytest.mark.django_db
@pytest.mark.parametrize("form", [UnitPricesForm, CommitmentCostForm, PricePerformanceForm])
def test_every_questions_region_takes_vendor_region(form):
    from benchmarks.models import Region

    Region.objects.get_or_create(vendor="hcloud", code="fsn1", defaults={"name": "Falkenstein"})
    asked = form(QueryDict("region=hcloud:fsn1&instance_type=cax11&benchmark=b"))
    assert asked.is_valid(), asked.errors
    assert asked.cleaned_data["region"] == "fsn1"
    wrong = form(QueryDict("region=azure:fsn1&instance_type=cax11&benchmark=b"))
    assert (
        not wrong.is_valid() and "unknown region of azure 'fsn1'" in wrong.error_dict()["region"][0]
    )
