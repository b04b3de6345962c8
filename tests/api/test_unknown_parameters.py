"""api/query_parameters.py: every API operation refuses a query parameter it does not take,
naming it, and takes every one its OpenAPI schema documents."""

import re

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token

pytestmark = pytest.mark.django_db

# A path parameter's value in the requests below: what it names need not exist, as the
# parameters are checked before the object is looked up.
PATH_VALUES = {"code": "us-east-1", "name": "t2.nano", "key": "openssl:aes-128-gcm", "id": "999999"}
STRAY = "utm_source"


@pytest.fixture
def client(demo_rolled_back, django_user_model):
    user = django_user_model.objects.create_user("parameters")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user, name='t')[1]}")
    return client


def operations(client) -> list[tuple[str, str, list[str], bool]]:
    """(method, path, documented query parameters, takes a benchmark's own) of every
    operation the schema lists."""
    schema = client.get("/api/v1/schema/", {"format": "json"}).json()
    found = []
    for path, methods in schema["paths"].items():
        url = re.sub(r"{(\w+)}", lambda match: PATH_VALUES[match[1]], path)
        for method, operation in methods.items():
            if method == "parameters":
                continue
            names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query"]
            found.append((method, url, [n for n in names if n != "params"], "params" in names))
    return found


def ask(client, method: str, url: str, query: dict):
    """The request with `query` in its URL, whatever its method."""
    from urllib.parse import urlencode

    return getattr(client, method)(f"{url}?{urlencode(query)}")


def refused_as_unknown(response) -> set[str]:
    """The parameters a response refused as unknown."""
    if response.status_code != 400 or response["Content-Type"] != "application/json":
        return set()
    return {
        name
        for name, messages in response.json().items()
        if isinstance(messages, list) and any("unknown parameter" in m for m in messages)
    }


def test_every_operation_refuses_a_parameter_it_does_not_take_naming_it(client):
    every = operations(client)
    assert len(every) >= 21
    for method, url, documented, takes_benchmark_parameters in every:
        # An operation that takes a benchmark's own parameters leaves other names to the
        # benchmark (test below); never the API's machinery, which it does not page.
        stray = "limit" if takes_benchmark_parameters else STRAY
        response = ask(client, method, url, {stray: "1"})
        assert response.status_code == 400, (method, url, response.content[:300])
        assert refused_as_unknown(response) == {stray}, (method, url, response.json())
        message = response.json()[stray][0]
        assert message.startswith("unknown parameter; this operation takes ")
        # The names it takes are those its schema documents (and `format`, everywhere).
        takes = message.removeprefix("unknown parameter; this operation takes ")
        takes = takes.removesuffix(" and the benchmark's own")
        assert set(takes.split(", ")) == {*documented, "format"}, (method, url, takes)


def test_every_operation_takes_every_parameter_its_schema_documents(client):
    for method, url, documented, _takes in operations(client):
        # Blank is absent for each of them: a bad value would be refused, but not as unknown.
        response = ask(client, method, url, dict.fromkeys(documented, ""))
        assert not refused_as_unknown(response), (method, url, response.json())


def test_a_list_still_takes_its_filters_paging_and_format(client):
    response = client.get(
        "/api/v1/regions/", {"vendor": "aws", "limit": 2, "offset": 1, "format": "json"}
    )
    assert response.status_code == 200 and len(response.json()["results"]) == 2
    assert client.get("/api/v1/runs/", {"page_size": 1, "format": "openssl"}).status_code == 200
    csv = client.get("/api/v1/prices/", {"region": "us-east-1", "format": "csv", "limit": 1})
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")


def test_an_object_takes_no_list_parameter(client):
    response = client.get("/api/v1/regions/us-east-1/", {"vendor": "aws"})
    assert response.status_code == 400 and refused_as_unknown(response) == {"vendor"}
    assert client.get("/api/v1/regions/us-east-1/", {"format": "json"}).status_code == 200


QUESTION = {
    "benchmark": "openssl:aes-128-gcm",
    "region": "us-east-1",
    "block_size": "8192",
    "processes": "1",
    "at": "2017-12-13",
}


def test_price_performance_takes_the_benchmarks_own_and_refuses_any_other(client):
    url = "/api/v1/price-performance/"
    assert client.get(url, QUESTION).status_code == 200
    response = client.get(url, {**QUESTION, STRAY: "x"})
    assert response.status_code == 400
    assert "unknown parameter 'utm_source' for openssl:aes-128-gcm" in response.json()[STRAY][0]
    for machinery in ("limit", "offset", "page_size"):
        assert refused_as_unknown(client.get(url, {**QUESTION, machinery: "5"})) == {machinery}


def test_the_pages_rows_is_never_taken_for_a_benchmarks_parameter(client):
    # `rows=all` is the comparison page's own (how many rows it writes): the API refuses it as
    # a name it does not take, not as a parameter the benchmark was not measured with.
    response = client.get("/api/v1/price-performance/", {**QUESTION, "rows": "all"})
    assert refused_as_unknown(response) == {"rows"}
    assert response.json()["rows"][0].startswith("unknown parameter; this operation takes ")


def test_a_profiles_question_refuses_a_benchmarks_parameter(client):
    url = "/api/v1/price-performance/"
    question = {"profile": "crypto", "region": "us-east-1"}
    assert client.get(url, question).status_code == 200
    response = client.get(url, {**question, "block_size": "8192"})
    assert refused_as_unknown(response) == {"block_size"}
    # A benchmark beside a profile keeps its own message.
    both = client.get(url, {**question, "benchmark": "openssl:aes-128-gcm"}).json()
    assert "not both" in str(both)


def test_a_method_the_operation_does_not_have_is_still_a_405(client):
    assert client.put("/api/v1/regions/?utm_source=x").status_code == 405
    assert client.generic("TRACE", "/api/v1/benchmarks/?utm_source=x").status_code == 405


def test_a_refusal_comes_after_authentication():
    response = APIClient().post("/api/v1/runs/?utm_source=x")
    assert response.status_code == 401
