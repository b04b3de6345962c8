"""The comparison page's vendor picker in Chromium: ticking another cloud and pressing Show
ranks its region with the page's region, each row naming its region; a preset asks the
whole cross-cloud question (issue 28, item 5)."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.models import InstanceType, Vendor
from tests.commands.test_hetzner_prices import OCTOBER, SAMPLE, run_import
from tests.selectors.test_price_performance import price, run_with

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]


@pytest.fixture
def two_clouds():
    """Hetzner's cx22 and cax11 with PassMark and prices in six locations; c7g.large with
    its price in us-east-1."""
    for name in ("cx22", "cax11"):
        InstanceType.objects.create(
            vendor=Vendor.HCLOUD, name=name, kind="vm", vcpus=2, memory_gib=Decimal(4)
        )
    run_with("cx22", [7000.0], key="passmark:cpu-mark", region=None)
    run_with("cax11", [6000.0], key="passmark:cpu-mark", region=None)
    run_with("c7g.large", [9500.0], key="passmark:cpu-mark", region=None)
    InstanceType.objects.filter(name="c7g.large").update(vcpus=2, memory_gib=Decimal(4))
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    run_import(SAMPLE, "--as-of", OCTOBER)


def regions_of_rows(page) -> dict[str, str]:
    return page.eval_on_selector_all(
        "#results-table tbody tr",
        "rows => Object.fromEntries(rows.map(row => [row.dataset.instanceType,"
        " row.querySelectorAll('td')[0].textContent]))",
    )


def test_ticking_hetzner_and_showing_ranks_both_clouds(live_server, page, two_clouds):
    page.goto(
        f"{live_server.url}/?benchmark=passmark:cpu-mark&region=us-east-1&at=2024-10-15&families="
    )
    page.wait_for_selector("#results-table")
    assert page.locator("#results-table tbody tr").count() == 1
    page.evaluate("document.getElementById('more-options').open = true")
    box = page.locator('#clouds input[data-vendor="hcloud"]')
    assert box.get_attribute("value") == "hcloud:fsn1"
    # Each choice shows at once (controls.js): the box, then the currency.
    with page.expect_navigation():
        box.check()
    page.wait_for_selector("#results-table th:text('Region')")
    with page.expect_navigation():
        page.select_option("#currency", "EUR")
    page.wait_for_selector("#results-table th:text('EUR/h')")
    assert page.locator('#clouds input[data-vendor="hcloud"]').is_checked()
    assert regions_of_rows(page) == {
        "c7g.large": "aws:us-east-1",
        "cx22": "hcloud:fsn1",
        "cax11": "hcloud:fsn1",
    }
    assert "regions=aws%3Aus-east-1%2Chcloud%3Afsn1" in page.url and "currency=EUR" in page.url
    assert page.locator("#results-table th:text('EUR/h')").count() == 1
    assert page.console_errors == []


def test_the_cheapest_preset_lists_the_shape_cheapest_first(live_server, page, two_clouds):
    page.goto(f"{live_server.url}/?benchmark=passmark:cpu-mark&region=us-east-1&at=2024-10-15")
    page.wait_for_selector("#results-table")
    page.evaluate("document.getElementById('more-options').open = true")
    page.locator('#cloud-presets a[data-preset="two-by-four"]').click()
    page.wait_for_selector("#results-table th:text('Region')")
    names = page.eval_on_selector_all(
        "#results-table tbody tr", "rows => rows.map(row => row.dataset.instanceType)"
    )
    assert names == ["cx22", "cax11", "c7g.large"]
    assert page.locator("[data-role=answer]").inner_text().startswith("The cheapest is cx22")
    assert page.console_errors == []
