"""Compare in Chromium across clouds (`make run`'s SQLite with Hetzner's and Google Cloud's
families): each type priced in its own cloud, a readable title, a menu per vendor."""

import re

import pytest

pytestmark = pytest.mark.browser

CLOUDS = "/compare/?types=c7g.large,cax11,t2d-standard-2"


def priced_in(page) -> list[str]:
    return page.locator("#priced-in td").all_inner_texts()


def test_each_type_is_priced_in_its_own_cloud_and_ranked_by_those_prices(sqlite_clouds_site, page):
    response = page.goto(f"{sqlite_clouds_site}{CLOUDS}")
    assert response.status == 200
    assert page.title() == "Compare c7g.large, cax11, t2d-standard-2 · pricebench"
    aws, hetzner, google = priced_in(page)
    assert aws == "us-east-1"
    assert hetzner.endswith("(its cheapest)") and "us-east-1" not in hetzner
    assert google.endswith("(its cheapest)") and "us-east-1" not in google
    # Every type has its on-demand price, none the "—" of a region not its own.
    prices = page.locator('tr[data-price="on_demand"] td').all_inner_texts()
    assert len(prices) == 3 and "—" not in prices
    answer = page.inner_text("#compare-answer")
    assert re.match(r"On the \d+ benchmarks all 3 types share, cax11 buys the most", answer)
    assert page.console_errors == []


def test_a_vendors_menu_chooses_the_region_its_types_are_priced_in(sqlite_clouds_site, page):
    page.goto(f"{sqlite_clouds_site}{CLOUDS}")
    menus = page.locator("select[name=regions]")
    vendors = menus.evaluate_all("menus => menus.map(m => m.dataset.vendor)")
    assert vendors == ["aws", "hcloud", "gcp"]
    assert page.input_value("select[data-vendor=hcloud]") == "hcloud:cheapest"
    page.select_option("select[data-vendor=hcloud]", "hcloud:hel1")
    with page.expect_navigation():
        page.click("#show")
    assert "regions=aws%3Aus-east-1&regions=hcloud%3Ahel1" in page.url
    assert priced_in(page)[1] == "hel1"
    assert page.input_value("select[data-vendor=hcloud]") == "hcloud:hel1"
    assert page.console_errors == []


def test_types_ticked_in_the_finder_are_priced_where_the_finder_priced_them(
    sqlite_clouds_site, page
):
    page.goto(f"{sqlite_clouds_site}/instance-types/?family=c7g&region=ap-northeast-1")
    for name in ("c7g.large", "c7g.xlarge"):
        page.check(f'#finder-table input[name="types"][value="{name}"]')
    with page.expect_navigation():
        page.click("#compare-selected")
    assert "region=ap-northeast-1" in page.url
    assert priced_in(page) == ["ap-northeast-1", "ap-northeast-1"]
    assert page.console_errors == []
