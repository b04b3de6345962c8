"""The served OpenAPI schema says what the API accepts, neither more nor less: from the same
forms and FilterSets that validate the requests, and from the database for the names it
holds; and each operation's answers as it sends them."""

import re

import pytest
from rest_framework.test import APIClient

from benchmarks.models import Benchmark, InstanceType, Region

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(demo_rolled_back):
    return APIClient()


@pytest.fixture
def schema(client):
    response = client.get("/api/v1/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def parameters(schema, path: str, method: str = "get") -> dict[str, dict]:
    return {item["name"]: item for item in schema["paths"][path][method]["parameters"]}


def resolved(schema, parameter: dict) -> dict:
    ref = parameter["schema"].get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]] if ref else parameter["schema"]


def test_names_the_database_holds_are_enumerated_from_it(schema):
    asked = parameters(schema, "/api/v1/price-performance/")
    regions = sorted(set(Region.objects.values_list("code", flat=True)))
    assert asked["region"]["required"] and resolved(schema, asked["region"])["enum"] == regions
    assert resolved(schema, asked["measured_in"])["enum"] == regions
    keys = list(Benchmark.objects.order_by("key").values_list("key", flat=True))
    assert resolved(schema, asked["benchmark"])["enum"] == keys
    cost = parameters(schema, "/api/v1/commitment-cost/")
    names = resolved(schema, cost["instance_type"])["enum"]
    assert "c7g.large" in names and len(names) == InstanceType.objects.distinct("name").count()
    # A FilterSet's model choice lists its queryset's values.
    rates = parameters(schema, "/api/v1/fargate-rates/")
    assert rates["region"]["schema"]["enum"] == regions


def test_numbers_carry_their_bounds_and_texts_their_shape(client, schema):
    burst = parameters(schema, "/api/v1/gp2-burst/")
    assert (
        burst["size_gb"]["schema"] | {"minimum": 1, "maximum": 16_384} == burst["size_gb"]["schema"]
    )
    assert burst["seconds"]["schema"]["maximum"] == 30 * 24 * 3600
    for size, status in ((0, 400), (1, 200), (16_384, 200), (16_385, 400)):
        answer = client.get("/api/v1/gp2-burst/", {"size_gb": size})
        assert answer.status_code == status, answer.content
    assert (
        "gp2 volumes are 1 to 16,384 GB, not 0"
        in client.get("/api/v1/gp2-burst/", {"size_gb": 0}).json()["size_gb"][0]
    )
    asked = parameters(schema, "/api/v1/price-performance/")
    assert asked["vcpus"]["schema"] == {
        "type": "number",
        "minimum": 0.01,
        "maximum": 999_999.99,
        "multipleOf": 0.01,
    }
    assert asked["at"]["schema"]["pattern"] == "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
    # Django refuses NUL in any text, and a required text that is only spaces.
    assert asked["instance_types"]["schema"]["pattern"] == "^[^\\u0000]*$"
    assert asked["instance_types"]["schema"]["maxLength"] == 10_000
    # A list of names has their shape and count (unit-prices/ reads at most 20 families).
    families = parameters(schema, "/api/v1/unit-prices/")["families"]["schema"]["pattern"]
    assert re.fullmatch(families, "c7g, T2,fargate") and not re.fullmatch(families, "0")
    assert not re.fullmatch(families, ",".join(["c7g"] * 21))
    volume = parameters(schema, "/api/v1/volume-cost/")
    assert volume["size_gb"]["schema"]["minimum"] == 1
    assert volume["size_gb"]["schema"]["maximum"] == 65_536


def test_each_answer_is_documented_as_it_is_sent(client, schema):
    answers = schema["paths"]["/api/v1/price-performance/"]["get"]["responses"]
    # The middleware's 503 is JSON only; CSV answers and errors are text.
    assert set(answers["503"]["content"]) == {"application/json"}
    assert answers["200"]["content"]["text/csv"]["schema"] == {"type": "string"}
    assert answers["400"]["content"]["text/csv"]["schema"] == {"type": "string"}
    refused = client.get("/api/v1/gp2-burst/", {"size_gb": 0, "format": "csv"})
    assert refused.status_code == 400 and refused["Content-Type"].startswith("text/csv")
    # Errors declared by a description alone still document the JSON body DRF sends.
    deleted = schema["paths"]["/api/v1/runs/{id}/"]["delete"]["responses"]
    for code in ("401", "403", "404"):
        assert set(deleted[code]["content"]) >= {"application/json"}, code
    # A path that names nothing is a JSON 404 to a POST with a session too, not CSRF's page.
    client.cookies["sessionid"] = "x"
    missing = client.post("/api/v1/runs/0.5/withdraw/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"


def test_a_profile_is_asked_instead_of_a_benchmark_as_the_schema_says(client, schema):
    asked = parameters(schema, "/api/v1/price-performance/")
    # Either names the question: neither is required alone, and the answer is either's.
    assert not asked["benchmark"].get("required") and not asked["profile"].get("required")
    answer = schema["paths"]["/api/v1/price-performance/"]["get"]["responses"]["200"]
    shapes = resolved(schema, answer["content"]["application/json"])["oneOf"]
    assert {shape["$ref"].rsplit("/", 1)[1] for shape in shapes} == {
        "PricePerformance",
        "ProfileAnswer",
    }
    profile = client.get("/api/v1/price-performance/", {"profile": "crypto", "region": "us-east-1"})
    assert profile.status_code == 200 and profile.json()["profile"]["key"] == "crypto"
    both = {"profile": "crypto", "benchmark": "openssl:sha256", "region": "us-east-1"}
    refused = client.get("/api/v1/price-performance/", both)
    assert refused.status_code == 400 and "not both" in refused.json()["detail"][0]


def test_database_engines_are_named_by_their_shape(client, schema):
    engine = parameters(schema, "/api/v1/database-price-performance/")["engine"]["schema"]
    pattern = re.compile(engine["pattern"])
    for text, valid in (("mysql", True), ("aurora-mysql, postgresql", True), ("oracle", False)):
        assert bool(pattern.fullmatch(text)) is valid, text
