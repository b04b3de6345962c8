"""The API as a new user meets it: filters that say what is wrong, pages, the root, CSV."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(demo_rolled_back):
    return APIClient()


def test_runs_filter_by_format_under_either_name(client):
    by_format = client.get("/api/v1/runs/", {"format": "openssl"})
    assert by_format.status_code == 200, by_format.content[:300]
    runs = by_format.json()["results"]
    assert runs and {run["format"] for run in runs} == {"openssl"}
    by_name = client.get("/api/v1/runs/", {"output_format": "openssl"}).json()["results"]
    assert [run["id"] for run in by_name] == [run["id"] for run in runs]


@pytest.mark.parametrize(
    ("url", "query", "field"),
    [
        ("/api/v1/prices/", {"purchase_option": "bogus"}, "purchase_option"),
        ("/api/v1/prices/", {"region": "mars-1"}, "region"),
        ("/api/v1/prices/", {"at": "13/12/2017"}, "at"),
        ("/api/v1/runs/", {"status": "sleeping"}, "status"),
        ("/api/v1/instance-types/", {"kind": "container"}, "kind"),
        ("/api/v1/fargate-rates/", {"architecture": "sparc"}, "architecture"),
    ],
)
def test_invalid_filter_values_are_a_400_naming_the_parameter(client, url, query, field):
    response = client.get(url, query)
    assert response.status_code == 400, response.content[:300]
    assert field in response.json()


def test_page_size_is_honoured_up_to_a_maximum(client):
    assert len(client.get("/api/v1/prices/", {"page_size": 7}).json()["results"]) == 7
    capped = client.get("/api/v1/prices/", {"page_size": 100000}).json()["results"]
    assert len(capped) == 1000
    huge = client.get("/api/v1/regions/", {"limit": "83551201993342236548830687276252004352"})
    assert huge.status_code == 200
    far = client.get("/api/v1/regions/", {"offset": "83551201993342236548830687276252004352"})
    assert far.status_code == 200 and far.json()["results"] == []


@pytest.mark.parametrize(
    "name", ["regions", "instance-types", "prices", "fargate-rates", "benchmarks", "runs"]
)
def test_a_page_far_into_a_list_skips_over_ids_and_reads_only_its_rows(client, name):
    """Pages at any offset are the whole list's slices, in its order; the offset is skipped
    by a query of ids, and only the page's rows are read whole (three queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    whole = client.get(f"/api/v1/{name}/", {"limit": 1000}).json()["results"]
    assert len(whole) > 6, name
    for offset in (0, 3, len(whole) - 3):
        with CaptureQueriesContext(connection) as captured:
            page = client.get(f"/api/v1/{name}/", {"limit": 3, "offset": offset}).json()
        assert page["results"] == whole[offset : offset + 3], (name, offset)
        assert len(captured) == 3, [query["sql"][:120] for query in captured]
        (skipping,) = [query["sql"] for query in captured if " LIMIT " in query["sql"]]
        assert skipping.split(" FROM ")[0].count(",") == 0, skipping[:200]


def test_the_api_root_lists_every_endpoint_the_schema_and_the_docs(client):
    root = client.get("/api/v1/").json()
    for name in ("price-performance", "prices", "fargate-rates", "runs", "schema", "docs"):
        assert name in root, root


def test_fargate_rates_of_the_launch_day_are_the_2017_prices(client):
    rates = client.get(
        "/api/v1/fargate-rates/",
        {"region": "us-east-1", "architecture": "x86_64", "at": "2017-12-13"},
    ).json()["results"]
    by_component = {rate["component"]: rate for rate in rates}
    assert by_component["vcpu"]["usd_per_unit_hour"] == pytest.approx(0.0506)
    assert by_component["memory_gb"]["usd_per_unit_hour"] == pytest.approx(0.0127)
    assert all(rate["source"] and rate["effective_from"] for rate in rates)
    every = client.get("/api/v1/fargate-rates/", {"region": "us-east-1"}).json()["results"]
    assert len(every) > len(rates)


def test_lists_answer_csv_too(client):
    response = client.get("/api/v1/prices/", {"region": "us-east-1", "format": "csv", "limit": 5})
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("instance_type,region,purchase_option")
    assert len(lines) == 6
    assert response["Content-Disposition"].startswith(
        'attachment; filename="pricebench_prices_us-east-1_'
    )


def test_a_csv_download_is_named_after_its_question(client):
    response = client.get(
        "/api/v1/price-performance/",
        {
            "benchmark": "openssl:aes-128-gcm",
            "block_size": "16384",
            "region": "us-east-1",
            "at": "2017-12-13",
            "format": "csv",
        },
    )
    assert response.status_code == 200, response.content
    assert response["Content-Disposition"] == (
        'attachment; filename="pricebench_price-performance_openssl-aes-128-gcm_us-east-1_'
        'on-demand_2017-12-13.csv"'
    )


def test_csv_cells_never_start_a_formula():
    from api.renderers import safe_cell

    assert safe_cell("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0"
    assert safe_cell("@SUM(1)") == "'@SUM(1)"
    assert safe_cell(-5.0) == -5.0
    assert safe_cell("Neoverse-V1") == "Neoverse-V1"


def test_json_answers_write_what_json_dumps_would():
    """orjson writes the answers: a list's errors keyed by position come out as "1" (as
    json.dumps writes them), Decimals and lazy strings through DRF's encoder, NaN as null."""
    import json
    from decimal import Decimal

    from django.utils.functional import lazy

    from api.renderers import FastJSONRenderer

    errors = {"figures": {1: {"value": ["A valid number is required."]}}, "n": 2}
    assert json.loads(FastJSONRenderer().render(errors)) == json.loads(json.dumps(errors))
    lazy_text = lazy(lambda: "lazy", str)()
    answer = {"price": Decimal("0.0416"), "note": lazy_text, "spread": float("nan")}
    assert json.loads(FastJSONRenderer().render(answer)) == {
        "price": 0.0416,
        "note": "lazy",
        "spread": None,
    }
    assert FastJSONRenderer().render(None) == b""


def test_benchmarks_list_their_parameters_from_the_kept_summaries(client):
    detail = client.get("/api/v1/benchmarks/openssl:aes-128-gcm/").json()
    assert detail["params"]["block_size"] == [16, 64, 256, 1024, 8192]
    assert "fargate" in detail["families"]
