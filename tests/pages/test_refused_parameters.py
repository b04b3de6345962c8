"""A refused parameter of the comparison page is said beside its control, with the value sent,
on `make run`'s SQLite site: `/?basis=bogus` answered 400 over the default answer and said
nothing."""

import pytest

pytestmark = pytest.mark.browser

QUESTION = "/?benchmark=openssl:aes-256-cbc&region=us-east-1"


@pytest.mark.parametrize(
    ("refused", "control"),
    [
        ("basis=bogus", "#basis"),
        ("price_dates=bogus", "#price_dates"),
        ("order=bogus", "#order"),
        ("currency=XYZ", "#currency"),
        ("purchase_option=bogus", "#purchase_option"),
        ("purchase_option=reserved&term=9y", "#term"),
        ("purchase_option=spot&spot_zone=bogus", "#spot_zone"),
    ],
)
def test_a_refused_parameter_is_said_beside_its_control(sqlite_site, page, refused, control):
    response = page.goto(f"{sqlite_site}{QUESTION}&{refused}")
    assert response.status == 400
    name, value = refused.split("&")[-1].split("=")
    beside = page.locator("label", has=page.locator(control)).locator(".error")
    assert beside.count() == 1, page.locator(".error").all_inner_texts()
    assert beside.is_visible()
    assert beside.inner_text().startswith(f"{name}={value} refused: "), beside.inner_text()
    assert value in beside.inner_text().split("refused: ")[1]  # the reason names it too
    # Said once, beside its control.
    assert page.locator(".error").count() == 1, page.locator(".error").all_inner_texts()


def test_a_refused_parameter_without_a_control_is_said_all_the_same(sqlite_site, page):
    response = page.goto(f"{sqlite_site}{QUESTION}&verified=bogus&basis=burst")
    assert response.status == 400
    said = page.locator("#other-refusals li")
    assert said.all_inner_texts() == ["verified=bogus refused: bogus is not a valid choice."]
    assert said.is_visible()
    # The next choice asks the question without it (the form holds no such control).
    with page.expect_navigation():
        page.select_option("#basis", "sustained")
    assert page.locator(".error").count() == 0 and "verified" not in page.url
