"""benchmarks/questions/unit_prices.py: the unit-prices question's validation and defaults,
without a request or a database."""

import datetime

import pytest
from django.http import QueryDict

from benchmarks.questions.unit_prices import UnitPricesForm, UnitPricesQuery


def form(query: str) -> UnitPricesForm:
    return UnitPricesForm(QueryDict(query))


def test_only_the_region_is_required_and_the_five_are_the_default_families():
    asked = form("region=us-east-1")
    assert asked.is_valid(), asked.errors
    assert asked.selector_arguments() == {
        "query": UnitPricesQuery(
            region="us-east-1",
            families=("fargate", "t2", "c7g", "c7a", "c7i"),
            purchase_option="on_demand",
            at=None,
        )
    }


def test_families_are_read_as_a_list_in_lower_case_without_repeats():
    asked = form(
        "region=us-east-1&families=C7g, fargate,,c7g,u-6tb1&purchase_option=spot&at=2017-12-13"
    )
    assert asked.is_valid(), asked.errors
    query = asked.query()
    assert query.families == ("c7g", "fargate", "u-6tb1")
    assert (query.purchase_option, query.at) == ("spot", datetime.date(2017, 12, 13))


def test_an_empty_families_parameter_means_the_five():
    asked = form("region=us-east-1&families=")
    assert asked.is_valid() and asked.query().families == ("fargate", "t2", "c7g", "c7a", "c7i")


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("", "region", "This field is required."),
        ("region=us-east-1&families=c7g.large", "families", "'c7g.large': not a family name"),
        ("region=us-east-1&families=c7g;drop", "families", "not a family name"),
        (
            "region=us-east-1&families=" + ",".join(f"f{n}" for n in range(21)),
            "families",
            "at most 20 families",
        ),
        ("region=us-east-1&purchase_option=reserved_1yr_no_upfront", "purchase_option",
         "reserved_1yr_no_upfront is not a valid choice."),
        ("region=us-east-1&at=2017-13-01", "at", "Date has wrong format. Use YYYY-MM-DD."),
    ],
)  # fmt: skip
def test_a_bad_question_names_its_field(query, field, message):
    asked = form(query)
    assert not asked.is_valid()
    assert message in " ".join(asked.error_dict()[field])
