"""Throttles: anonymous, per user, uploads and failed admin logins answer 429 + Retry-After."""

import io
import time

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from api.tokens import create_upload_token
from benchmarks.models import InstanceType
from dashboard.throttle import Window, parse_rate
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

NANO_FILE = SHARED_DATA / "seed-studies" / "fargate-openssl" / "t2.nano__e5-2676-v3-2-40ghz.txt"


@pytest.fixture(autouse=True)
def low_rates(monkeypatch, settings):
    cache.clear()
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {"anon": "3/minute", "user": "5/minute", "uploads": "2/minute"},
    )
    settings.PRICEBENCH_THROTTLE_ADMIN_LOGIN = "3/minute"
    # Counts are kept per minute starting on the minute: a test's requests must not straddle
    # two minutes, or the second would start counting afresh.
    if time.time() % 60 > 50:
        time.sleep(60.5 - time.time() % 60)
    yield
    cache.clear()


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {create_upload_token(user=user)[1]}")
    return client


def test_anonymous_reads_past_the_rate_get_429_with_retry_after():
    client = APIClient()
    codes = [client.get("/api/v1/regions/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    response = client.get("/api/v1/regions/")
    assert 0 < int(response["Retry-After"]) <= 60
    assert "throttled" in response.json()["detail"]


def test_each_address_has_its_own_anonymous_allowance():
    for _ in range(3):
        APIClient(REMOTE_ADDR="10.0.0.1").get("/api/v1/regions/")
    assert APIClient(REMOTE_ADDR="10.0.0.1").get("/api/v1/regions/").status_code == 429
    assert APIClient(REMOTE_ADDR="10.0.0.2").get("/api/v1/regions/").status_code == 200


def test_a_user_has_a_higher_rate_than_anonymous(django_user_model):
    client = token_client(django_user_model.objects.create(username="reader"))
    codes = [client.get("/api/v1/regions/").status_code for _ in range(6)]
    assert codes == [200] * 5 + [429]


def test_uploads_have_a_stricter_rate_than_reads(django_user_model):
    InstanceType.objects.get_or_create(name="t2.nano")
    client = token_client(django_user_model.objects.create(username="uploader"))
    codes = []
    for copy in range(3):
        content = io.BytesIO(NANO_FILE.read_bytes() + b"\n" * copy)
        content.name = "speed.txt"
        codes.append(
            client.post(
                "/api/v1/runs/",
                {"file": content, "instance_type": "t2.nano", "region": "us-east-1"},
                format="multipart",
            ).status_code
        )
    assert codes == [202, 202, 429]
    # Reads by the same user still pass (their own, higher rate).
    assert client.get("/api/v1/regions/").status_code == 200


def test_failed_admin_logins_are_limited_per_address(django_user_model):
    django_user_model.objects.create_superuser(username="admin", password="right-password")
    client = Client()
    wrong = {"username": "admin", "password": "wrong", "next": "/admin/"}
    codes = [client.post("/admin/login/", wrong).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    refused = client.post("/admin/login/", {**wrong, "password": "right-password"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    # Another address is not held back, and a right password logs in.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/admin/login/", {**wrong, "password": "right-password"}).status_code == 302


def test_rates_are_read_like_drfs():
    assert parse_rate("10/minute") == (10, 60)
    assert parse_rate("100/hour") == (100, 3600)
    assert parse_rate("5/s") == (5, 1)


def test_a_clients_count_is_one_number_whatever_the_rate(monkeypatch):
    # DRF's default keeps every request's time for a window: at a high rate the list copied
    # in and out of the cache on each request grows into thousands of entries.
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "100000/minute", "user": "100000/minute"}
    )
    client = APIClient(REMOTE_ADDR="10.0.0.7")
    for _ in range(30):
        assert client.get("/api/v1/regions/").status_code == 200
    window = Window.now("throttle_anon_10.0.0.7", 60)
    assert cache.get(window.key) == 30
