"""On a phone (375 px), in Chromium on `make run`'s SQLite: no page wider than the screen, a
table's per-dollar column in view without scrolling sideways, and the finder's types on its
first screen (its filters folded, open on a desktop or when one is refused)."""

import pytest

from tests.pages.screens import PHONE

pytestmark = pytest.mark.browser

FINDER = "/instance-types/?benchmark=openssl:aes-256-cbc"


def test_upload_volumes_and_the_landing_are_no_wider_than_the_screen(sqlite_site, phone):
    # /upload/'s agent command was 934 px wide, /volumes/'s table 634 px.
    widths = {}
    for path in ("/upload/", "/volumes/", "/"):
        phone.goto(f"{sqlite_site}{path}")
        widths[path] = phone.evaluate("document.documentElement.scrollWidth")
    assert widths == dict.fromkeys(widths, PHONE["width"])
    phone.goto(f"{sqlite_site}/upload/")
    # The command wraps: all of it is on the screen.
    command = phone.locator("#agent-command + p + pre").bounding_box()
    assert command["x"] + command["width"] <= PHONE["width"]
    assert phone.console_errors == []


def test_the_finders_per_dollar_column_is_in_view_without_scrolling_sideways(sqlite_site, phone):
    phone.goto(f"{sqlite_site}{FINDER}")
    cell = phone.locator('#finder-table tbody tr:first-child td[data-column="per_dollar"]')
    # Down to it, not sideways: the table stays scrolled to its left edge.
    cell.evaluate("(c) => window.scrollTo(0, c.getBoundingClientRect().top + scrollY - 200)")
    assert phone.evaluate("document.querySelector('#finder-table').parentElement.scrollLeft") == 0
    box = cell.bounding_box()
    assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], box
    # Nothing covers it: the browser finds the cell at its own middle.
    hit = phone.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('td')?.dataset.column",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit == "per_dollar"
    header = phone.locator('#finder-table th[data-column="per_dollar"]').bounding_box()
    assert header["x"] + header["width"] <= PHONE["width"], header


def test_the_finders_first_screen_shows_types_with_its_filters_folded(sqlite_site, phone):
    phone.goto(f"{sqlite_site}{FINDER}")
    assert not phone.locator("#finder-form").is_visible()
    first = phone.locator("#finder-table tbody tr:first-child").bounding_box()
    assert first["y"] + first["height"] <= PHONE["height"], first
    phone.click("#finder-filters summary")
    assert phone.locator("#benchmark").is_visible()
    # On a desktop's width they are simply open, without a summary to click.
    phone.click("#finder-filters summary")
    phone.set_viewport_size({"width": 1280, "height": 800})
    assert phone.locator("#benchmark").is_visible()
    assert not phone.locator("#finder-filters summary").is_visible()
    phone.set_viewport_size(PHONE)
    # A refused filter keeps them open, its error in view.
    phone.goto(f"{sqlite_site}/instance-types/?vcpus_min=-1")
    assert phone.locator("#finder-form .error").is_visible()
    assert phone.console_errors == []


def test_the_landings_per_dollar_column_is_in_view_without_scrolling_sideways(sqlite_site, phone):
    phone.goto(f"{sqlite_site}/")
    cell = phone.locator("#results-table tbody tr:first-child td.per-dollar")
    cell.evaluate("(c) => window.scrollTo(0, c.getBoundingClientRect().top + scrollY - 200)")
    box = cell.bounding_box()
    # It stood at x=727 on a 375 px screen, past six other columns.
    assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], box
