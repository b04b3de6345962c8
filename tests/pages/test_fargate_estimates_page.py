"""The landing, as `make run` serves it (SQLite, the demo's first part): Fargate stands beside
t2, c7g, c7a and c7i on the default question, its sizes no task measured estimated from
Graviton2, and every estimate labelled: hatched bars named "(estimated)", table rows that say
from what."""

import pytest

pytestmark = pytest.mark.browser

READY = "body[data-charts-ready=true]:not([data-answer-loading])"


def test_the_landing_shows_fargate_estimated_beside_the_four_families(sqlite_site, page):
    page.goto(sqlite_site + "/")
    page.wait_for_selector(READY, timeout=30000)
    families = page.eval_on_selector_all(
        "table.results tbody tr[data-instance-type]",
        "rows => rows.map(row => row.dataset.instanceType.split(/[.-]/)[0])",
    )
    assert {"fargate", "t2", "c7g", "c7a", "c7i"} <= set(families), sorted(set(families))
    estimated = page.locator("table.results tr.estimated")
    assert estimated.count() > 0
    for index in range(estimated.count()):
        row = estimated.nth(index)
        assert row.get_attribute("data-instance-type").startswith("fargate-")
        assert "estimated from" in row.locator("small.estimate").inner_text()
    arm64 = page.locator('table.results tr.estimated[data-instance-type$="-arm64"]')
    assert "AWS Graviton2" in arm64.first.inner_text()
    # The per-dollar chart: each estimated bar named so, and filled with a pattern, not a colour.
    labels, fills = page.evaluate(
        """() => {
            const chart = Chart.getChart("per-dollar-chart");
            const fills = chart.data.datasets[0].backgroundColor;
            return [chart.data.labels, fills.map((fill) => typeof fill)];
        }"""
    )
    marked = [index for index, label in enumerate(labels) if label.endswith("(estimated)")]
    assert marked, labels
    assert all(fills[index] == "object" for index in marked)  # a CanvasPattern: hatched
    assert all(fills[index] == "string" for index in range(len(labels)) if index not in marked)
    assert "hatched: Fargate sizes no task measured" in page.locator("body").inner_text()
    # The five side by side says Fargate's figures are estimates, with how to measure one.
    assert "estimated (hatched above)" in page.locator("#five-families").inner_text()
    assert not page.console_errors, page.console_errors
