"""The finder table's selector, on the demo: filters in SQL, prices of the region, per dollar
from the kept statistics, sorted by any column, in a fixed number of queries."""

from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import Price
from benchmarks.questions.finder import FinderQuery
from benchmarks.selectors.pages.finder import FinderRow, finder_table, next_sort, sort_rows
from tests.api.test_price_performance_at_scale import fleet

pytestmark = pytest.mark.django_db

ARM_SMALL = FinderQuery(
    architecture="arm64",
    vcpus_min=Decimal(2),
    vcpus_max=Decimal(4),
    burstable=False,
    benchmark="openssl:aes-256-cbc",
)


@pytest.mark.usefixtures("demo_rolled_back")
class TestOnTheDemo:
    def test_it_lists_only_the_types_matching_every_filter(self):
        table = finder_table(ARM_SMALL)
        assert table.rows
        for row in table.rows:
            assert row.architecture == "arm64"
            assert 2 <= row.vcpus <= 4
            assert row.burstable is False
        assert "c7g.xlarge" in {row.name for row in table.rows}
        assert not {"t4g.medium", "c7g.2xlarge", "c7a.xlarge"} & {row.name for row in table.rows}

    def test_with_a_benchmark_it_ranks_by_per_dollar_best_first_and_unmeasured_last(self):
        table = finder_table(ARM_SMALL)
        figures = [row.per_dollar for row in table.rows]
        measured = [figure for figure in figures if figure is not None]
        assert measured == sorted(measured, reverse=True)
        assert figures[: len(measured)] == measured  # the unmeasured after every measured row
        assert table.measured == len(measured) > 0
        assert table.benchmark.key == "openssl:aes-256-cbc"

    def test_its_per_dollar_is_the_price_performance_answers(self, client):
        table = finder_table(ARM_SMALL)
        row = next(row for row in table.rows if row.per_dollar is not None)
        answer = client.get(
            "/api/v1/price-performance/",
            {"benchmark": "openssl:aes-256-cbc", "region": "us-east-1", **table.params},
        ).json()
        [same] = [
            r for r in answer["results"] if r["instance_type"] == row.name and not r["variant"]
        ]
        assert same["per_dollar"] == pytest.approx(row.per_dollar)
        assert same["usd_per_hour"] == pytest.approx(row.usd_per_hour)

    def test_only_measured_leaves_out_the_types_without_results(self):
        table = finder_table(FinderQuery(**{**ARM_SMALL.__dict__, "measured": True}))
        assert table.rows and all(row.per_dollar is not None for row in table.rows)

    def test_prices_are_the_regions_and_month_and_year_follow_from_the_hour(self):
        row = next(r for r in finder_table(FinderQuery(families=("c7g",))).rows
                   if r.name == "c7g.xlarge")  # fmt: skip
        price = Price.objects.filter(
            instance_type__name="c7g.xlarge", region__code="us-east-1", purchase_option="on_demand"
        ).latest("effective_from")
        assert row.usd_per_hour == float(price.usd_per_hour)
        assert row.usd_per_month == pytest.approx(row.usd_per_hour * 730)
        assert row.usd_per_year == pytest.approx(row.usd_per_hour * 8760)

    def test_a_price_range_keeps_only_priced_types_within_it(self):
        table = finder_table(
            FinderQuery(usd_per_hour_min=Decimal("0.1"), usd_per_hour_max=Decimal("0.2"))
        )
        assert table.rows
        assert all(0.1 <= row.usd_per_hour <= 0.2 for row in table.rows)

    def test_families_and_cpu_model_filter_by_name(self):
        table = finder_table(FinderQuery(families=("c7g", "c7a"), cpu_model="neoverse"))
        assert table.rows and {row.family for row in table.rows} == {"c7g"}

    def test_without_a_benchmark_it_sorts_cheapest_first(self):
        table = finder_table(FinderQuery(families=("c7g",)))
        prices = [row.usd_per_hour for row in table.rows if row.usd_per_hour is not None]
        assert prices == sorted(prices) and table.benchmark is None

    def test_database_classes_are_not_listed(self):
        names = {row.name for row in finder_table(FinderQuery()).rows}
        assert not any(name.startswith("db.") for name in names)

    def test_an_unknown_benchmark_or_region_is_refused_with_the_closest_names(self):
        with pytest.raises(DomainError, match="did you mean openssl:aes-256-cbc"):
            finder_table(FinderQuery(benchmark="openssl:aes-256-cb"))
        with pytest.raises(DomainError, match="unknown region 'us-east-9'") as refused:
            finder_table(FinderQuery(region="us-east-9"))
        assert refused.value.field == "region"

    def test_parameters_without_a_benchmark_are_dropped_with_a_note(self):
        table = finder_table(FinderQuery(params={"block_size": "8192"}))
        assert table.notes == [
            "block_size=8192: a benchmark's parameters, dropped without a benchmark."
        ]

    def test_the_csv_filename_says_what_the_rows_are(self):
        table = finder_table(ARM_SMALL)
        assert table.csv_filename() == (
            "pricebench-instance-types-us-east-1-arm64-not-burstable-vcpus-2-4-"
            "openssl-aes-256-cbc.csv"
        )
        plain = finder_table(FinderQuery()).csv_filename()
        assert plain == "pricebench-instance-types-us-east-1.csv"

    def test_the_csv_rows_are_the_rows_shown_in_the_contracts_columns(self):
        table = finder_table(ARM_SMALL)
        header, *rows = table.csv_rows()
        assert header == ["name", "vcpus", "memory_gib", "architecture", "burstable",
                          "usd_per_hour", "per_dollar"]  # fmt: skip
        assert [row[0] for row in rows] == [row.name for row in table.rows]
        c7g = next(row for row in rows if row[0] == "c7g.xlarge")
        assert c7g[1:5] == ["4", "8", "arm64", "false"]


