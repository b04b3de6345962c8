"""Every chart downloads as PNG (with its caption and credit) and as CSV of its own figures."""

import csv
import io
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def download(page, selector):
    with page.expect_download() as started:
        page.click(selector)
    value = started.value
    return value.suggested_filename, Path(value.path()).read_bytes()


def test_the_per_dollar_chart_downloads_its_own_bars(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    name, body = download(page, "[data-csv=per-dollar-chart]")
    assert name.startswith("pricebench_openssl-aes-128-gcm_per-dollar-chart_")
    assert name.endswith(".csv")
    rows = list(csv.reader(io.StringIO(body.decode())))
    shown = page.evaluate(
        "() => { const c = Chart.getChart('per-dollar-chart');"
        " return c.data.labels.map((label, i) => [label, c.data.datasets[0].data[i]]); }"
    )
    assert rows[0][0] == "label" and len(rows) == len(shown) + 1
    # The best bar's "★ " is the chart's mark, not part of the type's name; each bar's 90%
    # interval (its error bars) follows its figure.
    assert rows[0][2:4] == [rows[0][1] + " (low)", rows[0][1] + " (high)"]
    assert [[row[0], *map(float, row[1:4])] for row in rows[1:]] == [
        [a.removeprefix("★ "), float(b["x"]), float(b["xMin"]), float(b["xMax"])] for a, b in shown
    ]
    name, body = download(page, "[data-png=per-dollar-chart]")
    assert name.endswith(".png") and body[:8] == PNG_SIGNATURE
    # The saved image is the chart with its caption above and the credit below: taller.
    height = int.from_bytes(body[20:24], "big")
    canvas_height = page.evaluate("() => Chart.getChart('per-dollar-chart').canvas.height")
    assert height > canvas_height
    assert page.console_errors == []


def test_a_line_chart_downloads_one_row_per_point(demo_site, page):
    page.goto(f"{demo_site.url}/volumes/?region=ap-northeast-1&at=2014-06-15")
    page.wait_for_selector("body[data-charts-ready=true]", timeout=15000)
    name, body = download(page, "[data-csv=burst-chart]")
    assert name.startswith("pricebench_EBS_volumes_burst-chart_")
    rows = list(csv.reader(io.StringIO(body.decode())))
    points = page.evaluate(
        "() => Chart.getChart('burst-chart').data.datasets.reduce((n, d) => n + d.data.length, 0)"
    )
    assert rows[0][0] == "series" and len(rows) == points + 1
    name, body = download(page, "[data-png=cost-chart]")
    assert name.startswith("pricebench_EBS_volumes_cost-chart_") and body[:8] == PNG_SIGNATURE
    assert page.console_errors == []


def test_the_options_chart_prices_each_way_to_pay_at_the_use_asked(demo_site, page):
    # The demo's m5.large has on-demand, spot and its 12 Reserved terms in us-east-1.
    page.goto(f"{demo_site.url}/instance-types/m5.large/?region=us-east-1&hours_per_month=200")
    page.wait_for_selector("body[data-charts-ready=true]")
    drawn = page.evaluate(
        "() => { const c = Chart.getChart('options-chart');"
        " return {labels: c.data.labels, sets: c.data.datasets.map((d) => d.data)}; }"
    )
    rows = page.locator("#cost-table tbody tr").count()
    assert len(drawn["labels"]) == rows >= 13
    assert "reserved 1y all_upfront standard" in drawn["labels"]
    as_sold, per_hour_used = drawn["sets"]
    # Cheapest per hour of use first; on demand costs the same per hour used as sold, and a
    # commitment more, its idle hours billed too.
    assert per_hour_used == sorted(per_hour_used)
    on_demand = drawn["labels"].index("on_demand")
    assert per_hour_used[on_demand] == pytest.approx(as_sold[on_demand], rel=1e-3)
    reserved = drawn["labels"].index("reserved 1y all_upfront standard")
    assert per_hour_used[reserved] == pytest.approx(as_sold[reserved] * 730 / 200, rel=1e-3)
    name, body = download(page, "[data-csv=options-chart]")
    assert name.startswith("pricebench_") and name.endswith(".csv")
    assert len(list(csv.reader(io.StringIO(body.decode())))) == rows + 1
    assert page.console_errors == []


# Every text the PNG export writes on its own canvas (one the page does not show), with where it
# ends: a line wider than the image is cut at its right edge.
RECORD_TEXTS = """
window.exportedTexts = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, x, y) {
  if (!this.canvas.isConnected) {
    window.exportedTexts.push({text: text, right: x + this.measureText(text).width,
                               width: this.canvas.width});
  }
  return fillText.apply(this, arguments);
};
"""


def test_the_png_keeps_its_caption_and_address_inside_the_image(sqlite_site, browser):
    context = browser.new_context(viewport={"width": 480, "height": 800})
    page = context.new_page()
    page.add_init_script(RECORD_TEXTS)
    page.goto(f"{sqlite_site}/?benchmark=openssl:aes-256-cbc&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    page.evaluate("() => { window.exportedTexts = []; }")
    name, body = download(page, "[data-png=per-dollar-chart]")
    assert body[:8] == PNG_SIGNATURE
    texts = page.evaluate("() => window.exportedTexts")
    caption = " ".join(page.inner_text("#per-dollar-chart >> xpath=ancestor::figure//figcaption")
                       .split())  # fmt: skip
    written = "".join(text["text"] for text in texts)
    assert page.url in written and caption.replace(" ", "") in written.replace(" ", "")
    assert [t["text"] for t in texts if t["right"] > t["width"]] == []
    context.close()


def test_the_csv_names_the_best_type_without_the_charts_mark(sqlite_site, page):
    page.goto(f"{sqlite_site}/?benchmark=openssl:aes-256-cbc&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    labels = page.evaluate("() => Chart.getChart('per-dollar-chart').data.labels")
    assert labels[0].startswith("★ ")
    name, body = download(page, "[data-csv=per-dollar-chart]")
    rows = list(csv.reader(io.StringIO(body.decode())))
    assert "★" not in body.decode()
    assert [row[0] for row in rows[1:]] == [label.removeprefix("★ ") for label in labels]
    assert page.console_errors == []
