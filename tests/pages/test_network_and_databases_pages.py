"""The network and databases pages in a real browser: study S3's curve against the process
count, study S5's engines side by side per dollar-hour.

The iperf3 processes are the real iperf3 3.21 JSON of ../shared/data/parsers/iperf3/ with
their figures changed (one stream, no target rate, each its own bandwidth); the sysbench
output is the real file of ../shared/data/parsers/sysbench/; the RDS prices are AmazonRDS items
built with the schema of the real AmazonEC2 item in ../shared/data/pricing/aws-responses/.
"""

import copy
import datetime
import json

import pytest

from benchmarks.models import InstanceType, Price, Region
from benchmarks.parsers import iperf3
from benchmarks.services import prices as price_services
from benchmarks.services import runs as run_services
from tests.pricing.rds_items import instance_item

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]

IPERF3 = "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json"
SPECS = "pricing/aws-responses/DescribeInstanceTypes_t2_t3_m4_c4_c5_c5n_c6g_c7g_c7a_c7i.json"
SYSBENCH = "parsers/sysbench/pkb_sysbench1.0.12_oltp_16thr_intermediate.txt"
M5_ITEM = "pricing/aws-responses/GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"


def process(document: dict, gbit: float) -> str:
    changed = copy.deepcopy(document)
    changed["start"]["test_start"].update(num_streams=1, target_bitrate=0)
    changed["end"]["sum_sent"]["bits_per_second"] = gbit * 1e9
    changed["end"]["sum_received"]["bits_per_second"] = gbit * 1e9
    return json.dumps(changed)


@pytest.fixture
def s3(shared_data):
    price_services.import_instance_types_file(path=shared_data / SPECS)
    Price.objects.create(
        instance_type=InstanceType.objects.get(name="c5n.18xlarge"),
        region=Region.objects.get(code="us-west-2"),
        purchase_option="on_demand",
        usd_per_hour="3.888",
        effective_from=datetime.date(2019, 1, 1),
        source="AWS on-demand price of c5n.18xlarge in us-west-2",
    )
    document = json.loads((shared_data / IPERF3).read_text(encoding="utf-8-sig"))
    for count in (1, 10, 30):
        text = iperf3.join_processes([(f"p{n}", process(document, 3.2)) for n in range(count)])
        run_services.record_run(
            content=text.encode(), instance_type_name="c5n.18xlarge", region_code="us-west-2"
        )


def test_the_network_page_charts_the_sum_against_the_process_count(live_server, page, s3):
    page.goto(f"{live_server.url}/network/?instance_types=c5n.18xlarge&region=us-west-2")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)

    medians = page.locator("#network-table tbody td.median").all_inner_texts()
    assert medians == ["3.20", "32.00", "96.00"]
    assert page.locator("#network-table td.advertised").first.inner_text() == "100 Gigabit"
    points = page.evaluate(
        "() => Chart.getChart('processes-chart').data.datasets[0].data.map(p => [p.x, p.y])"
    )
    assert points == [[1, pytest.approx(3.2)], [10, pytest.approx(32)], [30, pytest.approx(96)]]
    assert page.console_errors == []


@pytest.fixture
def s5(shared_data):
    m5_item = json.loads((shared_data / M5_ITEM).read_text())
    items = [
        instance_item(m5_item, "db.r3.large", "MySQL", "0.2400000000"),
        instance_item(m5_item, "db.r3.large", "Aurora MySQL", "0.2900000000"),
    ]
    price_services.import_price_list(
        pages=[{"PriceList": [json.dumps(item) for item in items]}], source="test"
    )
    output = (shared_data / SYSBENCH).read_bytes()
    for engine in ("aurora-mysql", "mysql"):
        run_services.record_run(
            content=output,
            instance_type_name="db.r3.large",
            region_code="us-east-1",
            variant=engine,
        )


def test_the_databases_page_charts_both_engines_per_dollar_hour(live_server, page, s5):
    page.goto(
        f"{live_server.url}/databases/?benchmark=sysbench:oltp:queries&region=us-east-1"
        "&at=2015-09-01"
    )
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)

    per_usd_hour = page.locator("#databases-table td.per-usd-hour").all_inner_texts()
    assert per_usd_hour == ["68036", "82210"]  # 19,730.45 queries/s at $0.29 and $0.24
    labels = page.evaluate(
        "() => Chart.getChart('databases-chart').data.datasets.map(d => d.label)"
    )
    assert labels == ["aurora-mysql", "mysql"]
    assert page.console_errors == []
