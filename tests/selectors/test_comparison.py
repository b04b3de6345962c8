"""The comparison page's selector: lenient choices with notes, menus, frontier, sources."""

import datetime
from types import SimpleNamespace

import pytest

from benchmarks import palette
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.pages.comparison import (
    DEFAULT_FAMILIES,
    comparison,
    frontier_keys,
    source_groups,
)
from tests.selectors.test_price_performance import price, run_with

pytestmark = pytest.mark.django_db

JAN = datetime.date(2024, 1, 1)


def ask(benchmark="openssl:sha256", region="us-east-1", **options) -> object:
    return comparison(PricePerformanceQuery(benchmark=benchmark, region=region, **options))


def some_results():
    for name, usd in (("c7g.large", "0.0725"), ("c7a.large", "0.1027"), ("t2.nano", "0.0058")):
        price(name, usd, JAN)
    run_with("c7g.large", [200.0], params={"block_size": 8192})
    run_with("c7a.large", [300.0], params={"block_size": 8192})
    run_with("t2.nano", [50.0], params={"block_size": 8192})


def test_it_drops_another_benchmarks_parameters_and_says_so():
    some_results()
    result = ask(params={"block_size": "8192", "threads": "4"})
    assert result.error is None
    assert result.table.params == {"block_size": 8192}
    assert "threads=4 does not apply to openssl:sha256: dropped." in result.notes
    assert "threads" not in result.resolved and result.resolved["block_size"] == "8192"


def test_it_shows_the_best_covered_value_for_one_never_measured():
    some_results()
    result = ask(params={"block_size": "16"})
    assert result.table.params.get("block_size") in (None, 8192)
    assert len(result.table.results) == 3
    assert any("was not measured with block_size=16" in note for note in result.notes)


def test_a_region_or_purchase_option_without_prices_falls_back_with_a_note():
    some_results()
    result = ask(region="eu-west-3", purchase_option="spot")
    assert result.table.region.code == "us-east-1"
    assert result.table.purchase_option == "on_demand"
    assert result.notes[:2] == [
        "No prices are known in eu-west-3: prices of us-east-1 are shown.",
        "No spot prices are known in us-east-1: on_demand prices are shown.",
    ]
    # The menus offer only what has prices.
    assert result.regions == ["us-east-1"]
    assert result.purchase_options == ["on_demand"]


def test_the_default_names_the_families_without_results_and_where_they_were_measured():
    some_results()
    price("fargate-1vcpu-2gb", "0.04", JAN)
    run_with("fargate-1vcpu-2gb", [100.0], key="openssl:aes-128-gcm")
    result = ask(benchmark="", region="", families=DEFAULT_FAMILIES)
    assert result.table.benchmark.key == "openssl:sha256"
    assert [(m.family, m.elsewhere) for m in result.missing] == [
        ("fargate", "openssl:aes-128-gcm"),
        ("c7i", None),
    ]


def test_sources_naming_each_instance_type_are_grouped_with_counts():
    source = "Spare Cores, aws/{name}; measured by sc-inspector"
    rows = [
        SimpleNamespace(
            instance_type=name, sources=[[source.format(name=name), "CC BY-SA 4.0", runs]]
        )
        for name, runs in (("c7g.large", 2), ("c7a.large", 1), ("c7i.large", 3))
    ]
    rows.append(SimpleNamespace(instance_type="t2.nano", sources=[["a blog, 2017", "", 1]]))
    groups = source_groups(rows)
    assert [(g.text, g.licence, g.runs, g.instance_types) for g in groups] == [
        ("Spare Cores, aws/{instance type}; measured by sc-inspector", "CC BY-SA 4.0", 6, 3),
        ("a blog, 2017", "", 1, 1),
    ]


def test_the_colours_are_distinct_for_the_default_families():
    colours = [palette.family_colour(family) for family in DEFAULT_FAMILIES]
    assert len(set(colours)) == len(colours)
    assert palette.family_colour("m6i") == palette.family_colour("m6i")


@pytest.mark.parametrize("types", [3, 60])
def test_it_answers_in_a_fixed_number_of_queries(django_assert_max_num_queries, types):
    for index in range(types):
        name = f"c7g.{index}xlarge"
        price(name, "0.1", JAN)
        run_with(name, [float(index + 1)], params={"block_size": 8192})
    with django_assert_max_num_queries(10):
        result = ask(params={"block_size": "8192"})
    assert len(result.table.results) == types


def test_the_frontier_holds_the_types_no_other_beats_on_price_and_performance():
    row = lambda key, usd, median: SimpleNamespace(key=key, usd_per_hour=usd, basis_figure=median)  # noqa: E731
    rows = [
        row("cheap-slow", 0.01, 10.0),
        row("mid-fast", 0.05, 100.0),
        row("dear-slower", 0.10, 90.0),
        row("dear-fastest", 0.20, 150.0),
        row("twin-of-mid", 0.05, 100.0),
        row("unpriced", None, 1000.0),
    ]
    assert frontier_keys(rows, higher_is_better=True) == {
        "cheap-slow",
        "mid-fast",
        "twin-of-mid",
        "dear-fastest",
    }
    # Seconds per job: the fastest is the smallest figure.
    assert frontier_keys(rows, higher_is_better=False) == {"cheap-slow"}
