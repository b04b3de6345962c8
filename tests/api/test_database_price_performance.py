"""Study S5 through the API: one sysbench OLTP output uploaded for db.r3.large on Aurora MySQL
and on RDS MySQL, priced at AWS's us-east-1 prices of 2015, side by side per dollar.

The sysbench output is the real file in ../shared/data/parsers/sysbench/. The prices come
from AmazonRDS items built with the same schema as the real AmazonEC2 item in
../shared/data/pricing/aws-responses/ (tests/pricing/rds_items.py): db.r3.large MySQL
Single-AZ $0.24/h, Multi-AZ $0.48/h, Aurora MySQL $0.29/h. Study S5 published no per-dollar
figure: with the same throughput on both, Aurora buys 0.24/0.29 of RDS MySQL's queries per
dollar at these prices.
"""

import io
import json

import pytest
from rest_framework.test import APIClient

from api.tokens import create_upload_token
from benchmarks.services import prices as price_services
from tests.pricing.rds_items import aurora_items, instance_item

pytestmark = pytest.mark.django_db

SYSBENCH = "parsers/sysbench/pkb_sysbench1.0.12_oltp_16thr_intermediate.txt"
M5_ITEM = "pricing/aws-responses/GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"
URL = "/api/v1/database-price-performance/"
QUERIES_PER_SECOND = 19730.45  # the file's `queries: ... (19730.45 per sec.)`


@pytest.fixture
def client(shared_data, django_user_model, django_capture_on_commit_callbacks):
    m5_item = json.loads((shared_data / M5_ITEM).read_text())
    items = [
        instance_item(m5_item, "db.r3.large", "MySQL", "0.2400000000"),
        instance_item(m5_item, "db.r3.large", "MySQL", "0.4800000000", deployment="Multi-AZ"),
        instance_item(m5_item, "db.r3.large", "Aurora MySQL", "0.2900000000"),
        *aurora_items(m5_item),
    ]
    price_services.import_price_list(
        pages=[{"PriceList": [json.dumps(item) for item in items]}], source="test"
    )
    user = django_user_model.objects.create(username="s5")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    output = (shared_data / SYSBENCH).read_bytes()
    with django_capture_on_commit_callbacks(execute=True):
        for engine in ("aurora-mysql", "mysql"):
            upload = io.BytesIO(output)
            upload.name = "sysbench.txt"
            response = client.post(
                "/api/v1/runs/",
                {
                    "file": upload,
                    "instance_type": "db.r3.large",
                    "region": "us-east-1",
                    "variant": engine,
                },
                format="multipart",
            )
            assert response.status_code == 202, response.content
    return client


def by_engine(body):
    return {(row["instance_type"], row["engine"]): row for row in body["results"]}


def test_aurora_and_rds_mysql_queries_per_dollar_hour_side_by_side(client):
    response = client.get(
        URL,
        {"benchmark": "sysbench:oltp:queries", "region": "us-east-1", "at": "2015-09-01"},
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["unit"], body["deployment_option"]) == ("query/s", "Single-AZ")
    rows = by_engine(body)
    aurora, mysql = rows["db.r3.large", "aurora-mysql"], rows["db.r3.large", "mysql"]
    assert (aurora["engine_name"], aurora["usd_per_hour"]) == ("Aurora MySQL", 0.29)
    assert (mysql["engine_name"], mysql["usd_per_hour"]) == ("MySQL", 0.24)
    assert aurora["median"] == mysql["median"] == QUERIES_PER_SECOND
    assert aurora["per_usd_hour"] == pytest.approx(QUERIES_PER_SECOND / 0.29)
    assert mysql["per_usd_hour"] == pytest.approx(QUERIES_PER_SECOND / 0.24)
    assert mysql["per_dollar"] == pytest.approx(QUERIES_PER_SECOND * 3600 / 0.24)
    assert aurora["per_usd_hour"] / mysql["per_usd_hour"] == pytest.approx(0.24 / 0.29)
    assert list(rows) == [("db.r3.large", "aurora-mysql"), ("db.r3.large", "mysql")]


def test_transactions_and_multi_az_are_priced_by_their_own_price(client):
    body = client.get(
        URL,
        {
            "benchmark": "sysbench:oltp",
            "region": "us-east-1",
            "engine": "mysql",
            "deployment_option": "Multi-AZ",
            "threads": 16,
            "at": "2015-09-01",
        },
    ).json()

    (row,) = body["results"]
    assert (row["engine"], row["usd_per_hour"], row["median"]) == ("mysql", 0.48, 986.49)
    assert row["per_usd_hour"] == pytest.approx(986.49 / 0.48)
    assert body["params"] == {"threads": 16}


