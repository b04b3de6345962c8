"""The comparison page explored as a new user would: every control, charts against the API,
the frontier, the CSV export, and the page at a desktop's and a phone's width.

Screenshots are kept under var/test-artefacts/screenshots/ (var/ is not committed).
"""

import csv
import io
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest
from django.conf import settings

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "test-artefacts" / "screenshots"
READY = "body[data-charts-ready=true], #comparison-form"


def choose(page, selector: str, value: str):
    """Pick a menu value as a person would (opening More, where most menus are folded); the
    page reloads with the new question."""
    page.evaluate("document.getElementById('more-options')?.setAttribute('open', '')")
    with page.expect_navigation() as navigation:
        page.select_option(selector, value)
    response = navigation.value
    page.wait_for_selector(READY)
    return response


def options(page, selector: str) -> list[str]:
    return page.locator(f"{selector} option").evaluate_all("os => os.map(o => o.value)")


def assert_page_works(page, response, what: str):
    assert response.status == 200, f"{what}: status {response.status} at {page.url}"
    assert page.locator(".error").count() == 0, (
        f"{what}: {page.locator('.error').all_inner_texts()}"
    )
    assert page.console_errors == [], f"{what}: {page.console_errors}"


def test_every_benchmark_can_be_chosen_from_any_other_in_every_region(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]")
    benchmarks = options(page, "#benchmark")
    assert len(benchmarks) > 5
    # Each benchmark after the one before it: the previous one's parameters never reach it.
    # Every region is tried on three benchmarks of different tools (every pair of benchmark
    # and region would be hundreds of pages for the same code path).
    with_regions = {benchmarks[0], benchmarks[len(benchmarks) // 2], benchmarks[-1]}
    for benchmark in [*benchmarks, benchmarks[0]]:
        response = choose(page, "#benchmark", benchmark)
        assert_page_works(page, response, f"benchmark {benchmark}")
        assert page.locator("#benchmark").input_value() == benchmark
        if benchmark not in with_regions:
            continue
        with_regions.discard(benchmark)
        for region in options(page, "#region"):
            response = choose(page, "#region", region)
            assert_page_works(page, response, f"{benchmark} in {region}")
            assert page.locator("#region").input_value() == region


def test_a_foreign_parameter_is_dropped_with_a_note(demo_site, page):
    response = page.goto(
        f"{demo_site.url}/?benchmark=keycloak:oauth2-login&region=us-east-1&block_size=16384"
    )
    assert response.status == 200
    notes = page.locator("#notes").inner_text()
    assert "block_size=16384 does not apply to keycloak:oauth2-login: dropped." in notes
    # The address holds the question as answered, without the dropped parameter.
    query = parse_qs(urlparse(page.url).query)
    assert query["benchmark"] == ["keycloak:oauth2-login"] and "block_size" not in query


def test_each_control_in_turn_keeps_the_page_working(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    for option in options(page, "#purchase_option"):
        assert_page_works(page, choose(page, "#purchase_option", option), f"price {option}")
    assert_page_works(page, choose(page, "#purchase_option", "on_demand"), "back to on_demand")
    for name in page.locator("[data-param]").evaluate_all("fs => fs.map(f => f.id)"):
        for value in options(page, f"#{name}"):
            if page.locator(f"#{name}").count():
                assert_page_works(page, choose(page, f"#{name}", value), f"{name}={value}")
    page.evaluate("document.getElementById('more-options').open = true")
    with page.expect_navigation() as navigation:
        page.fill("#at", "2018-01-15")
        page.dispatch_event("#at", "change")
    assert_page_works(page, navigation.value, "a date")
    assert "at=2018-01-15" in page.url
    for region in options(page, "#measured_in"):
        assert_page_works(page, choose(page, "#measured_in", region), f"measured in {region!r}")
    baselines = [value for value in options(page, "#baseline") if value]
    assert_page_works(page, choose(page, "#baseline", baselines[-1]), "a baseline")
    assert page.locator("#baseline-chart").count() == 1
    # A family unticked redraws the answer in place (tests/pages/test_first_screen.py).
    page.click("#family-picker summary")
    page.locator("#families input[type=checkbox]").first.click()
    page.wait_for_selector("body[data-charts-ready=true]:not([data-answer-loading])")
    assert page.locator(".error").count() == 0 and page.console_errors == []
    # The view toggles redraw in place and keep their state in the address.
    page.check("#per-vcpu")
    page.check("#log-scale")
    assert page.evaluate("Chart.getChart('median-chart').options.scales.x.type") == "logarithmic"
    assert "per_vcpu=1" in page.url and "scale=log" in page.url
    page.reload()
    page.wait_for_selector("body[data-charts-ready=true]")
    assert page.is_checked("#per-vcpu") and page.is_checked("#log-scale")
    assert page.console_errors == []


def test_the_controls_are_labelled_and_work_from_the_keyboard(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]")
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll(
                 '#comparison-form select, #comparison-form input, #toolbar input')]
             .filter(f => f.type !== 'hidden' && !f.labels.length).map(f => f.name || f.id)"""
    )
    assert unlabelled == []
    region = page.locator("#region").input_value()
    page.focus("#region")
    with page.expect_navigation():
        page.keyboard.press("ArrowDown" if options(page, "#region")[0] == region else "ArrowUp")
    assert page.locator("#region").input_value() != region


def test_the_default_view_draws_a_bar_per_type_matching_the_api(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]")
    summary = page.locator("#summary").inner_text()
    assert "No results yet for fargate" in summary
    rows = page.locator("#results-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.key)"
    )
    # A bar with error bars is a point {x, xMin, xMax}: its figure is x.
    bars = page.evaluate(
        "Chart.getChart('per-dollar-chart').data.datasets[0].data"
        ".map(p => (p && typeof p === 'object') ? p.x : p)"
    )
    assert len(bars) == len(rows) > 10
    assert bars == sorted(bars, reverse=True)
    api_url = demo_site.url + page.locator("#api-link").get_attribute("href")
    api = page.request.get(api_url).json()
    by_key = {
        row["instance_type"] + (":" + row["variant"] if row["variant"] else ""): row
        for row in api["results"]
    }
    assert set(by_key) == set(rows)
    assert sorted(bars, reverse=True) == sorted(
        (row["per_dollar"] for row in api["results"]), reverse=True
    )
    # The best choice is the first bar, starred.
    first = page.evaluate("Chart.getChart('per-dollar-chart').data.labels[0]")
    assert first.startswith("★ ")
    medians = page.evaluate(
        "Chart.getChart('median-chart').data.datasets[0].data.map(p => [p.x, p.xMin, p.xMax])"
    )
    assert all(low <= median <= high for median, low, high in medians)
    # One colour per family, the same in the bars, the scatter and the legends.
    colours = page.evaluate(
        """() => {
          const bar = Chart.getChart('per-dollar-chart');
          const legend = Object.fromEntries(bar.legend.legendItems.map(i => [i.text, i.fillStyle]));
          const labels = bar.data.labels.map(l => l.replace('★ ', ''));
          return labels.map((label, i) => [label, bar.data.datasets[0].backgroundColor[i], legend]);
        }"""
    )
    for label, colour, legend in colours:
        assert legend[label.split(".")[0].split("-")[0].split(" ")[0]] == colour, label
    legends = page.evaluate(
        """() => ['per-dollar-chart', 'median-chart', 'price-chart', 'spread-chart'].map(id =>
             Object.fromEntries(Chart.getChart(id).legend.legendItems
               .filter(i => i.datasetIndex === undefined && !i.text.includes(' '))
               .map(i => [i.text, i.fillStyle])))"""
    )
    assert legends[0] and all(legend == legends[0] for legend in legends)
    assert page.console_errors == []


def test_the_scatter_marks_the_types_no_other_beats(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1&families=")
    page.wait_for_selector("body[data-charts-ready=true]")
    points = page.evaluate(
        "Chart.getChart('price-chart').data.datasets[1].data.map(p => [p.key, p.x, p.y])"
    )
    marked = page.evaluate("Chart.getChart('price-chart').data.datasets[0].data.map(p => p.key)")

    def beaten(price, value):
        return any(
            other_price <= price
            and other_value >= value
            and (other_price, other_value) != (price, value)
            for _, other_price, other_value in points
        )

    expected = [
        key
        for key, price, value in sorted(points, key=lambda p: (p[1], -p[2]))
        if not beaten(price, value)
    ]
    assert len(points) > len(marked) >= 2
    assert marked == expected
    table = page.locator("#frontier-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.frontier)"
    )
    assert table == marked


def test_the_csv_export_holds_the_tables_rows(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1&families=")
    page.wait_for_selector("body[data-charts-ready=true]")
    with page.expect_download() as download:
        page.click("#table-csv")
    text = Path(download.value.path()).read_text()
    exported = list(csv.DictReader(io.StringIO(text)))
    table = page.locator("#results-table tbody tr").evaluate_all(
        """rows => rows.map(row => [row.dataset.instanceType,
                                    row.children[1].innerText.trim(),
                                    row.children[2].innerText.trim().split(' ')[0],
                                    row.dataset.usdPerHour])"""
    )
    assert [
        [row["instance_type"], row["variant"], row["runs"], row["usd_per_hour"]] for row in exported
    ] == table


def test_the_permalink_and_png_buttons_give_the_view(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    page.check("#log-scale")
    page.click("#copy-link")
    # Copied to the clipboard, or shown to copy by hand where the browser does not allow it.
    # (A locator's wait: wait_for_function evaluates its text with eval, which the page's
    # Content-Security-Policy refuses whenever the first check comes too early.)
    page.locator("#copied", has_text=": ").wait_for()
    link = page.locator("#copied").inner_text().split(": ", 1)[1]
    assert (
        "benchmark=openssl%3Aaes-128-gcm" in link and "at=" in link and link.endswith("#scale=log")
    )
    with page.expect_download() as download:
        page.click("[data-png=price-chart]")
    name = download.value.suggested_filename
    assert name.startswith("pricebench_openssl-aes-128-gcm_price-chart_") and name.endswith(".png")
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("width", [1400, 375])
def test_the_page_fits_a_desktop_and_a_phone(demo_site, page, width):
    page.set_viewport_size({"width": width, "height": 900})
    for name, query in [
        ("default", ""),
        ("s1", "?benchmark=openssl:aes-128-gcm&region=us-east-1&at=2017-12-13&families="),
        ("s2", "?benchmark=keycloak:oauth2-login&region=ap-northeast-1&baseline=c7a.xlarge:base"),
    ]:
        page.goto(f"{demo_site.url}/{query}")
        page.wait_for_selector("body[data-charts-ready=true]")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        for chart in page.locator("canvas").evaluate_all("cs => cs.map(c => c.id)"):
            box = page.locator(f"#{chart}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (name, chart)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"comparison-{name}-{width}.png", full_page=True)
    assert page.console_errors == []


def test_study_s1_shows_fargate_generations_apart_and_t2_nano_burst_and_sustained(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]")
    with page.expect_navigation():
        page.click("#studies [data-study=S1]")
    page.wait_for_selector("body[data-charts-ready=true]")
    fargate = page.locator('#results-table tr[data-instance-type="fargate-1vcpu-2gb"]').inner_text()
    assert "E5-2670 v2" in fargate and "E5-2686 v4" in fargate
    # In the spread chart the two generations of one task size sit on separate lines.
    lines = page.evaluate(
        """() => Chart.getChart('spread-chart').data.datasets.map(d => [d.label,
             [...new Set(d.data.filter(p => p.key === 'fargate-1vcpu-2gb').map(p => p.y))]])"""
    )
    rows = {label: ys for label, ys in lines if ys}
    assert len(rows) >= 2
    assert len({y for ys in rows.values() for y in ys}) == len(rows)
    # t2.nano: its bar at what it sustains once its CPU credits are spent (5% of a vCPU),
    # and a striped one while they last.
    bar = page.evaluate(
        """() => { const c = Chart.getChart('per-dollar-chart');
                   const i = c.data.labels.findIndex(l => l.endsWith('t2.nano'));
                   const figure = (p) => (p && typeof p === 'object') ? p.x : p;
                   return c.data.datasets.map(d => figure(d.data[i])); }"""
    )
    assert len(bar) == 2 and bar[1] > bar[0] > 0
    assert bar[1] / bar[0] == pytest.approx(20, rel=1e-3)
    assert page.console_errors == []


def test_study_s2_reads_97_percent_of_the_throughput_at_70_percent_of_the_cost(demo_site, page):
    page.goto(f"{demo_site.url}/")
    page.wait_for_selector("body[data-charts-ready=true]")
    with page.expect_navigation():
        page.click("#studies [data-study=S2]")
    page.wait_for_selector("body[data-charts-ready=true]")
    assert page.locator("#baseline").input_value() == "c7a.xlarge:base"
    summary = page.locator("#baseline-summary").inner_text()
    assert "c7g.xlarge (accp) gives 97% of the throughput at 70% of the cost" in summary
    relative = page.evaluate(
        """() => { const c = Chart.getChart('baseline-chart');
                   const i = c.data.labels.indexOf('c7g.xlarge (accp)');
                   return c.data.datasets.map(d => Math.round(d.data[i] * 100)); }"""
    )
    assert relative == [97, 70, 138]
    assert page.console_errors == []
