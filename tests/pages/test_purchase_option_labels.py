"""Compare (`/compare/`) and the finder name purchase options as the comparison page does
("On-demand", "Spot": models.prices.purchase_label), never by the parameter's value
(`on_demand`), on `make run`'s SQLite site."""

import re

import pytest

from benchmarks.models.prices import PurchaseOption

pytestmark = pytest.mark.browser

S2 = "/compare/?types=c7g.xlarge,c7a.xlarge,c7i.xlarge&baseline=c7a.xlarge"
# A purchase option's value where a person reads it.
RAW = re.compile(rf"\b({'|'.join(PurchaseOption.values)})\b")


def menu(page) -> list[tuple[str, str]]:
    return page.locator("#purchase_option option").evaluate_all(
        "options => options.map(o => [o.value, o.textContent.trim()])"
    )


def assert_labelled(page):
    assert [label for _, label in menu(page)] == [
        PurchaseOption(value).label for value, _ in menu(page)
    ]
    text = page.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)


def test_compare_names_the_prices_by_their_labels(sqlite_site, page):
    page.goto(f"{sqlite_site}{S2}")
    page.wait_for_selector("#compare-table")
    assert_labelled(page)
    hourly = page.locator('#specs tr[data-price="on_demand"] th').inner_text()
    assert hourly.startswith("On-demand per hour")
    assert "uses On-demand prices of us-east-1" in page.locator("main").inner_text()


def test_the_finder_names_the_price_by_its_label(sqlite_site, page):
    page.goto(f"{sqlite_site}/instance-types/?purchase_option=spot")
    page.wait_for_selector("#finder-table")
    assert_labelled(page)
    assert "its Spot price in us-east-1" in page.locator(".lede").inner_text()
