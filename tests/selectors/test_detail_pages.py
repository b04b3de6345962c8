"""The instance type, benchmark and run pages' selectors: ranks, price steps, flags, queries."""

import datetime

import pytest

from benchmarks import flags
from benchmarks.errors import DomainError
from benchmarks.models import Run
from benchmarks.selectors.pages.benchmark_pages import benchmark_page
from benchmarks.selectors.pages.instance_types import instance_type_page
from benchmarks.selectors.pages.runs import run_page
from tests.selectors.test_price_performance import make_type, price, run_with

pytestmark = pytest.mark.django_db

JAN, JUN = datetime.date(2024, 1, 1), datetime.date(2024, 6, 1)


def test_ranks_count_the_types_measured_the_same_way():
    run_with("c7g.large", [300.0], params={"block_size": 8192})
    run_with("c7a.large", [200.0], params={"block_size": 8192})
    run_with("t2.nano", [100.0], params={"block_size": 8192})
    run_with("t2.nano", [900.0], params={"block_size": 16})
    run_with("t2.nano", [5.0], key="fio:randread", hib=False)
    run_with("c7g.large", [9.0], key="fio:randread", hib=False)
    page = instance_type_page("t2.nano", every_rank=True)
    ranks = {group.benchmark: group for group in page.ranks}
    sha = ranks["openssl:sha256"]
    assert (sha.main.params, sha.main.rank, sha.main.out_of) == ({"block_size": 8192}, 3, 3)
    assert [(other.params, other.rank, other.out_of) for other in sha.others] == [
        ({"block_size": 16}, 1, 1)
    ]
    # Seconds per job: the smallest figure ranks first.
    assert (ranks["fio:randread"].main.rank, ranks["fio:randread"].main.out_of) == (1, 2)


def test_the_page_ranks_each_benchmarks_main_parameter_set_and_every_one_when_asked():
    """The main set is the one most types were measured with (ties: by parameters); the
    others keep their peers' number, their rank counted only for `every_rank`, the same."""
    for name, value in (("c7g.large", 300.0), ("c7a.large", 200.0), ("t2.nano", 100.0)):
        run_with(name, [value], params={"block_size": 8192})
    for name, value in (("c7g.large", 5.0), ("t2.nano", 9.0)):
        run_with(name, [value], params={"block_size": 16})
    run_with("t2.nano", [7.0], params={"block_size": 64})
    run_with("c7g.large", [8.0], params={"block_size": 64})
    everything = instance_type_page("t2.nano", every_rank=True).ranks[0]
    main_only = instance_type_page("t2.nano").ranks[0]

    def standing(group):
        return [(rank.params["block_size"], rank.rank, rank.out_of) for rank in group.ranks]

    # 16 and 64 have two types each: 16 comes first.
    assert standing(everything) == [(8192, 3, 3), (16, 1, 2), (64, 2, 2)]
    assert standing(main_only) == [(8192, 3, 3), (16, None, 2), (64, None, 2)]


def test_the_page_shows_the_others_peers_and_links_to_every_rank(client):
    run_with("c7g.large", [300.0], params={"block_size": 8192})
    run_with("t2.nano", [100.0], params={"block_size": 8192})
    run_with("t2.nano", [900.0], params={"block_size": 16})
    html = client.get("/instance-types/t2.nano/?region=us-east-1").content.decode()
    folded = html.split('<tr class="more">')[1].split("</tr>")[0]
    assert "block_size=16: 900 B/s, 1 type measured" in folded
    assert 'href="?region=us-east-1&amp;ranks=all#ranks-table"' in folded
    html = client.get("/instance-types/t2.nano/?region=us-east-1&ranks=all").content.decode()
    folded = html.split('<tr class="more">')[1].split("</tr>")[0]
    assert "block_size=16: 900 B/s, 1 of 1" in folded and "ranks=all" not in folded
    assert "every parameter set ranked" in html


