"""Network scaling and database price-performance read the kept statistics in a fixed
number of queries, with 10 and with 1,000 instance types."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from benchmarks.models import DatabasePrice, InstanceType, Price, Region, Run
from benchmarks.services import runs as run_services

pytestmark = pytest.mark.django_db

START = datetime.date(2024, 1, 1)


def table(rows: list[list], params: list[str]) -> None:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["benchmark", "instance_type", "region", "value", "unit", "variant"]
        + [f"param.{name}" for name in params]
    )
    writer.writerows(rows)
    run, _ = run_services.record_run(content=out.getvalue().encode(), format="csv")
    assert run.status == Run.Status.DONE, run.error


def queries_of(url: str, params: dict) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as captured:
        response = APIClient().get(url, params)
    assert response.status_code == 200, response.content[:500]
    return len(captured), response.json()


@pytest.mark.parametrize("count", [10, 1000])
def test_network_scaling_answers_in_five_queries_whatever_the_number_of_types(count):
    names = [f"zz{index // 100}.n{index % 100}" for index in range(count)]
    InstanceType.objects.bulk_create(
        [InstanceType(name=name, network_performance="25 Gigabit") for name in names]
    )
    region = Region.objects.get(code="us-west-2")
    Price.objects.bulk_create(
        Price(
            instance_type=it,
            region=region,
            purchase_option="on_demand",
            usd_per_hour=Decimal("2"),
            effective_from=START,
            source="test",
        )
        for it in InstanceType.objects.filter(name__in=names)
    )
    table(
        [
            ["iperf3:tcp", name, "us-west-2", processes * 1e9, "bit/s", "", "receive", 1, processes]
            for name in names
            for processes in (1, 4)
        ],
        ["direction", "streams", "processes"],
    )

    used, body = queries_of("/api/v1/network-scaling/", {"region": "us-west-2"})

    assert len(body["results"]) == count
    assert body["results"][0]["points"][1]["gbit_per_second_per_usd_hour"] == 2.0
    assert used <= 5, used


@pytest.mark.parametrize("count", [10, 1000])
def test_database_price_performance_answers_in_five_queries_whatever_the_number_of_classes(
    count,
):
    names = [f"db.zz{index // 100}.n{index % 100}" for index in range(count)]
    InstanceType.objects.bulk_create(
        [InstanceType(name=name, kind=InstanceType.Kind.DATABASE) for name in names]
    )
    region = Region.objects.get(code="us-east-1")
    DatabasePrice.objects.bulk_create(
        DatabasePrice(
            instance_type=it,
            region=region,
            engine=engine,
            deployment_option="Single-AZ",
            license_model="No license required",
            usd_per_hour=usd,
            effective_from=START,
            source="test",
        )
        for it in InstanceType.objects.filter(name__in=names)
        for engine, usd in (("MySQL", Decimal("0.24")), ("Aurora MySQL", Decimal("0.29")))
    )
    table(
        [
            ["sysbench:oltp:queries", name, "us-east-1", 1000, "query/s", engine, 16]
            for name in names
            for engine in ("mysql", "aurora-mysql")
        ],
        ["threads"],
    )

    used, body = queries_of(
        "/api/v1/database-price-performance/",
        {"benchmark": "sysbench:oltp:queries", "region": "us-east-1"},
    )

    assert len(body["results"]) == 2 * count
    assert used <= 5, used
