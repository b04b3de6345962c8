"""The instance type, benchmark and run pages in a real browser, on the demo data."""

import re

import pytest

from benchmarks.models import Run

pytestmark = [pytest.mark.browser, pytest.mark.django_db]


def test_the_instance_type_page_charts_its_prices_and_ranks_it(demo_site, page):
    page.goto(f"{demo_site.url}/instance-types/c7g.xlarge/")
    page.wait_for_selector("body[data-charts-ready=true]")
    assert "4 (4 cores, 1 thread per core)" in page.locator("#specs").inner_text()
    lines = page.evaluate("Chart.getChart('price-history-chart').data.datasets.map(d => d.label)")
    # The table's region, purchase option and zone, as the legend names its line.
    regions = set(
        page.locator("#price-table tbody tr").evaluate_all(
            "rows => rows.map(r => [0, 1, 2].map(i => r.children[i].innerText.trim())"
            ".filter(Boolean).join(' '))"
        )
    )
    assert "us-east-1 On-demand" in lines and "ap-northeast-1 On-demand" in lines
    assert set(lines) == regions
    rank = page.locator('#ranks-table tr[data-benchmark="keycloak:oauth2-login"] .rank')
    # Two types, each with the official image and the ACCP build.
    assert re.match(r"[1-4] of 4 \(higher is better\)", rank.inner_text())
    assert page.console_errors == []


def test_the_instance_type_page_charts_stress_ng_at_every_load(demo_site, page):
    # c7i.xlarge: Spare Cores ran stress-ng at 1 worker and at 4 (its vCPUs, two per core).
    page.goto(f"{demo_site.url}/instance-types/c7i.xlarge/")
    page.wait_for_selector("body[data-scaling-ready=true]")
    workers = page.evaluate("Chart.getChart('cpu-scaling-chart').data.labels")
    assert workers[0] == "1" and workers[-1] == "4"
    shares = page.evaluate("Chart.getChart('cpu-scaling-chart').data.datasets[1].data")
    assert shares[0] == 100 and shares[-1] < 75  # both threads of a core busy: SMT
    assert page.console_errors == []


def test_a_fargate_task_is_priced_from_the_rates(demo_site, page):
    page.goto(f"{demo_site.url}/instance-types/fargate-1vcpu-2gb/")
    page.wait_for_selector("body[data-charts-ready=true]")
    assert "Fargate rates per vCPU-hour and GB-hour × 1 vCPU and 2 GB" in page.inner_text("main")
    assert page.console_errors == []


def test_an_unknown_instance_type_or_benchmark_is_not_found(demo_site, page):
    assert page.goto(f"{demo_site.url}/instance-types/c99.huge/").status == 404
    assert page.goto(f"{demo_site.url}/benchmarks/nope:x/").status == 404
    assert page.goto(f"{demo_site.url}/runs/999999/").status == 404


def test_the_benchmark_page_says_what_it_measures_and_covers(demo_site, page):
    page.goto(f"{demo_site.url}/benchmarks/openssl:aes-128-gcm/")
    facts = page.locator("#benchmark-facts").inner_text()
    assert "B/s, higher is better" in facts
    assert "block_size" in facts
    families = page.locator("#families-table tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.family)"
    )
    assert "fargate" in families and "t2" in families
    with page.expect_navigation():
        page.click("#compare-all")
    assert page.locator("#benchmark").input_value() == "openssl:aes-128-gcm"
    assert page.console_errors == []


def test_the_run_page_formats_figures_and_links_back_to_its_comparison(demo_site, page):
    run = (
        Run.objects.filter(instance_type__name="t2.nano", format="openssl", results__isnull=False)
        .exclude(raw_output="")
        .first()
    )
    page.goto(f"{demo_site.url}/runs/{run.pk}/")
    figures = page.locator("#run-results td.figure").all_inner_texts()
    assert figures and all(figure.endswith("B/s") and "e+" not in figure for figure in figures)
    # The CPU model as one name per model, beside the string the machine reported.
    cpu = page.locator("#run-cpu").inner_text()
    assert cpu.startswith("Intel Xeon E5-") and f"(as reported: {run.cpu_model})" in cpu
    page.locator("#raw-output summary").click()
    assert "openssl" in page.locator("#raw-output pre").inner_text().lower()
    with page.expect_navigation():
        page.locator("#run-results a.compare").first.click()
    page.wait_for_selector("body[data-charts-ready=true]")
    assert page.locator('#results-table tr[data-instance-type="t2.nano"]').count() == 1
    assert page.console_errors == []


@pytest.mark.parametrize(
    "path", ["/instance-types/t2.nano/", "/benchmarks/openssl:aes-256-cbc/", "/runs/{run}/"]
)
def test_the_pages_fit_a_phone(demo_site, page, path):
    page.set_viewport_size({"width": 375, "height": 800})
    run = Run.objects.filter(results__isnull=False).first()
    page.goto(demo_site.url + path.format(run=run.pk))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.console_errors == []
