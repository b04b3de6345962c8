"""The landing answers on the first screen, at a desktop's and a phone's size: the answer
sentence and the first chart without scrolling, families picked without a reload, a date typed
without a page per key.

Screenshots are kept under var/test-artefacts/screenshots/ (var/ is not committed).
"""

from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "test-artefacts" / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (375, 667)}
READY = "body[data-charts-ready=true]:not([data-answer-loading])"


def open_landing(browser, size: str, path: str = "/", *, url: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda error: page.console_errors.append(str(error)))
    page.goto(url + path)
    page.wait_for_selector(READY, timeout=15000)
    return context, page


@pytest.mark.parametrize("size", list(SIZES))
def test_the_answer_sentence_and_the_first_chart_are_on_the_first_screen(demo_site, browser, size):
    context, page = open_landing(browser, size, url=demo_site.url)
    width, height = SIZES[size]
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"first-screen-{width}x{height}.png"))
        answer = page.locator('[data-role="answer"]').bounding_box()
        assert answer is not None, "no answer sentence"
        assert answer["y"] >= 0 and answer["y"] + answer["height"] <= height, answer
        assert answer["x"] >= 0 and answer["x"] + answer["width"] <= width, answer
        chart = page.locator("#per-dollar-chart").bounding_box()
        # The chart starts on the first screen, and a good part of it is there: its first bars.
        visible = min(height, chart["y"] + chart["height"]) - chart["y"]
        assert visible >= min(200, chart["height"]), (size, chart)
        assert chart["x"] >= 0 and chart["x"] + chart["width"] <= width, (size, chart)
        # Nothing wider than the screen (no sideways scrolling).
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.console_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_other_clouds_leave_the_first_chart_on_the_first_screen(sqlite_clouds_site, browser, size):
    """With other clouds' prices the question has a "Rank with" box, a date and a method too:
    folded under More, they leave the first chart's bars on the first screen (issue 54)."""
    context, page = open_landing(browser, size, url=sqlite_clouds_site)
    width, height = SIZES[size]
    try:
        assert page.locator("#clouds").count() == 1 and not page.locator("#clouds").is_visible()
        answer = page.locator('[data-role="answer"]').bounding_box()
        assert answer["y"] + answer["height"] <= height, (size, answer)
        chart = page.locator("#per-dollar-chart").bounding_box()
        assert min(height, chart["y"] + chart["height"]) - chart["y"] >= 100, (size, chart)
        if size == "desktop":
            assert chart["y"] <= height / 2 + 120, (size, chart)
    finally:
        context.close()


def test_the_site_menu_is_folded_on_a_phone_and_open_on_a_desktop(demo_site, browser):
    for size, folded in (("phone", True), ("desktop", False)):
        context, page = open_landing(browser, size, url=demo_site.url)
        try:
            assert page.locator("#site-menu nav").is_visible() is not folded, size
            if folded:
                page.click("#site-menu summary")
                assert page.locator("#site-menu nav >> text=Instance types").is_visible()
        finally:
            context.close()


def bars(page) -> list[str]:
    return page.evaluate("() => Chart.getChart('per-dollar-chart').data.labels")


