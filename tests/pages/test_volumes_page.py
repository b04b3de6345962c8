"""The volume page in a real browser: study S4's volumes priced, the gp2 burst charted."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_study_s4s_volumes_are_priced_and_the_burst_is_charted(demo_site, page):
    page.goto(f"{demo_site.url}/volumes/?region=ap-northeast-1&at=2014-06-15")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    costs = page.locator("#volumes-table tbody td.usd").all_inner_texts()
    assert costs == ["88.20", "48.00", "12.00"]
    burst = page.locator("#volumes-table tbody td.burst").all_inner_texts()
    assert burst[1] == "3000 IOPS for 3000 s (50 min), then 1200"
    assert burst[2] == "3000 IOPS for 2000 s (33 min), then 300"
    assert page.locator("#burst-chart").bounding_box()["height"] > 100
    # Three lines: io1 flat at 1,000 IOPS, and the two gp2 volumes stepping down.
    last_points = page.evaluate(
        "() => Chart.getChart('burst-chart').data.datasets.map(d => d.data.at(-1).y)"
    )
    assert last_points == [1000, 1200, 300]
    assert "Study S4" in page.locator("#sources").inner_text()
    assert page.console_errors == []


def test_the_default_page_uses_the_nearest_prices_and_says_so(demo_site, page):
    page.goto(f"{demo_site.url}/volumes/")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert page.locator("#region").input_value() == "ap-northeast-1"
    assert "using the nearest known" in page.locator("#volumes-table").inner_text()
    assert page.locator("#cost-chart").bounding_box()["height"] > 100
    assert page.console_errors == []


def test_a_volume_aws_would_refuse_is_a_clear_error(demo_site, page):
    response = page.goto(f"{demo_site.url}/volumes/?volume_type_1=io1&size_gb_1=100")
    assert response.status == 400
    assert "iops_1: io1 volumes need their provisioned iops" in page.locator(".error").inner_text()


def test_a_volume_type_without_prices_says_so_in_its_row(demo_site, page):
    page.goto(f"{demo_site.url}/volumes/?region=ap-northeast-1&volume_type_1=st1&size_gb_1=500")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert (
        "no st1 storage price is known in ap-northeast-1"
        in page.locator("#volumes-table").inner_text()
    )
    assert page.console_errors == []
