"""benchmarks/questions: each question's validation, defaults and notes, without a request."""

import datetime
from types import SimpleNamespace

import pytest
from django.http import QueryDict

from benchmarks.errors import DomainError
from benchmarks.questions.parameters import benchmark_params, coerce_param
from benchmarks.questions.price_performance import (
    PricePerformanceForm,
    PricePerformanceQuery,
    lenient_query,
)
from benchmarks.questions.volumes import Gp2BurstForm, VolumeCostForm
from benchmarks.storage import gp2

SHA = SimpleNamespace(
    key="openssl:sha256",
    params={"block_size": [16, 8192], "processes": [1, 2]},
    families=["c7g", "t2"],
)


def test_a_benchmark_parameter_is_read_as_the_value_results_store():
    assert coerce_param("8192") == 8192
    assert coerce_param("0.5") == 0.5
    assert coerce_param("gcm") == "gcm"
    assert benchmark_params(SHA, {"block_size": "8192"}) == {"block_size": 8192}


def test_an_unknown_parameter_is_refused_naming_the_benchmarks_own():
    with pytest.raises(DomainError) as refused:
        benchmark_params(SHA, {"threads": "4"})
    assert refused.value.field == "threads"
    assert "block_size, processes" in refused.value.message


def test_the_page_drops_an_unknown_parameter_with_a_note():
    notes = []
    assert benchmark_params(SHA, {"threads": "4"}, lenient=True, notes=notes) == {}
    assert notes == ["threads=4 does not apply to openssl:sha256 and was dropped"]


def test_the_form_takes_every_other_query_parameter_as_the_benchmarks():
    form = PricePerformanceForm(
        QueryDict("benchmark=openssl:sha256&region=us-east-1&block_size=8192&format=csv")
    )
    assert form.is_valid(), form.errors
    query = form.query()
    assert query.params == {"block_size": "8192"}
    assert query.purchase_option == "on_demand" and query.at is None


def test_the_form_names_a_bad_date_as_the_api_answers_it():
    form = PricePerformanceForm(QueryDict("benchmark=b&region=r&at=June"))
    assert not form.is_valid()
    assert form.error_dict() == {"at": ["Date has wrong format. Use YYYY-MM-DD."]}


def test_a_lenient_question_drops_what_cannot_apply_and_says_so():
    query = PricePerformanceQuery(
        benchmark="openssl:sha256",
        region="eu-west-9",
        purchase_option="spot",
        params={"block_size": "64", "threads": "2", "processes": "1"},
        families=("c7i",),
        at=datetime.date(2024, 1, 1),
    )
    notes = []
    menu = {"us-east-1": ["on_demand"], "ap-northeast-1": ["on_demand", "spot"]}
    asked = lenient_query(query, SHA, menu, notes)
    assert asked.region == "us-east-1"
    assert asked.purchase_option == "on_demand"
    assert asked.params == {"processes": "1"}
    assert asked.families == ()
    assert notes == [
        "No prices are known in eu-west-9: prices of us-east-1 are shown.",
        "No spot prices are known in us-east-1: on_demand prices are shown.",
        "threads=2 does not apply to openssl:sha256: dropped.",
        "openssl:sha256 was not measured with block_size=64: the best-covered value is shown "
        "instead.",
        "None of c7i has results for openssl:sha256: every family measured is shown.",
    ]


def test_a_volume_aws_would_refuse_is_a_field_error():
    form = VolumeCostForm(QueryDict("region=us-east-1&volume_type=io1&size_gb=10&iops=1000"))
    assert not form.is_valid()
    assert list(form.error_dict()) == ["iops"]
    assert "at most 500 IOPS" in form.error_dict()["iops"][0]


def test_the_volume_cost_question_in_the_selectors_words():
    form = VolumeCostForm(QueryDict("region=us-east-1&volume_type=gp3&size_gb=100&iops="))
    assert form.is_valid(), form.errors
    assert form.selector_arguments() == {
        "region_code": "us-east-1",
        "volume_type": "gp3",
        "size_gb": 100,
        "iops": None,
        "throughput": None,
        "at": None,
    }


def test_the_gp2_question_has_the_models_defaults():
    form = Gp2BurstForm(QueryDict("size_gb=100"))
    assert form.is_valid(), form.errors
    assert form.selector_arguments() == {
        "size_gb": 100,
        "iops": gp2.DEFAULT_LOAD_IOPS,
        "seconds": gp2.DEFAULT_SECONDS,
    }
    refused = Gp2BurstForm(QueryDict("size_gb=x"))
    assert not refused.is_valid()
    assert refused.error_dict() == {"size_gb": ["A valid integer is required."]}


def test_a_profiles_question_carries_the_benchmark_questions_options_it_does_not_take():
    from benchmarks.questions.profiles import CARRIED_FOR_BENCHMARKS, ProfileForm

    # Every option of a benchmark's question a profile's has no field for, kept for the next
    # benchmark chosen; not the benchmark, its baseline row, nor the API's `include`.
    assert set(CARRIED_FOR_BENCHMARKS) == {
        "currency", "busy", "verified", "price_dates", "order", "vcpus", "memory_gib",
        "measured_in", "vendor", "regions",
    }  # fmt: skip
    assert not set(CARRIED_FOR_BENCHMARKS) & set(ProfileForm.base_fields)