def test_ranks_count_the_peers_in_the_narrow_index_from_the_types_median():
    """Both kept-statistics indexes start with the peer group; only `statistics_peers` orders
    it by median, in entries a third of `statistics_peer_rows`' width: at 10M results the
    counts took 41 ms warm from the wide one, 30 from the narrow. Peer groups of 300 types,
    ten of them (the counts read one, a tenth of the table: a scan of every entry of any
    index then costs several times more, however bloated earlier tests left the indexes),
    stored as ingest stores them, and analysed, give the planner sizes to choose by."""
    from django.db import connection

    from benchmarks.models import Benchmark, InstanceType, Region, Result
    from benchmarks.selectors.pages.instance_types import _RANKS, ALL_REGIONS
    from benchmarks.services import statistics

    if connection.vendor != "postgresql":
        pytest.skip("the plan is PostgreSQL's")
    benchmark = Benchmark.objects.create(key="openssl:sha256", unit="B/s")
    region = Region.objects.get(code="us-east-1")
    types = InstanceType.objects.bulk_create(
        InstanceType(name=f"c7g.{index}xlarge") for index in range(300)
    )
    runs = Run.objects.bulk_create(
        Run(instance_type=kind, region=region, status=Run.Status.DONE) for kind in types
    )
    results = [
        Result(run=run, benchmark=benchmark, params={"block_size": size}, value=float(index))
        for index, run in enumerate(runs)
        for size in (16, 64, 256, 1024, 8192, 16384, 32768, 65536, 131072, 262144)
    ]
    statistics.attach_series(results)
    Result.objects.bulk_create(results)
    statistics.refresh_series({result.series_id for result in results})
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE benchmarks_seriesstatistics")
        # 3,000 rows still fit a sequential scan: only the indexes' paths are left.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_bitmapscan = off")
        every = True  # both directions' counts in the plan, for every parameter set
        cursor.execute("EXPLAIN " + _RANKS, [ALL_REGIONS, types[150].pk, every, *[ALL_REGIONS] * 2])
        plan = "\n".join(line for (line,) in cursor.fetchall())
    assert plan.count("Index Only Scan using statistics_peers on") == 2, plan


def test_prices_are_lines_per_region_and_option_with_breaks_between_periods():
    price("c7g.large", "0.08", JAN, datetime.date(2024, 2, 29))
    price("c7g.large", "0.0725", JUN)
    price("c7g.large", "0.03", JAN, option="spot", zone="use1-az1")
    page = instance_type_page("c7g.large")
    assert [line.label for line in page.lines] == [
        "us-east-1 On-demand",
        "us-east-1 Spot use1-az1",
    ]
    assert page.has_spot


@pytest.mark.parametrize("peers", [2, 40])
def test_the_instance_type_page_reads_in_a_fixed_number_of_queries(
    django_assert_max_num_queries, peers
):
    price("t2.nano", "0.0058", JAN)
    for index in range(peers):
        run_with(f"c7g.{index}xlarge", [float(index)], params={"block_size": 8192})
        run_with("t2.nano", [1.0], params={"block_size": 8192})
    with django_assert_max_num_queries(5):
        page = instance_type_page("t2.nano")
    assert page.ranks[0].main.out_of == peers + 1


