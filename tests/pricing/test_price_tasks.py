"""The scheduled refreshes: one task per region, retried when AWS or the database is briefly
unavailable, every attempt visible as a PriceRefresh (tasks run in-process here)."""

import json

import pytest
from botocore.stub import ANY, Stubber

from benchmarks import tasks
from benchmarks.models import FargateRate, Price, PriceRefresh
from benchmarks.pricing import aws
from dashboard.celery import app
from tests.pricing.conftest import ECS_RESPONSE

pytestmark = pytest.mark.django_db

EXPECTED = {"ServiceCode": ANY, "Filters": ANY, "FormatVersion": "aws_v1"}


@pytest.fixture
def pricing(monkeypatch, aws_session):
    """The Price List client the refreshes use, stubbed."""
    client = aws.pricing_client("us-east-1", session=aws_session)
    monkeypatch.setattr(aws, "pricing_client", lambda region, session=None: client)
    with Stubber(client) as stubber:
        yield stubber


@pytest.fixture
def eager(settings):
    settings.PRICEBENCH_REGIONS = ["us-east-1"]
    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield
    app.conf.update(task_always_eager=previous[0], task_eager_propagates=previous[1])


def answer_on_demand(stubber, m5_item, load_response):
    stubber.add_response(
        "get_products",
        {"FormatVersion": "aws_v1", "PriceList": [json.dumps(m5_item)]},
        {**EXPECTED, "ServiceCode": "AmazonEC2"},
    )
    stubber.add_response(
        "get_products", load_response(ECS_RESPONSE), {**EXPECTED, "ServiceCode": "AmazonECS"}
    )


def test_the_daily_refresh_stores_ec2_prices_and_fargate_rates_per_region(
    eager, pricing, m5_item, load_response
):
    answer_on_demand(pricing, m5_item, load_response)
    assert tasks.refresh_on_demand_prices.delay().get() == ["us-east-1"]
    refresh = PriceRefresh.objects.get()
    assert (refresh.kind, refresh.region, refresh.status) == ("on_demand", "us-east-1", "ok")
    # The m5.large's on-demand price and its 12 Reserved terms, and 5 Fargate rates.
    assert (refresh.read, refresh.matched, refresh.stored, refresh.attempt) == (12, 18, 18, 1)
    assert Price.objects.count() == 13 and FargateRate.objects.count() == 5


def test_a_throttled_refresh_is_retried_and_both_attempts_are_recorded(
    eager, pricing, m5_item, load_response
):
    # In-process, Celery runs a retry at once only when errors are not propagated.
    app.conf.task_eager_propagates = False
    pricing.add_client_error("get_products", "ThrottlingException", "Rate exceeded", 400)
    answer_on_demand(pricing, m5_item, load_response)
    tasks.refresh_on_demand_prices.delay()
    first, second = PriceRefresh.objects.order_by("id")
    assert (first.status, first.attempt) == ("failed", 1)
    assert first.error.startswith("AwsThrottled:") and "Rate exceeded" in first.error
    assert (second.status, second.attempt, second.stored) == ("ok", 2, 18)


def test_a_refresh_that_cannot_succeed_is_not_retried_and_changes_nothing(eager, pricing):
    pricing.add_client_error("get_products", "AccessDeniedException", "Not allowed", 400)
    with pytest.raises(Exception, match="AccessDeniedException"):
        tasks.refresh_on_demand_prices.delay()
    refresh = PriceRefresh.objects.get()
    assert refresh.status == "failed" and "Not allowed" in refresh.error
    assert not Price.objects.exists() and not FargateRate.objects.exists()


def test_the_hourly_refresh_stores_spot_prices_per_zone(
    eager, monkeypatch, aws_session, spot_example
):
    client = aws.ec2_client("us-east-1", session=aws_session)
    monkeypatch.setattr(aws, "ec2_client", lambda region, session=None: client)
    for entry in spot_example["SpotPriceHistory"]:
        entry["AvailabilityZoneId"] = "use1-az" + entry["AvailabilityZone"][-1]
    with Stubber(client) as stubber:
        stubber.add_response("describe_spot_price_history", spot_example, None)
        tasks.refresh_spot_prices.delay()
    refresh = PriceRefresh.objects.get()
    assert (refresh.kind, refresh.status, refresh.stored) == ("spot", "ok", 2)
    zones = sorted(Price.objects.values_list("availability_zone", flat=True))
    assert zones == ["use1-aza", "use1-azc"]
    assert set(Price.objects.values_list("region__code", flat=True)) == {"us-east-1"}


def test_the_beat_schedule_names_these_tasks(settings):
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {tasks.refresh_on_demand_prices.name, tasks.refresh_spot_prices.name} <= scheduled
