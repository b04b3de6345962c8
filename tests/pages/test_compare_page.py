"""Compare (`/compare/`) in Chromium on `make run`'s SQLite: reached from the navigation, its
"best" mark in each benchmark's own direction, and its chart of per dollar against the
baseline."""

import pytest

pytestmark = pytest.mark.browser

S2 = "/compare/?types=c7g.xlarge,c7a.xlarge,c7i.xlarge&baseline=c7a.xlarge"


def test_the_navigations_compare_opens_the_compare_page(sqlite_site, page):
    page.goto(f"{sqlite_site}/runs/")
    with page.expect_navigation():
        page.click("header.site nav >> text=Compare")
    assert page.url == f"{sqlite_site}/compare/"
    assert page.inner_text("h1") == "Compare instance types"
    with page.expect_navigation():
        page.click("header.site nav >> text=Price-performance")
    assert page.url.split("?")[0] == f"{sqlite_site}/"
    assert page.inner_text("h1") == "How much work does a dollar buy?"
    assert page.console_errors == []
