"""Purchase options as the pages say them: "On-demand", "Spot", "Reserved Instance", never the
parameter's value (`on_demand`)."""

import re

import pytest
from django.test import Client

from benchmarks.models.prices import PurchaseOption, purchase_label

pytestmark = pytest.mark.django_db


def test_each_purchase_option_has_its_label_and_an_unknown_value_stays_as_given():
    assert purchase_label("on_demand") == "On-demand"
    assert purchase_label("savings_plan") == "Savings Plan"
    assert purchase_label("bogus") == "bogus"


def test_the_price_menu_and_the_unpriced_list_name_the_option_by_its_label(demo_rolled_back):
    html = Client().get("/?benchmark=openssl:aes-128-gcm&region=us-east-1").content.decode()
    menu = re.search(r'<select name="purchase_option".*?</select>', html, re.S).group(0)
    shown = re.findall(r'<option value="([a-z_]+)"[^>]*>([^<]+)</option>', menu)
    assert shown and all(label == PurchaseOption(value).label for value, label in shown)
    assert ("on_demand", "On-demand") in shown
    assert "on_demand price in" not in html
