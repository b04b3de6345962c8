"""The list endpoints, the schema and the locally served docs."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(demo_rolled_back):
    return APIClient()


def test_regions_and_instance_types_are_listed(client):
    regions = client.get("/api/v1/regions/", {"limit": 200}).json()["results"]
    assert "ap-northeast-1" in {region["code"] for region in regions}
    nano = client.get("/api/v1/instance-types/t2.nano/").json()
    assert nano["kind"] == "ec2" and nano["burstable"] is True
    assert nano["baseline_share"] == pytest.approx(0.05)
    fargate = client.get("/api/v1/instance-types/", {"family": "fargate", "limit": 500}).json()
    assert fargate["count"] >= 100


def test_prices_filter_by_day_and_show_every_period_without_it(client):
    every = client.get(
        "/api/v1/prices/", {"region": "ap-northeast-1", "instance_type": "c7g.xlarge"}
    ).json()["results"]
    options = {price["purchase_option"] for price in every}
    assert options == {"on_demand", "spot"}
    on_demand = [price for price in every if price["purchase_option"] == "on_demand"]
    assert on_demand[0]["usd_per_hour"] == pytest.approx(0.1819)
    assert on_demand[0]["availability_zone"] is None
    assert all(price["availability_zone"] for price in every if price["purchase_option"] == "spot")
    assert all(price["source"] for price in every)
    before = client.get(
        "/api/v1/prices/",
        {"region": "ap-northeast-1", "instance_type": "c7g.xlarge", "at": "2000-01-01"},
    ).json()
    assert before["count"] == 0


def test_benchmarks_and_runs_are_listed_with_results(client):
    keys = {b["key"] for b in client.get("/api/v1/benchmarks/", {"limit": 500}).json()["results"]}
    assert {"openssl:aes-128-gcm", "openssl:aes-256-cbc", "keycloak:oauth2-login"} <= keys
    runs = client.get("/api/v1/runs/", {"instance_type": "t2.nano", "region": "us-east-1"}).json()
    assert runs["count"] >= 1
    detail = client.get(runs["results"][0]["url"]).json()
    assert detail["status"] == "done"
    assert detail["results"]


def test_the_schema_and_docs_are_served_without_a_cdn(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/v1/price-performance/" in schema.json()["paths"]
    docs = client.get("/api/v1/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar" in html
    assert "cdn" not in html.lower()


def test_a_benchmark_lists_the_parameter_values_it_was_measured_with(client):
    body = client.get("/api/v1/benchmarks/openssl:aes-128-gcm/").json()
    assert body["unit"] == "B/s" and body["higher_is_better"] is True
    assert body["params"]["block_size"] == [16, 64, 256, 1024, 8192]
    assert body["params"]["processes"] == [1]


def test_the_openapi_schema_is_valid_and_complete(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "s.yml"))
    text = (tmp_path / "s.yml").read_text()
    for path in ("/api/v1/price-performance/", "/api/v1/prices/", "/api/v1/runs/{id}/"):
        assert path in text


def test_instance_types_and_benchmarks_filter_by_family_and_tool(client):
    c7g = client.get("/api/v1/instance-types/", {"family": "c7g", "limit": 500}).json()
    names = {item["name"] for item in c7g["results"]}
    assert "c7g.xlarge" in names
    assert all(name.startswith("c7g.") for name in names)
    openssl = client.get("/api/v1/benchmarks/", {"tool": "openssl", "limit": 500}).json()
    keys = {item["key"] for item in openssl["results"]}
    assert "openssl:aes-128-gcm" in keys and "keycloak:oauth2-login" not in keys


def test_benchmarks_are_listed_without_reading_their_kept_noise(client):
    """A benchmark's kept noise (a megabyte for some at 10M results) is for the questions:
    the list and a benchmark's page read only the columns they show, in a fixed number of
    queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as listed:
        body = client.get("/api/v1/benchmarks/", {"limit": 500}).json()
    assert body["results"] and set(body["results"][0]) == {
        "key", "unit", "higher_is_better", "group", "description"
    }  # fmt: skip
    with CaptureQueriesContext(connection) as shown:
        detail = client.get("/api/v1/benchmarks/openssl:aes-128-gcm/").json()
    assert detail["params"]["block_size"] == [16, 64, 256, 1024, 8192] and detail["families"]
    assert len(listed) <= 3 and len(shown) == 1
    for query in (*listed.captured_queries, *shown.captured_queries):
        assert "noise" not in query["sql"], query["sql"]
