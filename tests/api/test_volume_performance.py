"""fio on EBS volumes through the API: IOPS and MB/s per dollar-month, burst and sustained,
priced at study S4's Tokyo prices of June 2014 (the bundled snapshot).

The fio output is the real fio 3.26 JSON in ../shared/data/parsers/fio/ (a 4 KiB random-write
job: 2,167.23 write IOPS, 8,876,980 B/s), uploaded for an m4.large with the volume as its
variant.
"""

import io

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.selectors.subjects.volume_performance import volume_of_variant
from benchmarks.services import prices as price_services

pytestmark = pytest.mark.django_db

FIO = "parsers/fio/vc_fio3.26_randrw_4k_libaio.json"
URL = "/api/v1/volume-performance/"
WRITE_IOPS = 2167.231601
WRITE_MB_PER_SECOND = 8.87698
QUERY = {
    "benchmark": "fio:randwrite",
    "direction": "write",
    "region": "ap-northeast-1",
    "at": "2014-06-15",
}


@pytest.fixture
def client(shared_data, django_user_model, django_capture_on_commit_callbacks):
    price_services.import_snapshot()
    user = django_user_model.objects.create(username="s4")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    output = (shared_data / FIO).read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        for volume in ("gp2-100gb", "io1-100gb-1000iops", "io1-100gb"):
            upload = io.BytesIO(output)
            upload.name = "fio.json"
            response = client.post(
                "/api/v1/runs/",
                {
                    "file": upload,
                    "instance_type": "m4.large",
                    "region": "ap-northeast-1",
                    "variant": volume,
                },
                format="multipart",
            )
            assert response.status_code == 202, response.content
    return client


def test_gp2_bursts_at_the_measured_iops_and_sustains_its_baseline(client):
    body = client.get(URL, QUERY).json()

    rows = {row["volume"]: row for row in body["results"]}
    gp2 = rows["gp2-100gb"]
    assert (gp2["usd_per_month"], gp2["iops"], gp2["sustained_iops"]) == (12.0, WRITE_IOPS, 300)
    assert gp2["iops_per_usd_month"] == pytest.approx(WRITE_IOPS / 12)
    assert gp2["sustained_iops_per_usd_month"] == pytest.approx(25.0)
    assert gp2["mb_per_second_per_usd_month"] == pytest.approx(WRITE_MB_PER_SECOND / 12)
    assert gp2["sustained_mb_per_second_per_usd_month"] == pytest.approx(
        WRITE_MB_PER_SECOND * 300 / WRITE_IOPS / 12
    )
    # 5.4 million credits drained at 2,167 - 300 IOPS.
    assert gp2["burst_seconds"] == 5_400_000 // (2167 - 300)


def test_io1_sustains_its_provisioned_iops_at_study_s4s_price(client):
    body = client.get(URL, QUERY).json()

    io1 = {row["volume"]: row for row in body["results"]}["io1-100gb-1000iops"]
    assert io1["usd_per_month"] == pytest.approx(88.2)
    assert io1["sustained_iops"] == 1000
    assert io1["sustained_iops_per_usd_month"] == pytest.approx(1000 / 88.2)
    assert io1["burst_seconds"] is None
    assert [row["volume"] for row in body["results"]] == ["gp2-100gb", "io1-100gb-1000iops"]


def test_a_volume_aws_would_not_create_is_unpriced_with_the_reason(client):
    body = client.get(URL, QUERY).json()

    (unpriced,) = body["unpriced"]
    assert unpriced["volume"] == "io1-100gb"
    assert "iops" in unpriced["reason"]


def test_the_rows_export_as_csv(client):
    response = client.get(URL, {**QUERY, "format": "csv"})

    lines = response.content.decode().splitlines()
    assert lines[0].startswith("instance_type,volume,volume_type,size_gb,params,runs,iops")
    assert lines[1].startswith("m4.large,gp2-100gb,gp2,100,")


def test_a_benchmark_that_is_not_fio_iops_is_refused(client):
    response = client.get(URL, {**QUERY, "benchmark": "fio:randwrite:bandwidth"})

    assert response.status_code == 400
    assert "not a fio IOPS benchmark" in response.content.decode()


@pytest.mark.parametrize(
    ("variant", "volume"),
    [
        ("gp2-100gb", ("gp2", 100, None, None)),
        ("io1-100gb-1000iops", ("io1", 100, 1000, None)),
        ("gp3-500gb-6000iops-250mibps", ("gp3", 500, 6000, 250)),
        ("accp", None),
        ("gp2-100", None),
    ],
)
def test_the_variant_names_the_volume(variant, volume):
    assert volume_of_variant(variant) == volume


def test_before_any_volume_is_measured_the_answer_says_what_to_upload(db):
    from benchmarks.models import Region

    Region.objects.get_or_create(code="us-east-1")
    response = APIClient().get(URL, {"region": "us-east-1"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["benchmark"] == "fio:randread" and body["results"] == []
    assert (
        "No volume is measured yet" in body["summary"] and "POST /api/v1/runs/" in body["summary"]
    )
    # Another benchmark is still refused, naming it.
    refused = APIClient().get(URL, {"region": "us-east-1", "benchmark": "fio:randwrite"})
    assert refused.status_code == 400 and "benchmark" in refused.json()


def test_before_any_volume_is_measured_a_parameter_is_refused_as_once_measured(db):
    from benchmarks.models import Region

    Region.objects.get_or_create(code="us-east-1")
    refused = APIClient().get(f"{URL}?region=us-east-1&direction=read")
    assert refused.status_code == 400, refused.content
    assert "unknown parameter 'direction'" in refused.json()["direction"][0]
