"""The landing keeps the whole question (issue 54, item 1): Fargate is a box of the family
picker; the families asked stay in the form whatever the answer shows; the default benchmark is
the CONTRACT's whatever else is loaded; another cloud's region ranks that cloud's types with
prices; estimates, busy and verified stay in the address; an empty answer names a control."""

import datetime
import re
from decimal import Decimal
from html import unescape
from urllib.parse import parse_qs, urlparse

import pytest

from benchmarks.models import InstanceType, Region, Vendor
from benchmarks.questions.price_performance import DEFAULT_FAMILIES
from benchmarks.selectors.answer.empty_answer import CONTROLS
from tests.selectors.test_price_performance import make_type, price, run_with

pytestmark = pytest.mark.django_db

KEY = "openssl:aes-256-cbc"
FIVE = ",".join(DEFAULT_FAMILIES)


@pytest.fixture
def measured():
    """The default families on the default benchmark; many more families on stress-ng:cpu,
    which once everything is loaded covers the most; an Azure region whose default families
    have no price but another Azure family has."""
    for name in (
        *("c7g.large", "c7a.large", "t2.medium", "m5.large", "r5.large", "c5.large"),
        *("m6i.large", "z1d.large", "x2iedn.xlarge"),
    ):
        make_type(name, vcpus=Decimal(2))
        price(name, "0.1", datetime.date(2024, 1, 1))
        run_with(name, [100.0], key="stress-ng:cpu", params={"workers": 1})
    for name in ("c7g.large", "c7a.large", "t2.medium"):
        run_with(name, [2000.0], key=KEY, params={"block_size": 8192, "processes": 2})
    # More types measured with 16-byte blocks: the page still opens on the default's 8192.
    for name in ("c7g.large", "c7a.large", "t2.medium", "m5.large", "r5.large", "c5.large"):
        run_with(name, [200.0], key=KEY, params={"block_size": 16, "processes": 2})
    run_with("c5.large", [5.0], key="membench:latency", params={"size_kb": 1024}, hib=False)
    Region.objects.create(vendor=Vendor.AZURE, code="westus2", name="West US 2")
    for name in ("Standard_B2s_v2", "Standard_D16as_v4"):
        make_type(name, vendor=Vendor.AZURE, kind=InstanceType.Kind.VM, vcpus=Decimal(2))
        run_with(name, [1500.0], key=KEY, params={"block_size": 8192, "processes": 2}, region=None)
    price("Standard_D16as_v4", "0.2", datetime.date(2024, 1, 1), region="westus2")


def picker(html: str) -> dict[str, bool]:
    """The family picker's boxes: family -> ticked."""
    boxes = re.findall(
        r'<input type="checkbox" name="families" value="([^"]+)"[^>]*?( checked)?>', html
    )
    return {family: bool(ticked) for family, ticked in boxes}


def permalink(html: str) -> dict[str, list[str]]:
    link = unescape(re.search(r'id="comparison-answer" data-permalink="([^"]+)"', html)[1])
    return parse_qs(urlparse(link).query, keep_blank_values=True)


def test_fargate_is_a_ticked_box_of_the_picker_without_results(measured, client):
    html = client.get("/").content.decode()
    boxes = picker(html)
    assert boxes["fargate"] is True
    assert [family for family, ticked in boxes.items() if ticked] == list(DEFAULT_FAMILIES)
    assert 'data-families="fargate,t2,c7g,c7a,c7i"' in html  # the five families' preset


def test_the_default_benchmark_is_the_contracts_whatever_covers_more(measured, client):
    html = client.get("/").content.decode()
    assert re.search(rf'<option value="{KEY}"[^>]*selected', html)
    assert permalink(html)["block_size"] == ["8192"]


def test_a_benchmark_without_the_families_asked_keeps_them_in_the_form(measured, client):
    """As `/` then membench:latency: the answer shows every family measured, the form and the
    address keep the five (the next benchmark is asked for them, not for the shown ones)."""
    html = client.get("/", {"benchmark": "membench:latency", "families": FIVE}).content.decode()
    assert "c5.large" in html  # every family measured is shown
    assert [family for family, ticked in picker(html).items() if ticked] == list(DEFAULT_FAMILIES)
    assert 'id="family-picker" data-all' not in html
    assert permalink(html)["families"] == [FIVE]


def test_every_family_asked_stays_every_family(measured, client):
    html = client.get("/", {"benchmark": KEY, "families": ""}).content.decode()
    assert 'id="family-picker" data-all' in html and all(picker(html).values())
    assert permalink(html)["families"] == [""]


def test_another_clouds_region_ranks_its_families_with_prices(measured, client):
    response = client.get("/", {"benchmark": KEY, "region": "westus2", "families": FIVE})
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'data-instance-type="Standard_D16as_v4"', html)
    assert "has an on-demand price in westus2: every Microsoft Azure family with one is shown" in (
        unescape(html)
    )
    # The form still asks the five.
    assert [family for family, ticked in picker(html).items() if ticked] == list(DEFAULT_FAMILIES)


def test_another_clouds_region_without_families_asked_ranks_its_types_with_prices(measured, client):
    html = client.get("/", {"benchmark": KEY, "region": "westus2"}).content.decode()
    assert re.search(r'data-instance-type="Standard_D16as_v4"', html)
    assert "every Microsoft Azure family with one is shown" in unescape(html)


def test_estimates_busy_and_verified_stay_in_the_form_and_the_address(measured, client):
    asked = {"benchmark": KEY, "families": FIVE, "estimates": "exclude", "busy": "0.5"}
    html = client.get("/", {**asked, "verified": "only"}).content.decode()
    link = permalink(html)
    assert (link["estimates"], link["busy"], link["verified"]) == (["exclude"], ["0.5"], ["only"])
    assert '<option value="exclude" selected>' in html
    assert '<option value="0.5" selected>' in html
    assert '<option value="only" selected>' in html


def test_busy_on_a_benchmark_of_one_worker_count_is_kept_aside_not_refused(measured, client):
    response = client.get("/", {"benchmark": "membench:latency", "busy": "0.5"})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "busy=0.5 applies to benchmarks run at several worker counts" in html
    assert permalink(response.content.decode())["busy"] == ["0.5"]


def test_a_currency_without_a_rate_that_day_is_kept_aside_not_refused(measured, client):
    response = client.get("/", {"benchmark": KEY, "currency": "ISK", "at": "2017-12-13"})
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "prices are shown in USD (choose another currency under Currency" in html
    assert '<option value="ISK" selected>' in html


def test_an_empty_answer_names_the_control_to_change(measured, client):
    html = unescape(client.get("/", {"benchmark": KEY, "verified": "only"}).content.decode())
    said = re.search(r'id="empty-because">([^<]+)<', html)[1]
    assert "Runs counted" in said and any(control in said for control in CONTROLS)
