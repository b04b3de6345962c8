"""A refused parameter is said beside its control, with the value sent, on the comparison page,
the finder and compare, on `make run`'s SQLite site: `/?basis=bogus` answered 400 over the
default answer and said nothing (and the finder's and compare's basis and price likewise)."""

import pytest

pytestmark = pytest.mark.browser

QUESTION = "/?benchmark=openssl:aes-256-cbc&region=us-east-1"
COMPARE = "/compare/?types=c7g.xlarge,c7a.xlarge,c7i.xlarge&baseline=c7a.xlarge"


@pytest.mark.parametrize(
    ("asked", "control"),
    [
        (f"{QUESTION}&basis=bogus", "#basis"),
        (f"{QUESTION}&price_dates=bogus", "#price_dates"),
        (f"{QUESTION}&order=bogus", "#order"),
        (f"{QUESTION}&currency=XYZ", "#currency"),
        (f"{QUESTION}&purchase_option=bogus", "#purchase_option"),
        (f"{QUESTION}&purchase_option=reserved&term=9y", "#term"),
        (f"{QUESTION}&purchase_option=spot&spot_zone=bogus", "#spot_zone"),
        # A control of its own since issue 54 (under More, opened by the refusal).
        (f"{QUESTION}&verified=bogus", "#verified"),
        ("/instance-types/?burstable=bogus", "#burstable"),
        ("/instance-types/?purchase_option=bogus", "#purchase_option"),
        (f"{COMPARE}&basis=bogus", "#basis"),
        (f"{COMPARE}&purchase_option=bogus", "#purchase_option"),
    ],
)
def test_a_refused_parameter_is_said_beside_its_control(sqlite_site, page, asked, control):
    response = page.goto(f"{sqlite_site}{asked}")
    assert response.status == 400
    name, value = asked.split("&")[-1].split("?")[-1].split("=")
    beside = page.locator("label", has=page.locator(control)).locator(".error")
    assert beside.count() == 1, page.locator(".error").all_inner_texts()
    assert beside.is_visible()
    assert beside.inner_text().startswith(f"{name}={value} refused: "), beside.inner_text()
    assert value in beside.inner_text().split("refused: ")[1]  # the reason names it too
    # Said once, beside its control.
    assert page.locator(".error").count() == 1, page.locator(".error").all_inner_texts()


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        (
            f"{QUESTION}&include=bogus",
            "include=bogus refused: bogus: not a valid choice; choose from values, quartiles",
        ),
        ("/instance-types/?sort=bogus", "sort=bogus refused: bogus is not a valid choice."),
    ],
)
def test_a_refused_parameter_without_a_control_is_said_all_the_same(sqlite_site, page, asked, said):
    response = page.goto(f"{sqlite_site}{asked}")
    assert response.status == 400
    refusals = page.locator("#other-refusals li")
    assert refusals.all_inner_texts() == [said]
    assert refusals.is_visible()
    assert page.locator(".error").count() == 1, page.locator(".error").all_inner_texts()


def test_the_next_choice_asks_without_the_refused_parameter(sqlite_site, page):
    page.goto(f"{sqlite_site}{QUESTION}&verified=bogus&basis=burst")
    with page.expect_navigation():
        page.select_option("#basis", "sustained")
    assert page.locator(".error").count() == 0 and "verified" not in page.url
