"""The API root lists every endpoint under /api/v1/: each route of api/urls.py is reachable from
it, so that a route added later and left out of the root fails here."""

import re
from urllib.parse import urlsplit

import pytest
from rest_framework.test import APIClient

from api import urls

pytestmark = pytest.mark.django_db

PREFIX = "/api/v1/"
# Routes the root rightly leaves out: the root itself, and the JSON 404 for any other path.
NOT_ENDPOINTS = {"api-root", "not-found"}


def endpoint_of(route: str) -> str | None:
    """The first path segment a route answers under (`runs` for `^runs/(?P<pk>...)/$`)."""
    found = re.match(r"\^?([a-z0-9][a-z0-9-]*)", route)
    return found[1] if found else None


def routes() -> dict[str, str]:
    """Each route of the API's URLconf by name, as its first path segment."""
    found = {}
    for pattern in urls.urlpatterns:
        if pattern.name in NOT_ENDPOINTS:
            continue
        segment = endpoint_of(str(pattern.pattern))
        assert segment, f"route {pattern.pattern} ({pattern.name}) answers under no endpoint"
        found[pattern.name] = segment
    return found


@pytest.fixture
def listed():
    root = APIClient().get(PREFIX)
    assert root.status_code == 200
    return {name: urlsplit(url).path for name, url in root.json().items()}


def test_the_root_lists_every_route_of_the_api(listed):
    listed_segments = {path.removeprefix(PREFIX).split("/")[0] for path in listed.values()}
    missing = {
        name: segment for name, segment in routes().items() if segment not in listed_segments
    }
    assert not missing, f"the API root leaves out {missing}"


def test_the_root_lists_the_endpoints_the_issue_found_missing(listed):
    for name in (
        "volume-cost",
        "gp2-burst",
        "volume-prices",
        "volume-performance",
        "database-price-performance",
        "network-scaling",
    ):
        assert listed[name] == f"{PREFIX}{name}/"


def test_every_address_the_root_lists_answers_without_a_server_error(listed):
    client = APIClient()
    for name, path in listed.items():
        response = client.get(path)
        status = response.status_code
        # A question asked by POST only (fleets/: a file) says so: 405 naming POST.
        if status == 405 and response.get("Allow", "").startswith("POST"):
            continue
        # An endpoint that needs a question answers 400 naming what is missing, never 404 or 5xx.
        assert status in (200, 400), f"{name} ({path}) answered {status}"


def test_a_route_left_out_of_the_root_is_found(monkeypatch):
    from django.urls import path

    from api import views

    extra = path("left-out/", views.not_found, name="left-out")
    monkeypatch.setattr(urls, "urlpatterns", [extra, *urls.urlpatterns])
    assert routes()["left-out"] == "left-out"


def test_the_browsable_root_says_what_the_api_answers_with_a_link_a_line():
    html = APIClient().get(PREFIX, HTTP_ACCEPT="text/html").content.decode()
    assert "<h1>pricebench API</h1>" in html
    assert "ranks instance types per dollar" in html
    assert "The default basic root view" not in html
    links = re.findall(r"\n  &quot;([a-z0-9-]+)&quot;: &quot;<a href=", html)
    assert {"price-performance", "runs", "schema", "docs"} <= set(links)
    # JSON asked as JSON stays compact.
    assert APIClient().get(PREFIX).content.startswith(b'{"regions":"http://')
