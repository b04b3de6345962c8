"""A workload profile's answer in the API carries its `summary`, the sentence the page shows
(issue 42, item 6)."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks.models import Benchmark, InstanceType, Price, Region, Result, Run
from benchmarks.profiles import BY_KEY
from benchmarks.services import statistics

pytestmark = pytest.mark.django_db

# A profile whose members take fixed parameters.
COMPRESSION = BY_KEY["compression"]


def measured(name: str, usd: str, value: float) -> None:
    """`name` priced in us-east-1 and measured on each of compression's members at `value`."""
    instance_type = InstanceType.objects.create(name=name, vcpus=2)
    Price.objects.create(
        instance_type=instance_type,
        region=Region.objects.get(code="us-east-1"),
        purchase_option="on_demand",
        usd_per_hour=Decimal(usd),
        effective_from=datetime.date(2024, 1, 1),
        source="test",
    )
    run = Run.objects.create(instance_type=instance_type, status=Run.Status.DONE)
    results = []
    for member in COMPRESSION.members:
        benchmark, _ = Benchmark.objects.get_or_create(
            key=member.benchmark, defaults={"unit": "B/s", "higher_is_better": True}
        )
        results.append(Result(run=run, benchmark=benchmark, params=member.params, value=value))
    statistics.attach_series(results)
    Result.objects.bulk_create(results)
    statistics.refresh_series({result.series_id for result in results})


def test_a_profiles_answer_has_the_sentence_the_page_shows(client):
    measured("c7g.large", "0.0725", 200.0)
    measured("c7a.large", "0.1027", 100.0)
    question = {"profile": COMPRESSION.key, "region": "us-east-1", "at": "2024-06-01"}
    answer = APIClient().get("/api/v1/price-performance/", question).json()
    assert [row["instance_type"] for row in answer["results"]] == ["c7g.large", "c7a.large"]
    assert answer["summary"].startswith(
        f"For {COMPRESSION.name} work, c7g.large buys the most per dollar"
    )
    page = client.get("/", question).content.decode()
    assert answer["summary"].replace("'", "&#x27;") in page
