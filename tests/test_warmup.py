"""A web worker answers the default price-performance question before taking requests."""

from unittest import mock

import pytest
from django.core import signals
from django.core.cache import caches
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection
from django.db.utils import OperationalError
from django.test.utils import CaptureQueriesContext

from dashboard.warmup import warm_up

pytestmark = pytest.mark.django_db
# Made once: making it sets Django up again, which reconfigures logging (and drops caplog's).
APPLICATION = get_wsgi_application()


@pytest.fixture(autouse=True)
def _connection_kept_open():
    """As Django's test client does: the test's transaction outlives each request."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# First: the demo, loaded once for the module's later tests, stays until the module ends.
def test_an_empty_database_asks_nothing():
    assert warm_up(APPLICATION) == []


def test_it_answers_the_default_question_through_the_whole_application(demo_rolled_back):
    with CaptureQueriesContext(connection) as captured:
        answered = warm_up(APPLICATION)
    assert len(answered) == 3
    url, status = answered[0]
    assert url.startswith("/api/v1/price-performance/?benchmark=openssl%3Aaes-256-cbc&")
    assert "region=us-east-1" in url and "block_size=" in url
    assert status == "200 OK"
    # Then the best type's page: its ranks, runs and similar types read once.
    page, status = answered[1]
    assert page.startswith("/instance-types/") and status == "200 OK"
    assert any("benchmarks_peergroup" in query["sql"] for query in captured)
    # Then the landing page, its family facts kept for a client's first one.
    assert answered[2] == ("/", "200 OK")
    facts = 'SELECT "benchmarks_instancetype"."vendor" AS "vendor", '
    assert any(query["sql"].startswith(facts) for query in captured)
    # The answer was computed (its queries ran) and kept, as a client's request would be.
    assert any("benchmarks_seriesstatistics" in query["sql"] for query in captured)
    assert caches["answers"]._cache


def test_it_passes_the_host_and_https_checks_of_production_settings(demo_rolled_back, settings):
    settings.ALLOWED_HOSTS = [".pricebench.example"]
    settings.SECURE_SSL_REDIRECT = True
    answered = warm_up(APPLICATION)
    assert [status for _url, status in answered] == ["200 OK", "200 OK", "200 OK"]


def test_a_failure_is_logged_and_never_raised(caplog):
    with mock.patch("dashboard.warmup.comparison.comparison", side_effect=OperationalError("away")):
        assert warm_up(APPLICATION) == []
    assert "warm-up stopped: OperationalError: away" in caplog.text


def test_every_type_of_its_region_is_kept_for_a_first_question_of_another_benchmark(
    demo_rolled_back,
):
    from django.test import Client

    from benchmarks import freshness
    from benchmarks.models import InstanceType, Region, SeriesStatistics
    from benchmarks.selectors.answer import kept_series
    from benchmarks.selectors.answer.lookups import prices_stamp

    freshness.forget()
    warm_up(APPLICATION)
    region = Region.objects.get(code="us-east-1")
    aws = set(InstanceType.objects.filter(vendor=region.vendor).values_list("pk", flat=True))
    # The default question's answer names only some of them: the rest are kept too.
    answered = set(
        SeriesStatistics.objects.filter(benchmark__key="openssl:aes-256-cbc").values_list(
            "instance_type_id", flat=True
        )
    )
    assert aws - answered
    known = freshness.kept(f"{kept_series._MACHINES}:{region.pk}", stamp=prices_stamp(region))
    assert set(known) == aws
    # A worker's first question of another benchmark reads its statistics, not its types.
    with CaptureQueriesContext(connection) as captured:
        response = Client().get(
            "/api/v1/price-performance/?benchmark=stress-ng:cpu&region=us-east-1&workers=1&at=2031-01-01"
        )
    assert response.status_code == 200, response.content[:300]
    assert response.json()["results"]
    statistics = [query["sql"] for query in captured if "seriesstatistics" in query["sql"]]
    assert statistics and not any('"benchmarks_instancetype"."kind"' in sql for sql in statistics)
    assert not any(
        query["sql"].startswith('SELECT "benchmarks_instancetype"') for query in captured
    )
