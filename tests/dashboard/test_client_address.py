"""Failed admin logins counted per client behind trusted proxies (PRICEBENCH_TRUSTED_PROXIES):
the X-Forwarded-For entry the outermost trusted proxy wrote, never one a client sent."""

import time

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from dashboard.throttle import client_address

pytestmark = pytest.mark.django_db


def address(trusted: int, forwarded: str | None, settings) -> str:
    settings.PRICEBENCH_TRUSTED_PROXIES = trusted
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return client_address(RequestFactory().get("/", REMOTE_ADDR="10.59.0.2", **extra))


def test_without_trusted_proxies_the_address_is_remote_addr(settings):
    assert address(0, "203.0.113.7", settings) == "10.59.0.2"
    assert address(0, None, settings) == "10.59.0.2"


def test_the_entry_written_by_the_outermost_trusted_proxy_is_read_from_the_right(settings):
    # The client sent "1.2.3.4"; the balancer appended the address it was connected from.
    assert address(1, "1.2.3.4, 203.0.113.7", settings) == "203.0.113.7"
    assert address(1, "203.0.113.7", settings) == "203.0.113.7"
    # Two proxies: the CDN saw the client, the balancer saw the CDN.
    assert address(2, "1.2.3.4, 203.0.113.7, 198.51.100.1", settings) == "203.0.113.7"
    # Fewer entries than proxies: the leftmost was still written by a trusted proxy.
    assert address(2, "203.0.113.7", settings) == "203.0.113.7"
    # No header (a request straight to the web process): its peer.
    assert address(1, None, settings) == "10.59.0.2"
    assert address(1, " , ", settings) == "10.59.0.2"


@pytest.fixture
def three_a_minute(settings):
    settings.PRICEBENCH_THROTTLE_ADMIN_LOGIN = "3/minute"
    settings.PRICEBENCH_TRUSTED_PROXIES = 1
    cache.clear()
    if time.time() % 60 > 50:
        time.sleep(60.5 - time.time() % 60)
    yield
    cache.clear()


def test_failed_logins_behind_the_balancer_are_counted_per_forwarded_client(
    three_a_minute, django_user_model
):
    django_user_model.objects.create_superuser(username="admin", password="right-password")
    wrong = {"username": "admin", "password": "wrong", "next": "/admin/"}
    # Every request comes from the balancer's address; the balancer names the client.
    first = Client(REMOTE_ADDR="10.59.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert [first.post("/admin/login/", wrong).status_code for _ in range(4)] == [
        200, 200, 200, 429]  # fmt: skip
    # A leftmost entry of its own choosing does not make the same client someone else.
    spoofed = Client(REMOTE_ADDR="10.59.0.2", HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.7")
    assert spoofed.post("/admin/login/", wrong).status_code == 429
    # Another client behind the same balancer is not held back.
    other = Client(REMOTE_ADDR="10.59.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1")
    right = {**wrong, "password": "right-password"}
    assert other.post("/admin/login/", right).status_code == 302
