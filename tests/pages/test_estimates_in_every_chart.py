"""Every chart and data table of the landing names an estimated Fargate row "(estimated)" and
fills it hatched (a pattern, never a plain colour): the medians chart too, where an estimate
has no runs to count."""

import pytest

pytestmark = pytest.mark.browser

READY = "body[data-charts-ready=true]:not([data-answer-loading])"

FILLS = """(id) => {
    const chart = Chart.getChart(id);
    const labels = chart.data.labels || [];
    return chart.data.datasets.map((dataset) => {
        const fills = Array.isArray(dataset.backgroundColor)
            ? dataset.backgroundColor : dataset.data.map(() => dataset.backgroundColor);
        const names = dataset.data.map((point, index) =>
            labels.length ? String(labels[index]) : String(point && point.key));
        return names.map((name, index) => [name, typeof fills[index]]);
    });
}"""


def test_the_medians_price_and_baseline_charts_hatch_and_name_every_estimate(sqlite_site, page):
    page.goto(sqlite_site + "/?baseline=c7g.large")
    page.wait_for_selector(READY, timeout=30000)
    [medians] = page.evaluate(FILLS, "median-chart")
    estimated = [(name, fill) for name, fill in medians if "fargate-" in name]
    assert estimated, medians
    for name, fill in estimated:
        assert name.endswith("(estimated)") and "runs" not in name and "run" not in name
        assert fill == "object", name  # a CanvasPattern: hatched
    assert all(fill == "string" for name, fill in medians if "fargate-" not in name)
    legend = page.evaluate(
        "() => Chart.getChart('median-chart').legend.legendItems.map((item) => item.text)"
    )
    assert "estimated from EC2 on the same processor" in legend
    # The price chart: each estimated point hatched (its key names a Fargate size).
    points = page.evaluate(FILLS, "price-chart")[1]
    fargate = [fill for key, fill in points if key.startswith("fargate-")]
    assert fargate and set(fargate) == {"object"}
    # The baseline chart: each of an estimated row's three bars hatched, its label named.
    measures = page.evaluate(FILLS, "baseline-chart")
    assert any(name.endswith("(estimated)") for name, _fill in measures[0]), measures[0]
    for measure in measures:
        for name, fill in measure:
            assert (fill == "object") == name.endswith("(estimated)"), name
    # The charts' data tables name them too, and say an estimate has no runs.
    medians_table = page.locator("#median-figure details.chart-data")
    medians_table.locator("summary").click()
    row = medians_table.locator("tr", has_text="fargate-").first
    assert "(estimated)" in row.inner_text() and "none: estimated" in row.inner_text()
    assert not page.console_errors, page.console_errors


def test_compare_hatches_and_names_a_fargate_sizes_estimates(sqlite_site, page):
    page.goto(sqlite_site + "/compare/?types=c7g.large,fargate-2vcpu-4gb-arm64")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=30000)
    cells = page.locator("#compare-table td.estimated")
    assert cells.count() > 0
    for index in range(cells.count()):
        cell = cells.nth(index)
        assert cell.locator("small.estimate").inner_text() == "estimated"
        assert "estimated from AWS Graviton2" in cell.locator("small.estimate").get_attribute(
            "title"
        )
    # Only the Fargate size's cells, never c7g.large's (the first column).
    columns = cells.evaluate_all("tds => tds.map(td => td.cellIndex)")
    assert set(columns) == {2}
    background = cells.first.evaluate("td => getComputedStyle(td).backgroundImage")
    assert "repeating-linear-gradient" in background
    assert "(estimated)" in page.inner_text("#compare-answer")
    drawn = page.evaluate(
        """() => {
            const chart = Chart.getChart('compare-chart');
            return chart.data.datasets.map(
                (d) => [d.label, d.backgroundColor.map((f) => typeof f)]);
        }"""
    )
    (c7g, c7g_fills), (fargate, fargate_fills) = drawn
    assert c7g == "c7g.large (baseline)" and set(c7g_fills) == {"string"}
    assert fargate == "fargate-2vcpu-4gb-arm64 (estimated)" and set(fargate_fills) == {"object"}
    assert not page.console_errors, page.console_errors


def test_a_workload_profile_hatches_names_and_stripes_its_estimates(sqlite_site, page):
    page.goto(sqlite_site + "/?profile=crypto")
    page.wait_for_selector(READY, timeout=30000)
    [bars] = page.evaluate(FILLS, "profile-chart")[:1]
    estimated = [(name, fill) for name, fill in bars if name.endswith("(estimated)")]
    assert estimated, bars
    assert {fill for _name, fill in estimated} == {"object"}
    assert {fill for name, fill in bars if not name.endswith("(estimated)")} == {"string"}
    legend = page.evaluate(
        "() => Chart.getChart('profile-chart').legend.legendItems.map((item) => item.text)"
    )
    assert "estimated from EC2 on the same processor" in legend
    rows = page.locator("#results-table tr.estimated")
    assert rows.count() > 0
    assert rows.first.get_attribute("data-instance-type").startswith("fargate-")
    assert not page.console_errors, page.console_errors
