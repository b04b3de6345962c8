"""The finder table and the compare page in a real browser, on the demo: a buyer's few clicks
(arm64, 2-4 vCPUs, not burstable, per dollar of openssl:aes-256-cbc), the CSV of exactly
those rows, the column picker, and three types side by side against a baseline."""

import csv
import io

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def shown_names(page) -> list[str]:
    return page.locator("#finder-table tbody tr[data-instance-type]").evaluate_all(
        "rows => rows.map(r => r.dataset.instanceType)"
    )


def test_the_finder_filters_sorts_and_exports_exactly_what_it_shows(demo_site, page):
    page.goto(f"{demo_site.url}/instance-types/")
    page.select_option("#architecture", "arm64")
    page.fill("#vcpus_min", "2")
    page.fill("#vcpus_max", "4")
    page.select_option("#burstable", "false")
    page.select_option("#benchmark", "openssl:aes-256-cbc")
    with page.expect_navigation():
        page.click("#apply")
    header = page.locator('#finder-table th[data-column="per_dollar"]')
    assert header.get_attribute("aria-sort") == "descending"
    names = shown_names(page)
    assert "c7g.xlarge" in names and "t4g.medium" not in names
    specs = page.locator("#finder-table tbody tr").evaluate_all(
        """rows => rows.map(r => [r.querySelector('[data-column=vcpus]').textContent,
                                  r.querySelector('[data-column=architecture]').textContent,
                                  r.querySelector('[data-column=burstable]').textContent])"""
    )
    assert all(2 <= float(v) <= 4 and a == "arm64" and b == "no" for v, a, b in specs)
    # Sorting by price and back by per dollar keeps the filters in the URL.
    with page.expect_navigation():
        page.click('#finder-table a[data-sort="usd_per_hour"]')
    assert "architecture=arm64" in page.url and "sort=usd_per_hour" in page.url
    with page.expect_navigation():
        page.click('#finder-table a[data-sort="per_dollar"]')
    assert "sort=-per_dollar" in page.url
    assert shown_names(page) == names
    with page.expect_download() as download:
        page.click("#finder-csv")
    assert download.value.suggested_filename == (
        "pricebench-instance-types-us-east-1-arm64-not-burstable-vcpus-2-4-openssl-aes-256-cbc.csv"
    )
    rows = list(csv.reader(io.StringIO(open(download.value.path()).read())))
    assert rows[0] == ["name", "vcpus", "memory_gib", "architecture", "burstable",
                       "usd_per_hour", "per_dollar"]  # fmt: skip
    assert [row[0] for row in rows[1:]] == names
    assert page.console_errors == []


def test_the_column_picker_hides_a_column_and_keeps_it_hidden_in_the_url(demo_site, page):
    page.goto(f"{demo_site.url}/instance-types/?family=c7g")
    cell = page.locator('#finder-table tbody tr:first-child [data-column="cpu_model"]')
    assert cell.is_visible()
    page.click("#column-picker summary")
    page.uncheck('[data-column-toggle][value="cpu_model"]')
    assert not cell.is_visible()
    assert "columns=" in page.url and "cpu_model" not in page.url.split("columns=")[1]
    page.reload()
    assert not page.locator(
        '#finder-table tbody tr:first-child [data-column="cpu_model"]'
    ).is_visible()
    assert page.console_errors == []


