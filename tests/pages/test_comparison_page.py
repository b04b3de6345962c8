"""The comparison page in a real browser: Chart.js draws the demo data."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_the_default_page_charts_t2_and_c7_families_per_dollar(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert page.locator("#per-dollar-chart").bounding_box()["height"] > 100
    types = page.locator("#results-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.instanceType)"
    )
    families = {name.split(".")[0] for name in types}
    assert {"t2", "c7g", "c7a", "c7i"} <= families
    assert "Spare Cores" in page.locator("#sources").inner_text()
    assert "fargate" in page.locator("#families-missing").inner_text()
    assert page.console_errors == []


def test_picking_study_s1s_benchmark_shows_fargate_and_its_cpu_spread(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1&at=2017-12-13")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    row = page.locator('#results-table tr[data-instance-type="fargate-1vcpu-2gb"]')
    text = row.inner_text()
    assert "E5-2670 v2" in text and "E5-2686 v4" in text
    nano = page.locator('#results-table tr[data-instance-type="t2.nano"]').inner_text()
    assert "baseline 5% of a vCPU" in nano
    # The spread chart holds one point per run.
    points = page.evaluate(
        "() => Chart.getChart('spread-chart').data.datasets"
        ".filter(d => d.label !== 'median').reduce((n, d) => n + d.data.length, 0)"
    )
    assert points == 11  # 10 Fargate runs and 1 t2.nano run (default families)
    assert page.console_errors == []


def test_a_bad_query_is_a_clear_error(demo_site, page):
    response = page.goto(f"{demo_site.url}/?benchmark=openssl:nope")
    assert response.status == 400
    assert "unknown benchmark" in page.locator(".error").inner_text()


def test_study_s2_reads_more_per_dollar_for_accp_on_c7g(demo_site, page):
    page.goto(
        f"{demo_site.url}/?benchmark=keycloak:oauth2-login&region=ap-northeast-1"
        "&baseline=c7a.xlarge:base"
    )
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    row = page.locator('#results-table tr[data-instance-type="c7g.xlarge"]').first
    cells = row.locator("td.relative").all_inner_texts()
    assert cells == ["97%", "70%", "138%"]
    summary = page.locator("#baseline-summary").inner_text()
    assert "c7g.xlarge (accp) gives 97% of the throughput at 70% of the cost" in summary
    assert page.locator("#baseline").input_value() == "c7a.xlarge:base"
    assert ".large sizes" in page.locator("#sources").inner_text()


def test_benchmark_parameters_are_named_as_in_the_api(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1&block_size=1024")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert "block_size=1024" in page.locator("#summary").inner_text()
    assert page.locator("#param-block_size").input_value() == "1024"
