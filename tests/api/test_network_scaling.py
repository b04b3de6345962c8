"""Study S3 through the API: 30 single-stream iperf3 processes uploaded as one measurement
on c5n.18xlarge, summed, charted against the process count, priced per dollar-hour.

The processes' outputs are the real iperf3 3.21 JSON of ../shared/data/parsers/iperf3/ with
their figures changed (one stream, no target rate, each process's own bandwidth); the
advertised bandwidth comes from the real describe_instance_types response in
../shared/data/pricing/aws-responses/.
"""

import copy
import datetime
import io
import json

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType, Price, Region, Run
from benchmarks.services.prices import import_instance_types_file

pytestmark = pytest.mark.django_db

JSON_FILE = "parsers/iperf3/iperf3lib_3.21_tcp_P2_loopback_client.json"
SPECS = "pricing/aws-responses/DescribeInstanceTypes_t2_t3_m4_c4_c5_c5n_c6g_c7g_c7a_c7i.json"
C5N_USD_PER_HOUR = 3.888  # c5n.18xlarge on demand in us-west-2


def process_output(document: dict, gbit_per_second: float, *, streams: int = 1) -> bytes:
    process = copy.deepcopy(document)
    process["start"]["test_start"]["num_streams"] = streams
    process["start"]["test_start"]["target_bitrate"] = 0
    process["end"]["sum_sent"]["bits_per_second"] = gbit_per_second * 1e9
    process["end"]["sum_received"]["bits_per_second"] = gbit_per_second * 1e9
    return json.dumps(process).encode()


def named(content: bytes, name: str) -> io.BytesIO:
    upload = io.BytesIO(content)
    upload.name = name
    return upload


@pytest.fixture
def document(shared_data):
    return json.loads((shared_data / JSON_FILE).read_text(encoding="utf-8-sig"))


@pytest.fixture
def client(shared_data, django_user_model):
    import_instance_types_file(path=shared_data / SPECS)
    Price.objects.create(
        instance_type=InstanceType.objects.get(name="c5n.18xlarge"),
        region=Region.objects.get(code="us-west-2"),
        purchase_option="on_demand",
        usd_per_hour=C5N_USD_PER_HOUR,
        effective_from=datetime.date(2019, 1, 1),
        source="AWS on-demand price of c5n.18xlarge in us-west-2",
    )
    user = django_user_model.objects.create(username="s3")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def upload(client, files, **fields):
    return client.post(
        "/api/v1/runs/",
        {"file": files, "instance_type": "c5n.18xlarge", "region": "us-west-2", **fields},
        format="multipart",
    )


def test_thirty_processes_uploaded_together_make_one_summed_measurement_and_a_curve(
    client, document, django_capture_on_commit_callbacks
):
    bandwidths = [3.0 + n / 10 for n in range(1, 31)]
    with django_capture_on_commit_callbacks(execute=True):
        many = upload(
            client,
            [
                named(process_output(document, gbit), f"p{n}.json")
                for n, gbit in enumerate(bandwidths)
            ],
        )
        one = upload(client, [named(process_output(document, 3.1), "single.json")])
        assert many.status_code == one.status_code == 202, many.content
    run = Run.objects.get(pk=many.json()["id"])
    assert run.status == "done", run.error
    assert run.filename == "30 iperf3 processes"
    received = run.results.get(params__direction="receive")
    assert received.params == {"streams": 1, "direction": "receive", "processes": 30}
    assert received.value == pytest.approx(sum(bandwidths) * 1e9)

    curve = client.get(
        "/api/v1/network-scaling/",
        {"instance_types": "c5n.18xlarge", "region": "us-west-2", "at": "2019-09-01"},
    ).json()
    (c5n,) = curve["results"]
    assert c5n["advertised_bandwidth"] == "100 Gigabit"
    assert c5n["usd_per_hour"] == pytest.approx(C5N_USD_PER_HOUR)
    assert [(p["processes"], p["streams"]) for p in c5n["points"]] == [(1, 1), (30, 1)]
    assert c5n["points"][1]["median_gbit_per_second"] == pytest.approx(sum(bandwidths))
    assert c5n["points"][1]["gbit_per_second_per_usd_hour"] == pytest.approx(
        sum(bandwidths) / C5N_USD_PER_HOUR
    )

    table = client.get(
        "/api/v1/price-performance/",
        {
            "benchmark": "iperf3:tcp",
            "region": "us-west-2",
            "direction": "receive",
            "processes": 30,
            "at": "2019-09-01",
        },
    ).json()
    (row,) = table["results"]
    assert row["advertised_bandwidth"] == "100 Gigabit"
    assert row["gbit_per_second_per_usd_hour"] == pytest.approx(sum(bandwidths) / C5N_USD_PER_HOUR)


