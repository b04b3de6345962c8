"""Other clouds from the comparison page's menus, and the family picker, in Chromium on
`make run`'s SQLite site with Hetzner's and two Google Cloud families loaded (issue 45, items 4
and 6): a Hetzner region shows Hetzner's types, `region=hcloud:fsn1` answers on the page and
the API, the open picker stays inside a 1280 px window, lists the question's vendor's families
first and finds them by processor, and its presets hold Fargate and no t2a or t2d."""

from urllib.parse import parse_qs, urlparse

import pytest

pytestmark = pytest.mark.browser

READY = "body[data-charts-ready]"
BENCHMARK = "benchmark=openssl:aes-256-cbc"
HETZNER = ("cx", "cpx", "cax", "ccx")


def row_types(page) -> list[str]:
    return page.locator("#results-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.instanceType)"
    )


def is_hetzner(name: str) -> bool:
    return name.rstrip("0123456789") in HETZNER


def preset_families(page, key: str) -> list[str]:
    link = page.locator(f'#family-presets a[data-preset="{key}"]')
    return link.get_attribute("data-families").split(",")


@pytest.mark.parametrize("region", ["fsn1", "hcloud:fsn1"])
def test_a_hetzner_region_shows_hetzner_types(sqlite_clouds_site, page, region):
    response = page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&region={region}&currency=EUR")
    assert response.status == 200
    page.wait_for_selector(READY, timeout=30000)
    names = row_types(page)
    assert names and all(is_hetzner(name) for name in names), names
    assert page.locator("#results-table th:text('EUR/h')").count() == 1
    assert page.console_errors == []


def test_the_api_answers_region_hcloud_fsn1(sqlite_clouds_site, page):
    answer = page.request.get(
        f"{sqlite_clouds_site}/api/v1/price-performance/?{BENCHMARK}&region=hcloud:fsn1"
        "&block_size=8192"
    )
    assert answer.status == 200, answer.text()
    names = [row["instance_type"] for row in answer.json()["results"]]
    assert names and all(is_hetzner(name) for name in names), names


def test_the_open_family_picker_stays_inside_a_1280_px_window(sqlite_clouds_site, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}")
    page.wait_for_selector(READY, timeout=30000)
    page.click("#family-picker summary")
    panel = page.locator("#family-picker .family-panel").bounding_box()
    presets = page.locator("#family-presets").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= 1280, panel
    assert presets["x"] + presets["width"] <= 1280, presets


def test_the_five_families_preset_holds_fargate(sqlite_clouds_site, page):
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&families=c7g")
    page.wait_for_selector(READY, timeout=30000)
    assert preset_families(page, "named") == ["fargate", "t2", "c7g", "c7a", "c7i"]
    page.click("#family-picker summary")
    page.locator('#family-presets a[data-preset="named"]').click()
    page.wait_for_function("() => !document.body.dataset.answerLoading", timeout=30000)
    asked = parse_qs(urlparse(page.url).query)["families"][0].split(",")
    assert "fargate" in asked and {"t2", "c7g"} <= set(asked), page.url
    assert page.console_errors == []


def test_the_burstable_preset_holds_no_t2a_or_t2d(sqlite_clouds_site, page):
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&region=us-east-1")
    page.wait_for_selector(READY, timeout=30000)
    # Google Cloud's t2a and t2d have results here: the picker lists them.
    assert page.locator("#family-t2a").count() == 1 and page.locator("#family-t2d").count() == 1
    burstable = preset_families(page, "burstable")
    assert "t2" in burstable and not {"t2a", "t2d"} & set(burstable), burstable


def test_the_picker_lists_the_questions_vendor_first_and_finds_graviton(sqlite_clouds_site, page):
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&region=fsn1")
    page.wait_for_selector(READY, timeout=30000)
    boxes = page.locator("#families input[type=checkbox]").evaluate_all(
        "boxes => boxes.map(box => box.value)"
    )
    assert sorted(boxes[:4]) == sorted(HETZNER), boxes
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&region=us-east-1")
    page.wait_for_selector(READY, timeout=30000)
    page.click("#family-picker summary")
    page.fill("#family-search", "graviton")
    shown = page.locator("#families label.check:visible input").evaluate_all(
        "boxes => boxes.map(box => box.value)"
    )
    # c6g: the Graviton2 family the demo's first part loads for Fargate's estimates.
    assert sorted(shown) == ["c6g", "c7g"], shown


def test_choosing_fsn1_in_the_region_menu_shows_hetzner_types(sqlite_clouds_site, page):
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}")
    page.wait_for_selector(READY, timeout=30000)
    with page.expect_navigation():
        page.select_option("#region", "fsn1")
    page.wait_for_selector(READY, timeout=30000)
    names = row_types(page)
    assert names and all(is_hetzner(name) for name in names), names
    assert "is a family of Hetzner Cloud" in page.locator("#notes").inner_text()
    assert page.console_errors == []


def test_rank_with_ranks_the_region_chosen_in_a_clouds_menu(sqlite_clouds_site, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{sqlite_clouds_site}/?{BENCHMARK}&region=us-east-1")
    page.wait_for_selector(READY, timeout=30000)
    offered = page.locator('#clouds select[data-region-of="hcloud"] option').evaluate_all(
        "options => options.map(option => option.value)"
    )
    assert {"hcloud:fsn1", "hcloud:nbg1", "hcloud:hel1", "hcloud:ash"} <= set(offered), offered
    page.click("#more-options summary")  # "Rank with" is under More, at every width
    with page.expect_navigation():
        page.select_option('#clouds select[data-region-of="hcloud"]', "hcloud:nbg1")
    page.wait_for_selector("#results-table th:text('Region')", timeout=30000)
    regions = page.locator("#results-table tbody tr td:nth-child(2)").all_inner_texts()
    assert {"aws:us-east-1", "hcloud:nbg1"} <= set(regions), set(regions)
    assert "regions=aws%3Aus-east-1%2Chcloud%3Anbg1" in page.url
    assert page.console_errors == []
