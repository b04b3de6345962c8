""" "Copy link" says it copied, on the button clicked, for a moment (it gave no sign where the
eye was), on `make run`'s SQLite site."""

import pytest

pytestmark = pytest.mark.django_db


def test_copy_link_says_copied_on_the_button_then_goes_back(sqlite_site, page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=sqlite_site)
    page.goto(f"{sqlite_site}/?benchmark=openssl:aes-256-cbc&region=us-east-1")
    page.wait_for_selector("body[data-charts-ready=true]")
    button = page.locator("#copy-link")
    assert button.inner_text() == "Copy link"
    button.click()
    page.locator("#copy-link", has_text="Copied").wait_for(timeout=2000)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "benchmark=openssl%3Aaes-256-cbc" in copied
    assert page.locator("#copied").inner_text() == f"Copied: {copied}"
    page.locator("#copy-link", has_text="Copy link").wait_for(timeout=4000)
    assert page.console_errors == []
