"""Price-performance: prices in force, fallbacks, medians, per-dollar and baselines."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Result, Run
from benchmarks.questions.parameters import benchmark_params
from benchmarks.questions.price_performance import PricePerformanceQuery
from benchmarks.selectors.answer.kept_series import exact_params_key
from benchmarks.selectors.answer.price_performance import price_performance_table
from benchmarks.selectors.pages.comparison import DEFAULT_FAMILIES, comparison
from benchmarks.services import statistics

pytestmark = pytest.mark.django_db

DAY = datetime.date(2024, 6, 1)


def make_type(name: str, **fields) -> InstanceType:
    return InstanceType.objects.get_or_create(name=name, defaults=fields)[0]


def price(name, usd, start, end=None, *, region="us-east-1", option="on_demand", zone=""):
    return Price.objects.create(
        instance_type=make_type(name),
        region=Region.objects.get(code=region),
        purchase_option=option,
        availability_zone=zone,
        usd_per_hour=Decimal(usd),
        effective_from=start,
        effective_to=end,
        source="test",
    )


def run_with(
    name,
    values,
    *,
    key="openssl:sha256",
    params=None,
    cpu="",
    variant="",
    hib=True,
    region="us-east-1",
):
    """A done run with these results, its statistics kept as ingest keeps them."""
    benchmark, _ = Benchmark.objects.get_or_create(
        key=key, defaults={"unit": "B/s", "higher_is_better": hib}
    )
    run = Run.objects.create(
        instance_type=make_type(name),
        region=Region.objects.get(code=region) if region else None,
        variant=variant,
        cpu_model=cpu,
        status=Run.Status.DONE,
    )
    results = [
        Result(run=run, benchmark=benchmark, params=params or {}, value=value) for value in values
    ]
    statistics.attach_series(results)
    Result.objects.bulk_create(results)
    statistics.refresh_series({result.series_id for result in results})
    return run


def answer(benchmark_key, region_code, **options):
    query_fields = {
        "params",
        "purchase_option",
        "at",
        "baseline",
        "families",
        "measured_in",
        "basis",
        "price_dates",
        "term",
        "payment",
        "offering_class",
        "plan",
        "spot_zone",
    }
    query = PricePerformanceQuery(
        benchmark=benchmark_key,
        region=region_code,
        **{name: value for name, value in options.items() if name in query_fields},
    )
    return price_performance_table(query)


def test_it_divides_the_median_by_the_price_in_force():
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    run_with("c7g.large", [100.0], cpu="Neoverse-V1")
    run_with("c7g.large", [300.0], cpu="Neoverse-V1")
    run_with("c7g.large", [200.0], cpu="Neoverse-V1")
    table = answer("openssl:sha256", "us-east-1", at=DAY)
    [row] = table.results
    assert (row.runs, row.median, row.min, row.max) == (3, 200.0, 100.0, 300.0)
    assert row.cpu_models == {"Neoverse-V1": 3}
    assert row.usd_per_hour == pytest.approx(0.0725)
    assert row.per_dollar == pytest.approx(200.0 * 3600 / 0.0725)
    assert row.price_note is None


def test_it_keeps_the_history_and_picks_the_period_of_the_day():
    price("m5.large", "0.107", datetime.date(2019, 1, 1), datetime.date(2023, 12, 31))
    price("m5.large", "0.096", datetime.date(2024, 1, 1))
    run_with("m5.large", [10.0])
    old = answer("openssl:sha256", "us-east-1", at=datetime.date(2020, 5, 1))
    new = answer("openssl:sha256", "us-east-1", at=DAY)
    assert old.results[0].usd_per_hour == pytest.approx(0.107)
    assert new.results[0].usd_per_hour == pytest.approx(0.096)


def test_it_falls_back_to_the_earliest_price_and_says_so():
    price("t2.nano", "0.0058", datetime.date(2026, 7, 20))
    run_with("t2.nano", [5.0])
    table = answer("openssl:sha256", "us-east-1", at=datetime.date(2017, 12, 13))
    row = table.results[0]
    assert row.usd_per_hour == pytest.approx(0.0058)
    assert "no price in force on 2017-12-13" in row.price_note
    assert "earliest price known" in row.price_note


def test_it_never_invents_a_price():
    run_with("c5.large", [5.0])
    table = answer("openssl:sha256", "us-east-1", at=DAY)
    assert table.results == []
    [unpriced] = table.unpriced
    assert (unpriced.instance_type, unpriced.runs, unpriced.median) == ("c5.large", 1, 5.0)
    assert "no on_demand price known for c5.large" in unpriced.reason


def test_spot_uses_the_median_of_the_zones_in_force_or_the_cheapest_named():
    price("c5.large", "0.041", datetime.date(2024, 1, 1), option="spot", zone="use1-az1")
    price("c5.large", "0.035", datetime.date(2024, 1, 1), option="spot", zone="use1-az4")
    price(
        "c5.large",
        "0.020",
        datetime.date(2023, 1, 1),
        datetime.date(2023, 2, 1),
        option="spot",
        zone="use1-az6",
    )
    run_with("c5.large", [5.0])
    row = answer("openssl:sha256", "us-east-1", purchase_option="spot", at=DAY).results[0]
    assert row.usd_per_hour == pytest.approx(0.038)
    # The zone whose period ended long before is not counted.
    assert row.price_note == "median of 2 availability zones"
    cheapest = answer(
        "openssl:sha256", "us-east-1", purchase_option="spot", spot_zone="cheapest", at=DAY
    ).results[0]
    assert cheapest.usd_per_hour == pytest.approx(0.035)
    assert cheapest.price_note == "cheapest of 2 availability zones: use1-az4"


def test_fargate_prices_come_from_the_rates_of_the_day():
    region = Region.objects.get(code="us-east-1")
    for component, usd, start, end in [
        ("vcpu", "0.0506", datetime.date(2017, 11, 29), datetime.date(2019, 1, 6)),
        ("memory_gb", "0.0127", datetime.date(2017, 11, 29), datetime.date(2019, 1, 6)),
        ("vcpu", "0.04048", datetime.date(2019, 1, 7), None),
        ("memory_gb", "0.004445", datetime.date(2019, 1, 7), None),
    ]:
        FargateRate.objects.create(
            region=region,
            architecture="x86_64",
            component=component,
            usd_per_unit_hour=Decimal(usd),
            effective_from=start,
            effective_to=end,
            source="test",
        )
    run_with("fargate-0.25vcpu-0.5gb", [1.0])
    run_with("fargate-1vcpu-2gb", [1.0])
    launch = answer("openssl:sha256", "us-east-1", at=datetime.date(2017, 12, 13))
    prices = {row.instance_type: row.usd_per_hour for row in launch.results}
    assert prices["fargate-0.25vcpu-0.5gb"] == pytest.approx(0.019)
    today = answer("openssl:sha256", "us-east-1", at=DAY)
    prices = {row.instance_type: row.usd_per_hour for row in today.results}
    assert prices["fargate-1vcpu-2gb"] == pytest.approx(0.04937)


def test_lower_is_better_is_priced_as_jobs_per_dollar():
    price("c7a.large", "0.1", datetime.date(2024, 1, 1))
    run_with("c7a.large", [30.0], key="build:kernel", hib=False)
    row = answer("build:kernel", "us-east-1", at=DAY).results[0]
    assert row.per_dollar == pytest.approx(3600 / (30.0 * 0.1))


def test_the_baseline_gives_ratios_of_throughput_cost_and_per_dollar():
    price("c7a.xlarge", "0.2584", datetime.date(2024, 1, 1))
    price("c7g.xlarge", "0.1819", datetime.date(2024, 1, 1))
    run_with("c7a.xlarge", [100.0], key="keycloak:oauth2-login", variant="base")
    run_with("c7g.xlarge", [97.0], key="keycloak:oauth2-login", variant="accp")
    table = answer(
        "keycloak:oauth2-login",
        "us-east-1",
        at=DAY,
        baseline="c7a.xlarge:base",
    )
    row = next(row for row in table.results if row.instance_type == "c7g.xlarge")
    assert row.relative_throughput == 0.97
    assert row.relative_cost == 0.704
    assert row.relative_per_dollar == 1.378


def test_it_refuses_to_mix_parameters_in_one_row():
    price("c5.large", "0.085", datetime.date(2024, 1, 1))
    run_with("c5.large", [1.0], params={"block_size": 16, "processes": 1})
    run_with("c5.large", [9.0], params={"block_size": 8192, "processes": 1})
    with pytest.raises(DomainError, match="several values of block_size"):
        answer("openssl:sha256", "us-east-1", at=DAY)
    table = answer(
        "openssl:sha256",
        "us-east-1",
        at=DAY,
        params={"block_size": "8192"},
    )
    assert table.results[0].median == 9.0


@pytest.mark.parametrize(
    ("given", "exact", "medians"),
    [
        # Every parameter named: the series' key, read from the statistics' own index.
        ({"block_size": "8192", "processes": "1"}, True, {"c5.large": 9.0, "m5.large": 4.0}),
        # A number written as a float finds the series measured with the integer, as a
        # comparison of JSON values does.
        ({"block_size": "8192.0", "processes": "1"}, True, {"c5.large": 9.0, "m5.large": 4.0}),
        ({"block_size": "16", "processes": "1"}, True, {"c5.large": 1.0}),
        # A value nobody measured: no row, whichever way the series are found.
        ({"block_size": "4096", "processes": "1"}, False, {}),
    ],
)
def test_a_question_naming_every_parameter_finds_the_series_it_names(given, exact, medians):
    """The exact key and the comparison of values answer alike (kept_series.exact_params_key)."""
    for name in ("c5.large", "m5.large"):
        price(name, "0.085", datetime.date(2024, 1, 1))
    run_with("c5.large", [1.0], params={"block_size": 16, "processes": 1})
    run_with("c5.large", [9.0], params={"block_size": 8192, "processes": 1})
    run_with("m5.large", [4.0], params={"block_size": 8192, "processes": 1})
    # Not among them: a series without `processes`.
    run_with("m5.large", [7.0], params={"block_size": 8192})
    benchmark = Benchmark.objects.get(key="openssl:sha256")
    key = exact_params_key(benchmark, benchmark_params(benchmark, given))
    assert (key is not None) == exact
    table = answer("openssl:sha256", "us-east-1", at=DAY, params=given)
    assert {row.instance_type: row.median for row in table.results} == medians


def test_it_names_unknown_benchmarks_regions_and_parameters():
    run_with("c5.large", [1.0], params={"block_size": 16})
    with pytest.raises(DomainError, match="unknown benchmark"):
        answer("nope:x", "us-east-1")
    with pytest.raises(DomainError, match="unknown region 'us-east-9'"):
        answer("openssl:sha256", "us-east-9")
    with pytest.raises(DomainError, match="unknown parameter 'blocksize'"):
        answer("openssl:sha256", "us-east-1", params={"blocksize": "16"})


def test_the_comparison_pins_open_parameters_to_the_best_covered_value():
    for name in ("c7g.large", "c7a.large", "t2.nano", "c5.large"):
        price(name, "0.1", datetime.date(2024, 1, 1))
    for name in ("c7g.large", "c7a.large", "t2.nano"):
        run_with(name, [1.0], params={"block_size": 16})
        run_with(name, [2.0], params={"block_size": 8192})
    run_with("c5.large", [3.0], params={"block_size": 64})
    result = comparison(
        PricePerformanceQuery(benchmark="", region="us-east-1", families=DEFAULT_FAMILIES)
    )
    assert result.table.params == {"block_size": 8192}
    assert {row.family for row in result.table.results} == {"c7g", "c7a", "t2"}
    assert result.families_missing == ["fargate", "c7i"]


def test_burstable_types_also_show_work_per_dollar_once_credits_are_spent():
    make_type("t2.nano", vcpus=1, burstable=True, baseline_share=Decimal("0.05"))
    make_type("t2.medium", vcpus=2, burstable=True, baseline_share=Decimal("0.20"))
    price("t2.nano", "0.0058", datetime.date(2024, 1, 1))
    price("t2.medium", "0.0464", datetime.date(2024, 1, 1))
    run_with("t2.nano", [100.0], params={"processes": 1})
    run_with("t2.medium", [100.0], params={"processes": 1})
    rows = {row.instance_type: row for row in answer("openssl:sha256", "us-east-1", at=DAY).results}
    nano, medium = rows["t2.nano"], rows["t2.medium"]
    assert nano.sustained_per_dollar == pytest.approx(nano.burst_per_dollar * 0.05)
    # One process on two vCPUs gets the pooled baseline: 2 x 20% of one vCPU.
    assert medium.sustained_per_dollar == pytest.approx(medium.burst_per_dollar * 0.40)
    # Ranked by what they sustain, unless asked otherwise.
    assert nano.per_dollar == nano.sustained_per_dollar


@pytest.mark.parametrize(
    "asked",
    [{"instance_types": ("c5.large",)}, {"families": ("c5",)}, {"vcpus": 2}],
    ids=["types", "families", "shape"],
)
def test_a_question_narrowed_to_some_types_finds_them_through_the_series(asked):
    """The statistics' own copy of the type has no index; the series' has. A question naming
    a few types (an instance-type page's similar types) filtered on the copy read every row
    of the peer group at 10M (1,386 rows, 36 ms, instead of 140 and 2): it filters on the
    series' type, and answers the same."""
    from benchmarks.selectors.answer.kept_series import statistics_in_scope

    for name in ("c5.large", "m5.large"):
        price(name, "0.085", datetime.date(2024, 1, 1))
        InstanceType.objects.filter(name=name).update(vcpus=2 if name == "c5.large" else 4)
    run_with("c5.large", [1.0], params={"block_size": 16})
    run_with("m5.large", [4.0], params={"block_size": 16})
    benchmark = Benchmark.objects.get(key="openssl:sha256")
    query = PricePerformanceQuery(benchmark=benchmark.key, region="us-east-1", at=DAY, **asked)
    sql = str(statistics_in_scope(benchmark, query, {"block_size": 16}).query)
    assert '"benchmarks_series"."instance_type_id" IN' in sql, sql
    table = price_performance_table(query)
    assert [row.instance_type for row in table.results] == ["c5.large"]


@pytest.mark.parametrize("measured_in", ["", "eu-west-1"], ids=["all regions", "one region"])
def test_a_question_reads_its_kept_rows_from_an_index_alone(measured_in):
    """At 10M results a peer group's rows lie one to a heap page (written at their runs'
    times): the first question after a restart read 1,232 pages (22 ms). `statistics_peer_rows`
    holds every column the question reads of them, so PostgreSQL answers from the index."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        pytest.skip("a covering index is PostgreSQL's")
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    for region in ("us-east-1", "eu-west-1"):
        run_with("c7g.large", [1.0, 2.0], params={"block_size": 16}, region=region)
    with CaptureQueriesContext(connection) as captured:
        table = answer(
            "openssl:sha256",
            "us-east-1",
            params={"block_size": 16},
            measured_in=measured_in or None,
        )
    assert [row.instance_type for row in table.results] == ["c7g.large"]
    (kept,) = [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"].startswith('SELECT "benchmarks_seriesstatistics"."id"')
    ]
    with connection.cursor() as cursor:
        # With a handful of rows a sequential scan is cheaper: only the index's own paths
        # are left to the planner, and one of those is index-only if the index covers.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        # Rows just written are not yet all-visible (no vacuum in a test's transaction), so an
        # index-only scan costs what an index scan does and the planner may take the narrow
        # index of the same key: out of the way (until the test's rollback), the covering one
        # is asked whether it holds every column read.
        cursor.execute("DROP INDEX statistics_peers")
        cursor.execute("EXPLAIN " + kept)
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert "Index Only Scan using statistics_peer_rows on benchmarks_seriesstatistics" in plan, plan


def test_the_machines_a_question_read_are_kept_for_the_window_and_a_new_type_read_apart(settings):
    """Within the freshness window a question reads its series' type ids only, and their
    machines from what the questions before read; a type new to the window costs one query,
    and a write in this process (an ingest, a spec import) is seen at once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks import freshness

    settings.PRICEBENCH_FRESHNESS_SECONDS = 60
    fleet = (("c7g.large", 300.0, 2), ("c7a.large", 200.0, 2), ("t2.nano", 9.0, 1))
    for name, value, vcpus in fleet:
        make_type(name, vcpus=vcpus)
        price(name, "0.07", DAY)
        run_with(name, [value])

    def rows(**options):
        with CaptureQueriesContext(connection) as captured:
            table = answer("openssl:sha256", "us-east-1", **options)
        machines = sum('"benchmarks_instancetype"."vcpus"' in query["sql"] for query in captured)
        return {row.instance_type: row.vcpus for row in table.results}, machines

    assert rows(families=("c7g", "c7a")) == ({"c7g.large": 2.0, "c7a.large": 2.0}, 1)
    # Another process changes a spec: unseen within the window, no machine column read.
    InstanceType.objects.filter(name="c7a.large").update(vcpus=4)
    assert rows(families=("c7g", "c7a")) == ({"c7g.large": 2.0, "c7a.large": 2.0}, 0)
    # A type the window has not seen: its machine alone is read.
    assert rows() == ({"c7g.large": 2.0, "c7a.large": 2.0, "t2.nano": 1.0}, 1)
    assert rows()[1] == 0
    # A write in this process forgets what was kept.
    freshness.data_changed()
    assert rows() == ({"c7g.large": 2.0, "c7a.large": 4.0, "t2.nano": 1.0}, 1)


def test_what_a_question_read_is_kept_past_the_window_while_its_regions_stamp_stays(
    settings, monkeypatch
):
    """The machines and the region's price list a question read are not read again each
    window while the region's stamp (its prices', and every type's specifications') stays
    the same; once another process moves it, the next window reads them again."""
    import time

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from benchmarks.selectors.costs import prices

    settings.PRICEBENCH_FRESHNESS_SECONDS = 1
    # Every question reads the region's whole price list, as one of a thousand types does.
    monkeypatch.setattr(prices, "MANY_TYPES", 1)
    for name, value in (("c7g.large", 300.0), ("c7a.large", 200.0)):
        make_type(name, vcpus=2)
        price(name, "0.07", DAY)
        run_with(name, [value])
    Region.objects.update(prices_updated_at=timezone.now())

    def rows():
        with CaptureQueriesContext(connection) as captured:
            table = answer("openssl:sha256", "us-east-1")
        reads = [query["sql"] for query in captured]
        machines = sum('"benchmarks_instancetype"."vcpus"' in sql for sql in reads)
        price_lists = sum('FROM "benchmarks_price"' in sql for sql in reads)
        figures = {row.instance_type: (row.vcpus, row.usd_per_hour) for row in table.results}
        return figures, machines, price_lists

    first = {"c7g.large": (2.0, 0.07), "c7a.large": (2.0, 0.07)}
    assert rows() == (first, 1, 1)
    time.sleep(1.1)
    # Past the window, the stamp read again and unchanged: neither is read again.
    assert rows() == (first, 0, 0)
    # Another process writes a spec and a price, moving the stamp (specifications_changed,
    # the price import); this process is not told, and sees both after the window.
    InstanceType.objects.filter(name="c7a.large").update(vcpus=4)
    Price.objects.filter(instance_type__name="c7g.large").update(usd_per_hour=Decimal("0.14"))
    Region.objects.update(prices_updated_at=timezone.now())
    assert rows() == (first, 0, 0)
    time.sleep(1.1)
    assert rows() == ({"c7g.large": (2.0, 0.14), "c7a.large": (4.0, 0.07)}, 1, 1)


def test_a_question_of_every_type_shares_the_statistics_an_earlier_day_read(settings):
    """Another day (or currency, way to buy) of a benchmark asked before reads no statistics
    while the benchmark's stamp stays; a statistics write by another process is seen after
    the window, and a question narrowed to families always reads its own."""
    import time

    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from benchmarks.models import SeriesStatistics

    settings.PRICEBENCH_FRESHNESS_SECONDS = 1
    for name, value in (("c7g.large", 300.0), ("c7a.large", 200.0)):
        make_type(name, vcpus=2)
        price(name, "0.07", DAY)
        run_with(name, [value])
    Region.objects.update(prices_updated_at=timezone.now())

    def medians(day, **options):
        with CaptureQueriesContext(connection) as captured:
            table = answer("openssl:sha256", "us-east-1", at=day, **options)
        read = sum('FROM "benchmarks_seriesstatistics"' in q["sql"] for q in captured)
        return {row.instance_type: row.median for row in table.results}, read

    first = {"c7g.large": 300.0, "c7a.large": 200.0}
    assert medians(DAY) == (first, 1)
    assert medians(DAY + datetime.timedelta(days=1)) == (first, 0)
    assert medians(DAY, families=("c7g", "c7a")) == (first, 1)
    time.sleep(1.1)
    assert medians(DAY + datetime.timedelta(days=2)) == (first, 0)
    # Another process's ingest: the statistics change and the benchmark's stamp moves.
    SeriesStatistics.objects.filter(instance_type__name="c7a.large").update(median=250.0)
    Benchmark.objects.filter(key="openssl:sha256").update(stats_updated_at=timezone.now())
    assert medians(DAY + datetime.timedelta(days=3)) == (first, 0)
    time.sleep(1.1)
    assert medians(DAY + datetime.timedelta(days=4)) == (
        {"c7g.large": 300.0, "c7a.large": 250.0},
        1,
    )