def test_a_family_is_chosen_without_a_reload_and_the_address_follows(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector(READY, timeout=15000)
    benchmark = page.locator("#benchmark").input_value()
    # No page is loaded: the answer is fetched (a "fetch" request, not a "document" one).
    documents = []
    page.on(
        "request", lambda request: request.resource_type == "document" and documents.append(request)
    )
    page.evaluate("window.notReloaded = true")
    before = bars(page)
    page.click("#family-picker summary")
    page.fill("#family-search", "c7g")
    assert page.locator("#families label.check:visible").count() == 1
    # Graviton only, through its preset: every other family unticked.
    page.locator('#family-presets a[data-preset="graviton"]').click()
    page.wait_for_selector(READY)
    page.wait_for_function("() => !document.body.dataset.answerLoading")
    after = bars(page)
    assert after and after != before
    families = {label.lstrip("★ ").split(".")[0] for label in after}
    assert families <= {"c7g", "c6g", "c8g", "m7g", "t4g", "r7g", "m6g", "c6gn", "c7gn"}, families
    assert page.evaluate("window.notReloaded") is True
    assert documents == []
    query = parse_qs(urlparse(page.url).query)
    assert "c7g" in query["families"][0].split(",")
    assert query["benchmark"] == [benchmark]
    # The table and the sentence answer the new question too.
    types = page.locator("#results-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.instanceType.split('.')[0])"
    )
    assert set(types) == families
    # A checkbox ticked by hand redraws as well.
    page.fill("#family-search", "t2")
    page.check("#family-t2")
    page.wait_for_function("() => location.search.includes('t2')")
    page.wait_for_selector(READY)
    assert any(label.lstrip("★ ").startswith("t2.") for label in bars(page))
    assert page.evaluate("window.notReloaded") is True and documents == []
    assert page.console_errors == []


def test_the_presets_are_links_that_work_without_scripts(demo_site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1")
        href = page.locator('#family-presets a[data-preset="burstable"]').get_attribute("href")
        assert "families=t2" in href
        page.goto(f"{demo_site.url}/{href}")
        types = page.locator("#results-table tbody tr").evaluate_all(
            "rows => rows.map(row => row.dataset.instanceType)"
        )
        assert types and all(name.startswith("t") for name in types), types
    finally:
        context.close()


def test_a_typed_date_is_asked_for_once_on_enter(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1")
    page.wait_for_selector(READY, timeout=15000)
    requests = []
    page.on(
        "request",
        lambda request: request.resource_type == "document" and requests.append(request.url),
    )
    page.click("#more-options summary")  # the date is under More, at every width
    page.focus("#at")  # the month first, in the en-US layout: mm/dd/yyyy
    page.keyboard.type("01152018")
    page.wait_for_timeout(300)
    assert requests == [], "the page was asked for while the date was typed"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert len(requests) == 1
    assert "at=2018-01-15" in page.url
    assert page.console_errors == []


def test_a_baseline_far_below_the_others_gets_a_readable_logarithmic_axis(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector(READY, timeout=15000)
    # Against the type with the smallest median, dozens of types pass 400% of its throughput.
    smallest = page.evaluate(
        "() => { const data = JSON.parse(document.getElementById('chart-data').textContent);"
        " return data.rows.filter(r => r.median).sort((a, b) => a.median - b.median)[0].key; }"
    )
    page.goto(f"{page.url.split('#')[0]}&baseline={smallest}")
    page.wait_for_selector(READY, timeout=15000)
    assert "logarithmic axis" in page.locator("#baseline-log").inner_text()
    assert page.evaluate("Chart.getChart('baseline-chart').scales.x.type") == "logarithmic"
    labels = page.evaluate(
        "Chart.getChart('baseline-chart').scales.x.ticks.map(t => t.label).filter(Boolean)"
    )
    # 1, 2 and 5 times a power of ten only: labels that do not overlap.
    assert labels and all(label.rstrip("%").lstrip("0.")[0] in "125" for label in labels), labels
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#baseline-figure").screenshot(path=str(SCREENSHOTS / "baseline-chart.png"))
    assert page.console_errors == []


def test_on_a_phone_the_family_picker_opens_within_the_screen(demo_site, browser):
    context, page = open_landing(browser, "phone", url=demo_site.url)
    try:
        page.click("#family-picker summary")
        panel = page.locator(".family-panel").bounding_box()
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= SIZES["phone"][0], panel
        assert page.locator("#family-presets a").count() >= 3
        page.screenshot(path=str(SCREENSHOTS / "family-picker-375x667.png"))
        assert page.console_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_workload_answers_on_the_first_screen(demo_site, browser, size):
    context, page = open_landing(browser, size, "/?profile=crypto", url=demo_site.url)
    width, height = SIZES[size]
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"profile-crypto-{width}x{height}.png"))
        answer = page.locator('[data-role="answer"]').bounding_box()
        assert answer["y"] >= 0 and answer["y"] + answer["height"] <= height, answer
        chart = page.locator("#profile-chart").bounding_box()
        visible = min(height, chart["y"] + chart["height"]) - chart["y"]
        assert visible >= min(200, chart["height"]), (size, chart)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.console_errors == []
    finally:
        context.close()


def test_a_workload_is_chosen_in_the_same_bar_and_answered_on_the_first_screen(demo_site, browser):
    context, page = open_landing(browser, "desktop", url=demo_site.url)
    try:
        page.select_option("#benchmark", "profile:crypto")
        page.wait_for_url("**profile=crypto**")
        page.wait_for_selector(READY, timeout=15000)
        page.screenshot(path=str(SCREENSHOTS / "profile-crypto-1280x800.png"))
        answer = page.locator('[data-role="answer"]')
        assert answer.inner_text().startswith("For Crypto work, ")
        box = answer.bounding_box()
        assert box["y"] + box["height"] <= SIZES["desktop"][1]
        chart = page.locator("#profile-chart").bounding_box()
        assert SIZES["desktop"][1] - chart["y"] >= 200, chart
        labels = page.evaluate("() => Chart.getChart('profile-chart').data.labels")
        rows = page.locator("#results-table tbody tr").evaluate_all(
            "rows => rows.map(row => row.dataset.instanceType)"
        )
        assert labels and labels == rows[: len(labels)]
        # The family picker answers without a reload here too.
        page.evaluate("window.notReloaded = true")
        page.click("#family-picker summary")
        page.locator('#family-presets a[data-preset="graviton"]').click()
        page.wait_for_function("() => !document.body.dataset.answerLoading")
        page.wait_for_selector(READY)
        labels = page.evaluate("() => Chart.getChart('profile-chart').data.labels")
        # The demo's first part holds two Graviton families: c7g, and c6g (the source of the
        # estimated arm64 Fargate rows, docs/fargate.md).
        assert labels and {label.split(".")[0] for label in labels} == {"c7g", "c6g"}
        assert page.evaluate("window.notReloaded") is True
        assert "profile=crypto" in page.url and "c7g" in page.url
        assert page.console_errors == []
    finally:
        context.close()
