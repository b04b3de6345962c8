"""On a phone (375 px), a chart's type names stay on the canvas: Fargate's long task sizes
("fargate-0.25vcpu-0.5gb-arm64 (estimated)") ran off its left edge, cut to "u-0.5gb-arm64
(estimated)"; they are written on two lines (charts.js, every category axis)."""

import pytest

pytestmark = pytest.mark.browser


# Each y label's width as drawn (with the axis' font) and where the axis ends.
LABELS = """(id) => {
  const chart = Chart.getChart(id);
  const axis = chart.scales.y;
  const context = chart.ctx;
  context.save();
  context.font = Chart.helpers.toFont(axis.options.ticks.font).string;
  const labels = axis.ticks.map((tick) => [].concat(tick.label));
  const widths = labels.map((lines) => Math.max(...lines.map((l) => context.measureText(l).width)));
  context.restore();
  return { labels: labels, widths: widths, right: axis.right, padding: axis.options.ticks.padding };
}"""


def test_fargates_long_names_fit_the_phones_chart_on_two_lines(sqlite_site, phone):
    phone.goto(f"{sqlite_site}/?benchmark=openssl:aes-256-cbc")
    phone.wait_for_function("() => document.body.dataset.chartsReady === 'true'")
    drawn = phone.evaluate(LABELS, "per-dollar-chart")
    fargate = [lines for lines in drawn["labels"] if lines[0].startswith("fargate-")]
    assert fargate, drawn["labels"]
    # A long name in two lines, none of its characters lost.
    assert all(len(lines) == 2 for lines in fargate)
    assert any("".join(lines).replace(" ", "").endswith("(estimated)") for lines in fargate)
    # Drawn right-aligned at the axis' edge: every label starts on the canvas.
    for lines, width in zip(drawn["labels"], drawn["widths"], strict=True):
        assert width + drawn["padding"] <= drawn["right"], (lines, width, drawn["right"])
    # Short names stay on one line.
    assert any(len(lines) == 1 for lines in drawn["labels"])
    assert phone.console_errors == []


def test_a_wide_screen_keeps_every_name_on_one_line(sqlite_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{sqlite_site}/?benchmark=openssl:aes-256-cbc")
    page.wait_for_function("() => document.body.dataset.chartsReady === 'true'")
    drawn = page.evaluate(LABELS, "per-dollar-chart")
    assert all(len(lines) == 1 for lines in drawn["labels"])
    context.close()