def test_the_curve_exports_one_csv_row_per_point(
    client, document, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload(client, [named(process_output(document, 9.5, streams=6), "p6.json")])

    response = client.get("/api/v1/network-scaling/", {"format": "csv", "region": "us-west-2"})

    assert response.status_code == 200
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("instance_type,variant,advertised_bandwidth,usd_per_hour,processes")
    assert lines[1].startswith("c5n.18xlarge,,100 Gigabit,3.888,1,6,1,9.5")


def test_several_files_of_another_tool_are_refused_naming_the_file(client, shared_data, document):
    lscpu = (shared_data / "parsers/lscpu/vc_lscpu_results_intel_4.txt").read_bytes()

    response = upload(
        client, [named(process_output(document, 5), "a.json"), named(lscpu, "cpu.txt")]
    )

    assert response.status_code == 400
    assert "file 2 (cpu.txt) is lscpu output" in response.content.decode()


def test_a_capped_process_leaves_its_warning_on_the_run(
    client, document, django_capture_on_commit_callbacks
):
    capped = json.loads(process_output(document, 25))
    capped["end"]["cpu_utilization_percent"]["host_total"] = 100.0
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(
            client,
            [
                named(process_output(document, 5), "a.json"),
                named(json.dumps(capped).encode(), "b.json"),
            ],
        )

    run = Run.objects.get(pk=response.json()["id"])
    assert run.warnings == [
        "process 2 of 2 (b.json): capped by its sender: the sender's iperf3 used 100.0% of a core"
    ]


def test_an_unknown_benchmark_is_refused_with_a_400(client):
    response = client.get("/api/v1/network-scaling/", {"benchmark": "ipref3:tcp"})
    assert response.status_code == 400
    assert "unknown benchmark 'ipref3:tcp'" in response.content.decode()


def test_before_any_bandwidth_is_measured_the_answer_says_what_to_upload(client):
    response = client.get("/api/v1/network-scaling/", {"region": "us-west-2"})
    assert response.status_code == 200
    body = response.json()
    assert body["results"] == []
    assert "No bandwidth is measured yet" in body["summary"]
    assert "--iperf3 HOST" in body["summary"]


def test_once_bandwidth_is_measured_a_mistyped_key_is_refused_with_the_closest(
    client, document, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        one = upload(client, [named(process_output(document, 9.5), "one.json")])
    assert one.status_code == 202, one.content
    response = client.get("/api/v1/network-scaling/", {"benchmark": "iperf3:tpc"})
    assert response.status_code == 400
    assert "did you mean iperf3:tcp" in response.content.decode()
    assert client.get("/api/v1/network-scaling/").json()["summary"] is None


def test_the_answer_awaiting_bandwidth_takes_three_queries(django_assert_num_queries):
    from benchmarks.selectors.subjects import network

    # The benchmark, whether any bandwidth is measured, the region.
    with django_assert_num_queries(3):
        answer = network.network_scaling(region_code="us-west-2")
    assert answer.curves == [] and answer.summary
