"""`vendor:name` wherever a question names a type: `instance_types=`, `baseline=` and the
compare page's `types=` take `hcloud:cax11` as well as a bare name (issue 42, item 3)."""

import pytest
from rest_framework.test import APIClient

from tests.commands.test_hetzner_prices import measured  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

QUESTION = {"benchmark": "passmark:cpu-mark", "at": "2024-10-15", "region": "fsn1"}


def ask(**options) -> dict:
    response = APIClient().get("/api/v1/price-performance/", {**QUESTION, **options})
    assert response.status_code == 200, response.content
    return response.json()


def test_instance_types_takes_a_vendors_name(measured):  # noqa: F811
    answer = ask(vendor="hcloud", instance_types="hcloud:cax11")
    assert [row["instance_type"] for row in answer["results"]] == ["cax11"]
    both = ask(instance_types="hcloud:cax11,cx22")
    assert sorted(row["instance_type"] for row in both["results"]) == ["cax11", "cx22"]
    # Another vendor's name names no type: refused, naming it (issue 54: not an empty answer).
    refused = APIClient().get(
        "/api/v1/price-performance/", {**QUESTION, "instance_types": "aws:cax11"}
    )
    assert refused.status_code == 400
    assert "no instance type is called 'aws:cax11'" in refused.json()["instance_types"][0]


def test_the_baseline_takes_a_vendors_name(measured):  # noqa: F811
    answer = ask(baseline="hcloud:cax11")
    rows = {row["instance_type"]: row for row in answer["results"]}
    assert rows["cax11"]["relative_per_dollar"] == 1.0
    assert rows["ccx13"]["relative_throughput"] == pytest.approx(9000 / 6000)


def test_the_compare_page_takes_vendors_names(measured, client):  # noqa: F811
    response = client.get(
        "/compare/", {"types": "hcloud:cax11,hcloud:ccx13", "region": "fsn1", "at": "2024-10-15"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "passmark:cpu-mark" in html and "cax11" in html and "ccx13" in html


def test_a_table_upload_names_another_clouds_type_as_vendor_name(measured):  # noqa: F811
    from benchmarks.models import Run
    from benchmarks.services import runs as run_services

    table = (
        "benchmark,instance_type,region,value,unit\n"
        "passmark:cpu-mark,hcloud:cax11,fsn1,6200,B/s\n"
        "passmark:cpu-mark,c7g.large,us-east-1,9400,B/s\n"
    )
    run, _ = run_services.record_run(content=table.encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error
    children = {
        (child.instance_type.vendor, child.instance_type.name) for child in run.children.all()
    }
    assert children == {("hcloud", "cax11"), ("aws", "c7g.large")}
