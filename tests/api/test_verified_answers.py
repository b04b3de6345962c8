"""`price-performance/?verified=only` counts verified runs only; every row says how many of
its runs are verified (kept with the statistics)."""

import io
import re

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import SeriesStatistics
from benchmarks.services.statistics import check_statistics
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

S1 = SHARED_DATA / "seed-studies" / "fargate-openssl"
PKCS7 = (SHARED_DATA / "aws-identity" / "t2.micro_us-east-1_2016.pkcs7.pem").read_text()
URL = "/api/v1/price-performance/"
QUESTION = {
    "benchmark": "openssl:aes-128-gcm",
    "region": "us-east-1",
    "block_size": 8192,
    "processes": 1,
    "instance_types": "t2.micro,t2.nano",
}


@pytest.fixture
def uploader(demo_rolled_back, django_user_model):
    user = django_user_model.objects.create(username="uploader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def upload(client, name: str, **fields):
    part = io.BytesIO((S1 / name).read_bytes())
    part.name = name
    response = client.post(
        "/api/v1/runs/",
        {"file": part, "instance_type": "t2.micro", "region": "us-east-1", **fields},
        format="multipart",
    )
    assert response.status_code == 202, response.content
    return response.json()


def rows(client, **extra):
    response = client.get(URL, {**QUESTION, **extra})
    assert response.status_code == 200, response.content
    return {row["instance_type"]: row for row in response.json()["results"]}


def test_only_the_verified_run_counts_and_rows_say_how_many_are_verified(
    uploader, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload(uploader, "t2.nano__e5-2676-v3-2-40ghz.txt", identity=PKCS7)
        upload(uploader, "c4.xlarge__e5-2666-v3-2-90ghz.txt")
    every = rows(uploader)
    assert every["t2.micro"]["runs"] >= 2
    assert every["t2.micro"]["verified_runs"] == 1
    assert every["t2.nano"]["verified_runs"] == 0
    only = rows(uploader, verified="only")
    assert set(only) == {"t2.micro"}
    micro = only["t2.micro"]
    assert (micro["runs"], micro["verified_runs"], micro["results"]) == (1, 1, 1)
    assert micro["cpu_models"] == {"Intel Xeon E5-2676 v3": 1}
    # The kept count is the one a recomputation gives.
    assert check_statistics().clean, check_statistics().differences[:3]
    assert SeriesStatistics.objects.filter(verified_runs=1).exists()


def test_verified_takes_only_only(uploader):
    response = uploader.get(URL, {**QUESTION, "verified": "all"})
    assert response.status_code == 400
    assert "verified" in response.json()


def test_an_answer_without_a_verified_run_carries_no_verified_runs(uploader):
    assert all("verified_runs" not in row for row in rows(uploader).values())


def test_the_finder_filters_on_verified_runs_and_ranks_by_them(
    uploader, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload(uploader, "t2.nano__e5-2676-v3-2-40ghz.txt", identity=PKCS7)
    page = client.get(
        "/instance-types/",
        {"verified": "only", "benchmark": "openssl:aes-128-gcm", "block_size": 8192,
         "processes": 1},
    )  # fmt: skip
    assert page.status_code == 200
    listed = set(re.findall(r'<tr data-instance-type="([^"]+)"', page.content.decode()))
    assert listed == {"t2.micro"}  # the one type with a verified run
    assert 'name="verified" id="verified" value="only" checked' in page.content.decode()
    unfiltered = client.get("/instance-types/", {"benchmark": "openssl:aes-128-gcm"})
    assert len(re.findall(r"<tr data-instance-type=", unfiltered.content.decode())) > 1
