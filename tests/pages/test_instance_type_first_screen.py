"""The instance type page's first screen says what the type costs an hour (issue 54, item 7):
on a phone and on a laptop, in Chromium on `make run`'s SQLite."""

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("screen", [(375, 667), (1280, 800)])
def test_the_hourly_price_is_on_the_first_screen(sqlite_site, browser, screen):
    width, height = screen
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{sqlite_site}/instance-types/c7g.large/")
    box = page.locator("#price-now").bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box
    assert page.locator("#price-now").inner_text().startswith("$")
    assert "an hour on demand in us-east-1" in page.locator("#price-now").inner_text()
    context.close()