def test_types_ticked_in_the_finder_open_side_by_side(demo_site, page):
    page.goto(f"{demo_site.url}/instance-types/?family=c7g,c7a,c7i&vcpus_min=4&vcpus_max=4")
    for name in ("c7g.xlarge", "c7a.xlarge", "c7i.xlarge"):
        page.check(f'#finder-table input[name="types"][value="{name}"]')
    assert page.inner_text("#selected-count") == "3"
    with page.expect_navigation():
        page.click("#compare-selected")
    # In the table's order (cheapest first here), as one comma-separated `types`.
    assert "/compare/?types=" in page.url and page.url.count("%2C") == 2
    page.select_option("#baseline", "c7a.xlarge")
    with page.expect_navigation():
        page.click("#show")
    headers = page.locator("#compare-table thead th[data-instance-type]").evaluate_all(
        "cells => cells.map(c => c.dataset.instanceType)"
    )
    assert sorted(headers) == ["c7a.xlarge", "c7g.xlarge", "c7i.xlarge"]
    assert "(baseline)" in page.locator('th[data-instance-type="c7a.xlarge"]').inner_text()
    answer = page.inner_text('[data-role="answer"]')
    assert "against c7a.xlarge" in answer
    line = page.locator('#compare-table tr[data-line="openssl:aes-256-cbc"]')
    assert line.locator("[data-relative-throughput]").count() == 3
    assert line.locator("[data-relative-per-dollar]").count() == 3
    base = line.locator("td").nth(headers.index("c7a.xlarge"))
    assert "100% of the baseline" in base.inner_text()
    assert page.console_errors == []


def test_types_ticked_on_the_comparison_page_or_clicked_in_its_chart_open_side_by_side(
    demo_site, page
):
    page.goto(f"{demo_site.url}/?families=c7g,c7a,c7i")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    assert page.locator("#compare-selected").is_disabled()
    page.check('#results-table input[name="types"][value="c7g.xlarge"]')
    page.check('#results-table input[name="types"][value="c7a.xlarge"]')
    assert page.inner_text("#selected-count") == "2"
    # A click on the best bar ticks its type too.
    best = page.evaluate("() => Chart.getChart('per-dollar-chart').data.labels[0]")
    name = best.lstrip("★ ").split(" ")[0]
    # The bars' animation over (Chart.js draws them growing for a second), then a click in
    # the middle of the first bar, where the canvas has it (Playwright scrolls it to view).
    page.wait_for_function(
        "() => !Chart.animator || !Chart.animator.running(Chart.getChart('per-dollar-chart'))"
    )
    bar = page.evaluate(
        """() => {
            const chart = Chart.getChart('per-dollar-chart');
            const bar = chart.getDatasetMeta(0).data[0].getProps(["x", "y", "base"], true);
            return {x: (bar.base + bar.x) / 2, y: bar.y};
        }"""
    )
    page.locator("#per-dollar-chart").click(position=bar)
    page.wait_for_function("() => document.getElementById('selected-count').textContent !== '2'")
    assert page.is_checked(f'#results-table input[name="types"][value="{name}"]')
    expected = len({"c7g.xlarge", "c7a.xlarge", name})
    assert page.inner_text("#selected-count") == str(expected)
    with page.expect_navigation():
        page.click("#compare-selected")
    assert "/compare/?types=" in page.url
    headers = page.locator("#compare-table thead th[data-instance-type]").evaluate_all(
        "cells => cells.map(c => c.dataset.instanceType)"
    )
    assert {"c7g.xlarge", "c7a.xlarge", name} == set(headers)
    assert page.console_errors == []


def test_the_new_pages_are_in_the_navigation(demo_site, page):
    page.goto(f"{demo_site.url}/")
    for link, heading in (
        ("Instance types", "Find an instance type"),
        ("Compare", "Compare instance types"),
        ("Price-performance", "How much work does a dollar buy?"),
        ("Benchmarks", "Benchmarks"),
        ("Runs", "Runs"),
    ):
        with page.expect_navigation():
            page.click(f"header.site nav >> text={link}")
        assert page.inner_text("h1") == heading
    assert page.console_errors == []


def test_another_benchmark_is_asked_without_the_last_ones_parameters(demo_site, page):
    page.goto(
        f"{demo_site.url}/instance-types/?family=c7g&benchmark=openssl:aes-256-cbc&block_size=8192"
    )
    assert page.locator("#param-block_size").input_value() == "8192"
    page.select_option("#benchmark", "passmark:cpu-mark")
    with page.expect_navigation():
        page.click("#apply")
    assert "block_size" not in page.url
    assert page.locator("#notes").count() == 0
    assert page.console_errors == []
