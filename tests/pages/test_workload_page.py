"""`/workload/` in Chromium at 1280 and 375 px: the link's figures posted, the ranked chart with
interval bars, the model's benchmarks, the validation line, a link back and a CSV; nothing
wider than a phone's screen."""

import pytest

from tests.api.test_workload_predict import stored  # noqa: F401 (the fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("reference_data"),
]

QUESTION = "figures=wl1.large+20%0Awl3.large+60%0Awl5.large+100%0Awl7.large+140&unit=req%2Fs"


@pytest.mark.parametrize("width", [1280, 375])
def test_the_page_draws_the_prediction_from_its_link(browser, live_server, stored, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/workload/?{QUESTION}")
    page.wait_for_selector("#workload-answer:not([hidden])")
    assert "wltest:alpha" in page.locator("#workload-model").inner_text()
    assert "leave-one-out on your 4 figures" in page.locator("#workload-validation").inner_text()
    assert page.locator("#workload-table tbody tr").count() == 8
    assert page.evaluate("Chart.getChart('workload-chart').data.datasets[0].data[0].xMax") > 0
    assert "wl1.large" in page.locator("#workload-link").get_attribute("href")
    assert page.locator("#workload-csv").get_attribute("href").startswith("blob:")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    context.close()


def test_bad_figures_are_said_on_the_page(browser, live_server, stored):  # noqa: F811
    page = browser.new_page()
    page.goto(f"{live_server.url}/workload/?figures=wl1.large+20%0Anosuch.type+5")
    page.wait_for_selector("#workload-error:not([hidden])")
    assert "nosuch.type" in page.locator("#workload-error").inner_text()
    page.close()
