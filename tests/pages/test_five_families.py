"""The landing page's five side by side, in a real browser on the demo: Fargate, t2, c7g, c7a
and c7i with what a vCPU-hour and a GiB-hour cost, and how to measure the missing ones."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db]

FIVE = ["fargate", "fargate", "t2", "c7g", "c7a", "c7i"]  # Fargate on x86_64 and arm64


def drawn(page) -> None:
    page.wait_for_selector("#five-families-chart[data-drawn=true]", timeout=15000)


def test_the_landing_shows_all_five_families_with_figures(demo_site, page):
    page.goto(f"{demo_site.url}/")
    drawn(page)
    rows = page.locator("#five-families-table tbody tr")
    assert rows.evaluate_all("rows => rows.map(row => row.dataset.family)") == FIVE
    for index in range(rows.count()):
        cells = rows.nth(index).locator("td.unit-price").all_inner_texts()
        on_demand_vcpu, on_demand_gib = cells[0], cells[1]
        assert on_demand_vcpu.startswith("$") and on_demand_gib.startswith("$"), cells
    c7g = page.locator('#five-families-table tr[data-family="c7g"]').inner_text()
    # c7g.large: $0.0725 an hour for 2 vCPUs and 4 GiB (c7g.medium's $0.0363 for 1 and 2 costs
    # a little more); spot: c7g.2xlarge's median of five zones, $0.0923 for 8 vCPUs.
    assert "$0.0362 c7g.large\t$0.0181 c7g.large\t$0.0115 c7g.2xlarge" in c7g
    fargate = page.locator('#five-families-table tr[data-family="fargate"]').first.inner_text()
    assert "$0.0494 fargate-0.25vcpu-0.5gb" in fargate  # 0.04048 + 2 x 0.004445 a vCPU-hour
    missing = page.locator("#five-families-missing").inner_text()
    assert "Fargate Spot is purchase_option=fargate_spot" in missing
    # Drawn by Chart.js: six series (vCPU, sustained vCPU and GiB, on-demand and spot), one
    # bar per line; a sustained vCPU-hour for t2 only (t2.small's $0.023 at 20% on demand).
    series = page.evaluate(
        "() => Chart.getChart('five-families-chart').data.datasets.map(d => d.data.length)"
    )
    assert series == [6] * 6
    sustained = page.evaluate(
        "() => { const d = Chart.getChart('five-families-chart').data.datasets[2];"
        " return [d.data, d.backgroundColor]; }"
    )
    # In a colour of its own (bluish green; vCPU-hours are blue).
    assert sustained == [[None, None, 0.115, None, None, None], "#009E73"]
    # Every way of paying: the demo prices on demand and spot for the five; the options it
    # has no price for are named, not drawn.
    page.wait_for_selector("#family-options-chart[data-drawn=true]")
    options = page.evaluate(
        "() => Chart.getChart('family-options-chart').data.datasets.map(d => d.label)"
    )
    assert options == ["on_demand", "spot"]
    assert (
        "reserved (1y, no_upfront, standard)"
        in page.locator("#family-options-missing").inner_text()
    )
    assert page.console_errors == []


def test_the_landing_says_how_to_measure_fargate_on_the_pages_benchmark(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-256-cbc&region=us-east-1")
    drawn(page)
    fargate = page.locator('#five-families-table tr[data-family="fargate"]').first
    assert "how to measure" in fargate.inner_text()
    measure = page.locator("#measure-fargate")
    command = measure.locator("[data-role=agent-command]").inner_text()
    assert command == (
        f"curl -fsS {demo_site.url}/agent.py | python3 - --server {demo_site.url} "
        "--algorithms aes-256-cbc"
    )
    assert '"cpu": "1024"' in measure.inner_text() and '"memory": "2048"' in measure.inner_text()
    assert page.locator("#measure-c7g").count() == 0  # c7g has results
    assert page.console_errors == []


def test_with_study_s1s_benchmark_and_day_fargate_has_results_at_its_launch_rates(demo_site, page):
    page.goto(f"{demo_site.url}/?benchmark=openssl:aes-128-gcm&region=us-east-1&at=2017-12-13")
    drawn(page)
    assert page.locator("#measure-fargate").count() == 0
    text = page.locator("#five-families").inner_text()
    assert "x86_64: $0.0506 per vCPU-hour and $0.0127 per GB-hour" in text
    assert "on 2017-12-13" in text
    assert page.console_errors == []