def test_response_time_is_its_own_lower_is_better_benchmark_shown_beside_the_price(client):
    body = client.get(
        URL, {"benchmark": "sysbench:oltp:latency_avg", "region": "us-east-1", "at": "2015-09-01"}
    ).json()

    assert (body["unit"], body["higher_is_better"]) == ("ms", False)
    rows = by_engine(body)
    assert rows["db.r3.large", "mysql"]["median"] == 16.21
    assert rows["db.r3.large", "mysql"]["per_dollar"] is None


def test_a_day_before_any_price_leaves_the_rows_unpriced_with_the_reason(client):
    body = client.get(
        URL, {"benchmark": "sysbench:oltp:queries", "region": "us-east-1", "at": "2014-01-01"}
    ).json()

    assert body["results"] == []
    assert {row["reason"] for row in body["unpriced"]} == {
        "no Aurora MySQL Single-AZ price in force in us-east-1 on 2014-01-01",
        "no MySQL Single-AZ price in force in us-east-1 on 2014-01-01",
    }


def test_the_rows_export_as_csv(client):
    response = client.get(
        URL,
        {
            "benchmark": "sysbench:oltp:queries",
            "region": "us-east-1",
            "at": "2015-09-01",
            "format": "csv",
        },
    )

    lines = response.content.decode().splitlines()
    assert lines[0].startswith("instance_type,engine,engine_name,runs,median")
    assert lines[1].startswith("db.r3.large,aurora-mysql,Aurora MySQL,1,19730.45")


def test_an_upload_for_a_db_instance_class_must_name_its_engine(client, shared_data):
    upload = io.BytesIO((shared_data / SYSBENCH).read_bytes())
    upload.name = "sysbench.txt"
    response = client.post(
        "/api/v1/runs/",
        {"file": upload, "instance_type": "db.r3.large", "region": "us-east-1"},
        format="multipart",
    )

    assert response.status_code == 400
    assert "give its engine as the variant" in response.content.decode()


def test_an_unknown_engine_and_an_unknown_parameter_are_refused_by_name(client):
    engine = client.get(
        URL, {"benchmark": "sysbench:oltp", "region": "us-east-1", "engine": "oracle"}
    )
    param = client.get(URL, {"benchmark": "sysbench:oltp", "region": "us-east-1", "users": 3})

    assert engine.status_code == param.status_code == 400
    assert "unknown engine 'oracle'" in engine.content.decode()
    assert "unknown parameter 'users'" in param.content.decode()


def test_the_benchmark_lists_the_db_instance_family_it_was_measured_on(client):
    body = client.get("/api/v1/benchmarks/sysbench:oltp:queries/").json()

    assert body["families"] == ["db.r3"]


def test_price_performance_sends_db_instance_classes_to_their_own_endpoint(client):
    body = client.get(
        "/api/v1/price-performance/", {"benchmark": "sysbench:oltp:queries", "region": "us-east-1"}
    ).json()

    assert body["results"] == []
    assert {row["reason"] for row in body["unpriced"]} == {
        "a DB instance class: priced per engine by database-price-performance/"
    }


@pytest.fixture
def empty_client():
    return APIClient()


def test_before_any_db_instance_class_is_measured_the_answer_says_what_to_upload(empty_client):
    response = empty_client.get(
        URL, {"benchmark": "sysbench:oltp_read_write:queries", "region": "us-east-1"}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["results"] == [] and body["unpriced"] == []
    assert body["unit"] == "query/s"
    assert "No DB instance class is measured yet" in body["summary"]
    assert "import_prices --api --service rds" in body["summary"]


def test_before_any_measurement_a_question_that_is_no_database_benchmark_is_still_refused(
    empty_client,
):
    response = empty_client.get(URL, {"benchmark": "sysbnch:oltp", "region": "us-east-1"})
    assert response.status_code == 400
    assert "unknown benchmark 'sysbnch:oltp'" in response.content.decode()
    region = empty_client.get(
        URL, {"benchmark": "sysbench:oltp_read_write:queries", "region": "us-east-9"}
    )
    assert region.status_code == 400 and "us-east-9" in region.content.decode()


def test_once_a_class_is_measured_an_unmeasured_benchmark_is_refused_by_name(client):
    response = client.get(URL, {"benchmark": "sysbench:oltp_read_only", "region": "us-east-1"})
    assert response.status_code == 400
    assert "unknown benchmark 'sysbench:oltp_read_only'" in response.content.decode()
    measured = client.get(URL, {"benchmark": "sysbench:oltp:queries", "region": "us-east-1"})
    assert measured.json()["summary"] is None


def test_the_answer_awaiting_db_classes_takes_three_queries(django_assert_num_queries):
    from benchmarks.selectors.subjects import databases

    # The benchmark, which benchmarks DB classes have, the region.
    with django_assert_num_queries(3):
        table = databases.database_price_performance(
            benchmark_key="sysbench:oltp_read_write", region_code="us-east-1"
        )
    assert table.results == [] and table.summary
