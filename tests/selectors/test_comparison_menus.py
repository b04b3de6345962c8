"""selectors/pages/comparison_menus.py: the comparison page's menus, from the question alone."""

from decimal import Decimal
from types import SimpleNamespace

from benchmarks.selectors.pages.comparison_menus import busy_menu


def test_the_busy_menu_offers_the_usual_shares_and_the_one_asked_in_order():
    menu = busy_menu(SimpleNamespace(busy=Decimal("0.30")))
    assert menu["busy_choices"] == [
        ("0.25", "25%"), ("0.3", "30%"), ("0.5", "50%"), ("0.75", "75%"), ("1", "100%"),
    ]  # fmt: skip
    assert menu["busy_asked"] == "0.3"


def test_the_busy_menu_without_a_share_asked_chooses_none():
    menu = busy_menu(SimpleNamespace(busy=None))
    assert [value for value, _label in menu["busy_choices"]] == ["0.25", "0.5", "0.75", "1"]
    assert menu["busy_asked"] == ""
