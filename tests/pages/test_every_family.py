"""The family picker's "All" on `make run`'s SQLite site: no family filter (`families=`), not
every family's name (hundreds across the clouds, a query SQLite refused), answered in place."""

from urllib.parse import parse_qs, urlparse

READY = "body[data-charts-ready]"


def test_all_families_is_no_family_filter(sqlite_site, page):
    page.goto(f"{sqlite_site}/?benchmark=passmark:cpu-mark&families=c7g")
    page.wait_for_selector(READY, timeout=30000)
    asked = []
    page.on("request", lambda request: "families=" in request.url and asked.append(request.url))
    page.click("#family-picker summary")
    page.locator('#family-presets a[data-preset="all"]').click()
    page.wait_for_function("() => !document.body.dataset.answerLoading", timeout=30000)
    boxes = page.locator("#families input[type=checkbox][name=families]")
    assert (
        boxes.count() >= 3
        and boxes.count() == page.locator("#families input[type=checkbox]:checked").count()
    )
    assert asked and all(parse_qs(urlparse(url).query, keep_blank_values=True)["families"] == [""]
                         for url in asked), asked  # fmt: skip
    assert parse_qs(urlparse(page.url).query, keep_blank_values=True).get("families", [""]) == [""]
    rows = page.locator("#results-table tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.instanceType.split('.')[0])"
    )
    assert len(set(rows)) > 1 and "c7g" in rows
    assert page.console_errors == []
