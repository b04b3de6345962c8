"""The pages work in a real browser under the Content-Security-Policy (no violation)."""

import pytest

from benchmarks.services.demo import load_demo

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]


@pytest.fixture
def demo(reference_data):
    load_demo()


def test_picking_a_benchmark_submits_the_form_without_inline_code(live_server, page, demo):
    page.goto(f"{live_server.url}/")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    page.select_option("#benchmark", "openssl:aes-128-gcm")
    page.wait_for_url("**benchmark=openssl%3Aaes-128-gcm**", timeout=15000)
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert page.console_errors == []


def test_the_api_docs_render_under_their_policy(live_server, page):
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    assert "pricebench API" in page.locator(".swagger-ui .info .title").inner_text()
    assert [error for error in page.console_errors if "Content Security Policy" in error] == []
