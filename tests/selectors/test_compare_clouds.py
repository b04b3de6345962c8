"""Compare across clouds: each type priced in its own vendor's region (the one asked, else
its cheapest), ranked by those prices; the sentence counts the types that share benchmarks."""

import datetime

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Price, Vendor
from benchmarks.questions.compare import CompareForm, CompareQuery
from benchmarks.selectors.compare_types.compare import compare_types
from tests.commands.test_hetzner_prices import measured  # noqa: F401 (a fixture)
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 10, 15)


@pytest.fixture
def clouds(measured):  # noqa: F811
    """c7g.large priced in us-east-1 (9,500 for $0.0725), Hetzner's types in six locations."""
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))


def regions_of(comparison) -> dict[str, tuple[str | None, bool]]:
    return {
        column.name: (column.region.code if column.region else None, column.cheapest)
        for column in comparison.columns
    }


def test_another_clouds_type_is_priced_in_its_cheapest_region_not_in_the_aws_one(clouds):
    comparison = compare_types(
        CompareQuery(types=("c7g.large", "cax11"), baseline="c7g.large", at=DAY)
    )
    places = regions_of(comparison)
    assert places["c7g.large"] == ("us-east-1", False)
    code, cheapest = places["cax11"]
    assert cheapest
    lowest = min(
        Price.objects.filter(instance_type__name="cax11").values_list("usd_per_hour", flat=True)
    )
    cax11 = comparison.columns[1]
    assert cax11.usd_per_hour == float(lowest)
    assert Price.objects.filter(
        instance_type__name="cax11", region__code=code, usd_per_hour=lowest
    ).exists()
    # Ranked by those prices: cax11's 6,000 for about half a US cent buys far more than
    # c7g.large's 9,500 for 7.25 cents.
    [line] = [group.main for group in comparison.benchmarks]
    assert line.best_per_dollar == "cax11"
    assert line.cells[1].relative_per_dollar > 5
    assert "cax11 buys the most per dollar on 1" in comparison.summary
    # Its chart page asks the same: each vendor's types in the region compare priced them in.
    [group] = comparison.benchmarks
    assert f"regions=aws%3Aus-east-1%2Chcloud%3A{code}&" in group.chart_url


def test_the_region_asked_for_a_vendor_prices_its_types(clouds):
    comparison = compare_types(
        CompareQuery(
            types=("c7g.large", "cax11", "cx22"),
            baseline="c7g.large",
            at=DAY,
            regions=(("hcloud", "hel1"),),
        )
    )
    assert regions_of(comparison) == {
        "c7g.large": ("us-east-1", False),
        "cax11": ("hel1", False),
        "cx22": ("hel1", False),
    }
    cheapest_aws = compare_types(
        CompareQuery(
            types=("c7g.large", "cax11"),
            baseline="c7g.large",
            at=DAY,
            regions=(("aws", "cheapest"), ("hcloud", "fsn1")),
        )
    )
    # c7g.large has one price, in us-east-1: its cheapest.
    assert regions_of(cheapest_aws) == {"c7g.large": ("us-east-1", True), "cax11": ("fsn1", False)}


def test_a_region_its_vendor_does_not_have_is_refused_by_name(clouds):
    with pytest.raises(DomainError, match="hcloud") as refused:
        compare_types(
            CompareQuery(
                types=("c7g.large", "cax11"),
                baseline="c7g.large",
                at=DAY,
                regions=(("hcloud", "us-east-1"),),
            )  # fmt: skip
        )
    assert refused.value.field == "regions"


def test_a_type_no_region_prices_says_so(clouds):
    comparison = compare_types(
        CompareQuery(
            types=("c7g.large", "cax11"), baseline="c7g.large", at=DAY, purchase_option="spot"
        )  # fmt: skip
    )
    assert regions_of(comparison)["cax11"] == (None, True)
    assert comparison.columns[1].usd_per_hour is None
    assert comparison.summary.endswith(
        "none of them has a spot price in the regions asked or, for a vendor not asked, in "
        'any (see "Priced in").'
    )
    only_asked = compare_types(
        CompareQuery(
            types=("c7g.large", "cax11"),
            baseline="c7g.large",
            at=DAY,
            purchase_option="spot",
            regions=(("hcloud", "fsn1"),),
        )  # fmt: skip
    )
    assert only_asked.summary.endswith(
        'none of them has a spot price in the regions asked (see "Priced in").'
    )


def test_the_sentence_names_a_type_no_region_prices(clouds):
    InstanceType.objects.create(vendor=Vendor.HCLOUD, name="cx99", kind="vm", vcpus=2)
    run_with("cx99", [8000.0], key="passmark:cpu-mark", region=None)
    comparison = compare_types(
        CompareQuery(types=("c7g.large", "cx99", "cax11"), baseline="c7g.large", at=DAY)
    )
    assert regions_of(comparison)["cx99"] == (None, True)
    assert comparison.summary.startswith(
        "On the 1 benchmark all 3 types share, cax11 buys the most per dollar on 1"
    )
    assert comparison.summary.endswith(
        " cx99 has no on-demand price in any region: not ranked per dollar."
    )
    # A type not priced in the region asked for its vendor is said apart.
    elsewhere = compare_types(
        CompareQuery(
            types=("c7g.large", "cx99", "cax11"), baseline="c7g.large", at=DAY, region="eu-west-1"
        )  # fmt: skip
    )
    assert elsewhere.summary.endswith(
        " cx99 has no on-demand price in any region: not ranked per dollar. c7g.large has no "
        'on-demand price in the region asked ("Priced in"): not ranked per dollar.'
    )


def test_the_sentence_counts_the_types_that_share_benchmarks(clouds):
    comparison = compare_types(
        CompareQuery(
            types=("c7g.large", "cax11", "fargate-16vcpu-120gb"), baseline="c7g.large", at=DAY
        )  # fmt: skip
    )
    assert len(comparison.benchmarks) == 1
    assert "share no benchmark" not in comparison.summary
    assert comparison.summary.startswith(
        "fargate-16vcpu-120gb has no result on a benchmark the others share; on the 1 "
        "benchmark c7g.large and cax11 share, cax11 buys the most per dollar on 1"
    )


@pytest.mark.parametrize(
    "regions, message",
    [
        ("hcloud", "write each region as vendor:region"),
        ("nope:fsn1", "write each region as vendor:region"),
        ("hcloud:fsn1,hcloud:nbg1", "one region per vendor"),
    ],
)
def test_the_form_refuses_a_region_list_it_cannot_read(regions, message):
    form = CompareForm({"types": "c7g.large,cax11", "regions": regions})
    assert not form.is_valid()
    assert message in form.errors["regions"][0]


def test_the_form_takes_one_region_per_vendor_menu():
    from django.http import QueryDict

    data = QueryDict("types=c7g.large,cax11&regions=aws:us-east-1&regions=hcloud:cheapest")
    form = CompareForm(data)
    assert form.is_valid(), form.errors
    assert form.query().regions == (("aws", "us-east-1"), ("hcloud", "cheapest"))