def _row(name, **values):
    fields = dict.fromkeys(FinderRow.__dataclass_fields__)
    fields.update(name=name, **values)
    return FinderRow(**fields)


def test_a_sort_puts_rows_without_a_value_last_in_both_directions():
    rows = [_row("a", usd_per_hour=0.2), _row("b", usd_per_hour=None), _row("c", usd_per_hour=0.1)]
    assert [row.name for row in sort_rows(rows, "usd_per_hour")] == ["c", "a", "b"]
    assert [row.name for row in sort_rows(rows, "-usd_per_hour")] == ["a", "c", "b"]


def test_a_header_click_flips_the_sort_and_a_new_column_starts_where_it_makes_sense():
    assert next_sort("-per_dollar", "per_dollar") == "per_dollar"
    assert next_sort("per_dollar", "per_dollar") == "-per_dollar"
    assert next_sort("-per_dollar", "usd_per_hour") == "usd_per_hour"
    assert next_sort("usd_per_hour", "vcpus") == "-vcpus"


@pytest.mark.parametrize("count", [10, 1000])
def test_it_answers_in_a_fixed_number_of_queries_whatever_the_number_of_types(
    count, django_assert_max_num_queries
):
    fleet(count)
    with django_assert_max_num_queries(9):
        table = finder_table(FinderQuery(benchmark="tool:x", sort="-per_dollar"))
    measured = [row for row in table.rows if row.per_dollar is not None]
    assert len(measured) == count
    assert measured[0].median == 1000 + count - 1  # the fastest at one price is the best


@pytest.mark.parametrize("count", [10, 1000])
def test_without_a_benchmark_it_reads_in_five_queries(count, django_assert_max_num_queries):
    fleet(count)
    with django_assert_max_num_queries(5):
        table = finder_table(FinderQuery(vcpus_min=Decimal(2), vcpus_max=Decimal(2)))
    assert sum(1 for row in table.rows if row.name.startswith("zz")) == count
