"""The fleet page in Chromium at 1280 and 375 px: upload a FOCUS bill with the browser's own
progress, see the summary, the table and the now-vs-re-bought chart, download the CSV."""

import pytest

from tests.fleet.fleet_data import KEY, measure_fleet_types
from tests.fleet.focus_rows import acceptance_rows, focus_csv

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]


@pytest.fixture
def bill(tmp_path):
    measure_fleet_types()
    path = tmp_path / "focus-export.csv"
    path.write_text(focus_csv(acceptance_rows()))
    return path


@pytest.mark.parametrize("width", [1280, 375])
def test_a_bill_uploaded_on_the_page_is_answered_with_a_table_a_chart_and_a_csv(
    live_server, page, bill, width
):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{live_server.url}/fleet/")
    page.set_input_files("#fleet-file", str(bill))
    page.fill("#fleet-benchmark", KEY)
    page.click("#fleet-form button[type=submit]")
    page.wait_for_selector("#fleet-answer:not([hidden])")

    assert page.inner_text("#fleet-summary").startswith("Re-buying 2 of 2 lines")
    assert page.locator("#fleet-lines tbody tr").count() == 2
    assert "c7g.xlarge" in page.inner_text("#fleet-lines")
    # The browser's own upload progress reached the whole file.
    assert page.evaluate(
        "(() => { const p = document.getElementById('fleet-progress');"
        " return p.max > 1 && p.value === p.max; })()"
    )
    datasets = page.evaluate(
        "Chart.getChart('fleet-chart').data.datasets.map((set) => set.data.length)"
    )
    assert datasets == [2, 2]
    with page.expect_download() as download:
        page.click("#fleet-csv")
    text = open(download.value.path()).read()
    assert text.splitlines()[0].startswith("RegionId,SkuPriceDetails")
    assert "x_ReplacementInstanceType" in text.splitlines()[0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.console_errors == []


def test_a_bad_file_is_named_on_the_page(live_server, page, tmp_path):
    bad = tmp_path / "notes.csv"
    bad.write_text("hello,world\n1,2\n")
    page.goto(f"{live_server.url}/fleet/")
    page.set_input_files("#fleet-file", str(bad))
    page.click("#fleet-form button[type=submit]")
    # A function, not an expression: Playwright polls an expression with eval, which the
    # page's Content-Security-Policy refuses whenever the first check comes too early.
    page.wait_for_function(
        "() => document.getElementById('fleet-status').textContent.includes('Not')"
    )

    assert "not a fleet file" in page.inner_text("#fleet-status")
    assert page.locator("#fleet-answer").is_hidden()


def test_the_site_navigation_links_the_fleet_page(live_server, page):
    page.goto(f"{live_server.url}/")
    assert page.locator("#site-menu a[href='/fleet/']").count() == 1


def test_the_benchmarks_own_parameters_in_the_address_are_asked_with_the_file(
    live_server, page, bill
):
    page.goto(f"{live_server.url}/fleet/?benchmark={KEY}&threads=4")
    assert page.input_value("#fleet-params") == "threads=4"
    page.set_input_files("#fleet-file", str(bill))
    page.click("#fleet-form button[type=submit]")
    page.wait_for_selector("#fleet-status:has-text('Not re-bought')")

    # openssl:sha256 was measured without threads: the API names the parameter it was given.
    assert "threads" in page.inner_text("#fleet-status")
    page.fill("#fleet-params", "")
    page.click("#fleet-form button[type=submit]")
    page.wait_for_selector("#fleet-answer:not([hidden])")
    assert page.inner_text("#fleet-summary").startswith("Re-buying 2 of 2 lines")
