"""Every value is validated where it enters: a 400 naming the parameter and what it takes,
never a 500 and never an empty answer to a question nobody could answer (issue 54's cases)."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.models import InstanceType

pytestmark = pytest.mark.django_db

URL = "/api/v1/price-performance/"
QUESTION = {
    "benchmark": "openssl:aes-128-gcm",
    "region": "us-east-1",
    "block_size": "8192",
    "processes": "1",
    "at": "2017-12-13",
}


NOT_A_DAY = "2017-02-30 does not exist: February 2017 has days 01 to 28."


@pytest.fixture
def client(demo_rolled_back):
    return APIClient()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("processes", "①"),
        ("processes", "²"),
        ("processes", "٣"),
        ("processes", "1_0"),
        ("processes", "-1"),
        ("processes", "0"),
        ("block_size", "-8192"),
        ("block_size", "8192.5"),
        ("block_size", "0x2000"),
    ],
)
def test_a_count_takes_a_whole_number_from_1_in_ascii_digits(client, name, value):
    response = client.get(URL, {**QUESTION, name: value})
    assert response.status_code == 400, response.content[:300]
    message = response.json()[name][0]
    assert message.startswith(f"{name}={value}: {name} takes a whole number from 1")
    assert "openssl:aes-128-gcm was measured with 1" in message or "16, 64" in message


def test_a_count_written_as_the_number_it_was_measured_with_is_answered(client):
    for processes in ("1", " 1", "+1", "1.0"):
        response = client.get(URL, {**QUESTION, "processes": processes})
        assert response.status_code == 200, (processes, response.content[:300])
        assert response.json()["params"] == {"block_size": 8192, "processes": 1}


def test_the_page_drops_a_count_it_cannot_read_with_a_note(client):
    page = client.get("/", {**QUESTION, "processes": "①"})
    assert page.status_code == 200
    assert "was not measured with processes=①" in page.content.decode()


def test_a_family_no_type_is_of_is_refused_naming_it(client):
    response = client.get(URL, {**QUESTION, "families": "zzz"})
    assert response.status_code == 400
    assert response.json()["families"][0].startswith("no instance type is of the family 'zzz'")
    # A family some type is of is answered, with results or without.
    assert client.get(URL, {**QUESTION, "families": "t2"}).json()["results"]
    assert client.get(URL, {**QUESTION, "families": "u-6tb1"}).status_code == 200


def test_an_unknown_instance_type_is_refused_naming_it(client):
    response = client.get(URL, {**QUESTION, "instance_types": "t2.nano,nope.huge"})
    assert response.status_code == 400
    assert "no instance type is called 'nope.huge'" in response.json()["instance_types"][0]
    typo = client.get(URL, {**QUESTION, "instance_types": "t2.nanp"}).json()
    assert "did you mean t2.nano" in typo["instance_types"][0]
    named = client.get(URL, {**QUESTION, "instance_types": "t2.nano,aws:t2.micro"})
    assert named.status_code == 200, named.content[:300]
    assert {row["instance_type"] for row in named.json()["results"]} <= {"t2.nano", "t2.micro"}


def test_the_page_leaves_an_unknown_instance_type_out_saying_so(client):
    page = client.get("/", {**QUESTION, "instance_types": "t2.nano,nope.huge"})
    assert page.status_code == 200
    assert "No instance type is called nope.huge: left out" in page.content.decode()


def test_a_day_the_calendar_does_not_have_is_named_so(client):
    for url, query in (
        (URL, {**QUESTION, "at": "2017-02-30"}),
        ("/api/v1/prices/", {"at": "2017-02-30"}),
        ("/api/v1/unit-prices/", {"region": "us-east-1", "at": "2017-02-30"}),
    ):
        response = client.get(url, query)
        assert response.status_code == 400, (url, response.content[:300])
        assert response.json()["at"] == [NOT_A_DAY]
    assert client.get(URL, {**QUESTION, "at": "2016-02-29"}).status_code == 200
    fullwidth = client.get(URL, {**QUESTION, "at": "２０１７-12-13"}).json()["at"][0]
    assert "wrong format" in fullwidth


def test_numbers_are_read_in_ascii_digits_only(client):
    for url, query, name in (
        ("/api/v1/instance-types/", {"vcpus_min": "٣"}, "vcpus_min"),
        ("/api/v1/commitment-cost/", {"instance_type": "t2.nano", "region": "us-east-1",
                                      "hours_per_month": "٣"}, "hours_per_month"),
        ("/api/v1/regions/", {"limit": "٣"}, "limit"),
        (URL, {**QUESTION, "vcpus": "٢"}, "vcpus"),
    ):  # fmt: skip
        response = client.get(url, query)
        assert response.status_code == 400, (url, response.content[:300])
        assert name in response.json(), response.json()


def test_instance_types_filters_by_shape_as_the_finder_does(client):
    url = "/api/v1/instance-types/"
    everything = client.get(url, {"limit": 1}).json()["count"]
    body = client.get(url, {"vcpus_min": 4, "vcpus_max": 8, "memory_min": 16, "limit": 1000})
    rows = body.json()["results"]
    assert 0 < len(rows) < everything
    assert all(4 <= row["vcpus"] <= 8 and row["memory_gib"] >= 16 for row in rows)
    expected = InstanceType.objects.filter(vcpus__gte=4, vcpus__lte=8, memory_gib__gte=16).count()
    assert body.json()["count"] == expected
    small = client.get(url, {"memory_max": 1, "limit": 1000}).json()["results"]
    assert small and all(row["memory_gib"] <= 1 for row in small)
    refused = client.get(url, {"vcpus_min": 8, "vcpus_max": 2})
    assert refused.status_code == 400
    assert refused.json() == {"vcpus_max": ["vcpus_max is below vcpus_min (8)"]}
    assert client.get(url, {"vcpus_min": -1}).status_code == 400


def test_unit_prices_and_commitment_cost_take_a_region_as_price_performance_does(client):
    for query in ({"region": "aws:us-east-1"}, {"region": "us-east-1"}):
        response = client.get("/api/v1/unit-prices/", {**query, "at": "2017-12-13"})
        assert response.status_code == 200, response.content[:300]
        assert response.json()["region"] == "us-east-1"
        cost = client.get(
            "/api/v1/commitment-cost/", {**query, "instance_type": "t2.nano", "at": "2017-12-13"}
        )
        assert cost.status_code == 200 and cost.json()["region"] == "us-east-1"
    wrong = client.get("/api/v1/unit-prices/", {"region": "hcloud:us-east-1"})
    assert wrong.status_code == 400 and "region of hcloud" in wrong.json()["region"][0]


class TestUploads:
    @pytest.fixture
    def uploader(self, client, django_user_model, shared_data):
        user = django_user_model.objects.create_user("entry")
        client.credentials(
            HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user, name='t')[1]}"
        )
        content = shared_data / "parsers/openssl/pkb_1.1.1f_multi_evp_aes-256-ctr_snippet.txt"
        return lambda measured_at: client.post(
            "/api/v1/runs/",
            {
                "file": SimpleUploadedFile("openssl.txt", content.read_bytes()),
                "instance_type": "t2.nano",
                "region": "us-east-1",
                "measured_at": measured_at,
            },
            format="multipart",
        )

    def test_a_run_measured_in_the_future_is_refused(self, uploader):
        response = uploader("2099-01-01")
        assert response.status_code == 400
        assert response.json()["measured_at"][0].startswith("2099-01-01 is a day still to come")
        after_tomorrow = timezone.localdate() + datetime.timedelta(days=2)
        assert uploader(after_tomorrow.isoformat()).status_code == 400

    def test_tomorrow_is_allowed_for_time_zones(self, uploader):
        tomorrow = timezone.localdate() + datetime.timedelta(days=1)
        assert uploader(tomorrow.isoformat()).status_code == 202

    def test_a_day_that_does_not_exist_is_named_so(self, uploader):
        response = uploader("2017-02-30")
        assert response.status_code == 400
        assert response.json()["measured_at"] == [NOT_A_DAY]