@pytest.mark.parametrize("peers", [2, 40])
def test_the_whole_instance_type_page_takes_at_most_ten_queries(
    client, django_assert_max_num_queries, peers
):
    """The type, its prices, ranks and runs, similar types (benchmark, types, statistics,
    their prices) and the cost table's prices: whatever the number of peers."""
    # Two vCPUs and 4 GiB each: every peer is a similar type.
    for name in [f"c7g.{index}xlarge" for index in range(peers)] + ["c7g.large"]:
        make_type(name, vcpus=2, memory_gib=4)
        price(name, "0.0725", JAN)
        run_with(name, [1.0 + len(name)], params={"block_size": 8192})
    with django_assert_max_num_queries(10):
        response = client.get("/instance-types/c7g.large/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="cost-table"' in html and 'id="ranks-table"' in html
    similar = html.split('<h2 id="similar">')[1].split("</table>")[0]
    # This type and its peers, each priced and ranked.
    assert similar.count("<tr data-instance-type=") == min(peers + 1, 10)


def test_an_unknown_type_or_benchmark_is_a_domain_error():
    with pytest.raises(DomainError, match="unknown instance type"):
        instance_type_page("c99.huge")
    with pytest.raises(DomainError, match="unknown benchmark"):
        benchmark_page("nope:x")


def test_the_benchmark_page_counts_coverage_by_family():
    run_with("c7g.large", [300.0])
    run_with("c7g.xlarge", [600.0])
    run_with("c7g.xlarge", [610.0], region="ap-northeast-1")
    run_with("t2.nano", [100.0])
    page = benchmark_page("openssl:sha256")
    assert [(f.family, f.instance_types, f.runs) for f in page.families] == [
        ("c7g", ["c7g.large", "c7g.xlarge"], 3),
        ("t2", ["t2.nano"], 1),
    ]
    assert page.regions == ["ap-northeast-1", "us-east-1"]
    assert page.description.startswith("openssl speed:")


def test_the_run_page_formats_figures_flags_the_run_and_links_its_comparison():
    run = run_with("c7g.large", [4_200_000_000.0], params={"block_size": 8192})
    Run.objects.filter(pk=run.pk).update(
        warnings=["iperf3 sent at a target rate of 1 Gbit/s: the figures are capped"]
    )
    page = run_page(run.pk)
    assert page.flags == [flags.CAPPED]
    (line,) = page.machines[0].results
    assert line.shown == "4.2 GB/s"
    assert line.flag == flags.CAPPED
    assert line.comparison_url.startswith("/?benchmark=openssl%3Asha256&block_size=8192")
    assert "families=fargate%2Ct2%2Cc7g%2Cc7a%2Cc7i" in line.comparison_url


def test_the_regions_are_listed_cheapest_on_demand_first_with_their_cheapest_spot_zone():
    price("c7g.large", "0.0725", JAN, region="us-east-1")
    price("c7g.large", "0.080", JAN, JUN - datetime.timedelta(1), region="eu-west-1")
    price("c7g.large", "0.060", JUN, region="eu-west-1")  # the price now
    price("c7g.large", "0.091", JAN, region="ap-northeast-1")
    for zone, usd in (("use1-az1", "0.031"), ("use1-az2", "0.029")):
        price("c7g.large", usd, JAN, region="us-east-1", option="spot", zone=zone)
    price("c7g.large", "0.02", JAN, region="sa-east-1", option="spot", zone="sae1-az1")
    regions = instance_type_page("c7g.large").regions_by_price
    assert [(r.region, r.on_demand, r.spot, r.spot_zone) for r in regions] == [
        ("eu-west-1", 0.06, None, ""),
        ("us-east-1", 0.0725, 0.029, "use1-az2"),
        ("ap-northeast-1", 0.091, None, ""),
        ("sa-east-1", None, 0.02, "sae1-az1"),
    ]


def test_a_ranks_comparison_link_is_written_as_urlencode_writes_it():
    """The ranks' links are quoted once per name and value (a page of a thousand ranks), to
    the very text urlencode writes."""
    from urllib.parse import urlencode

    from benchmarks.selectors.pages.instance_types import _query_string

    query = {
        "benchmark": "stress-ng:cpu",
        "families": "",
        "method": "div16 & more/ü",
        "workers": 1,
        "size": 1.5,
        "flag": True,
        "list": [1, "a b"],
        "none": None,
    }
    assert _query_string(query) == urlencode(query)
    assert _query_string(query) == urlencode(query)  # from what the first call kept
