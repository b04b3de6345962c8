"""The comparison page and the API on another cloud's region (issue 45, item 4): `region=`
takes `vendor:region` as `regions=` writes it, and a question that names no families opens on
its region's vendor's own (Hetzner's in fsn1), not AWS's five."""

import datetime
import re

import pytest
from rest_framework.test import APIClient

from benchmarks.models import Vendor
from benchmarks.questions.price_performance import VENDOR_DEFAULT_FAMILIES
from benchmarks.selectors.pages.comparison import comparison
from tests.commands.test_hetzner_prices import measured  # noqa: F401 (a fixture)
from tests.selectors.test_price_performance import price

pytestmark = pytest.mark.django_db

QUESTION = {"benchmark": "passmark:cpu-mark", "at": "2024-10-15"}


@pytest.fixture
def clouds(measured):  # noqa: F811
    """Hetzner's cx22, cax11, ccx13 priced in six locations; c7g.large in us-east-1."""
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))


def rows(html: str) -> set[str]:
    return set(re.findall(r'<tr[^>]*data-instance-type="([^"]+)"', html))


@pytest.mark.parametrize("region", ["fsn1", "hcloud:fsn1"])
def test_a_hetzner_region_shows_hetzner_types_without_families_asked(clouds, client, region):
    response = client.get("/", {**QUESTION, "region": region, "currency": "EUR"})
    assert response.status_code == 200
    html = response.content.decode()
    assert rows(html) == {"cx22", "cax11", "ccx13"}
    # AWS's families are not named as missing "with this benchmark": they were not asked.
    missing = re.search(r'id="families-missing">(.*?)</span>', html, re.S)
    assert missing is None or not re.search(r"\b(t2|c7g|c7i)\b", missing[1])


def test_the_api_takes_vendor_and_region_in_region(clouds):
    answer = APIClient().get("/api/v1/price-performance/", {**QUESTION, "region": "hcloud:fsn1"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["region"] == "fsn1"
    assert {row["instance_type"] for row in answer.json()["results"]} == {"cx22", "cax11", "ccx13"}


def test_a_region_its_vendor_does_not_have_is_refused_naming_region(clouds, client):
    answer = APIClient().get("/api/v1/price-performance/", {**QUESTION, "region": "aws:fsn1"})
    assert answer.status_code == 400
    assert "fsn1" in answer.json()["region"][0] and "aws" in answer.json()["region"][0]
    page = client.get("/", {**QUESTION, "region": "hcloud:fsn9"})
    assert page.status_code == 400 and "did you mean fsn1" in page.content.decode()


def test_default_families_follow_the_regions_vendors(clouds):
    from benchmarks.questions.price_performance import PricePerformanceQuery

    asked = PricePerformanceQuery(benchmark="passmark:cpu-mark", region="fsn1")
    result = comparison(asked, families_asked=False)
    assert result.query.families == VENDOR_DEFAULT_FAMILIES[Vendor.HCLOUD]
    both = PricePerformanceQuery(
        benchmark="passmark:cpu-mark",
        region="",
        regions=(("aws", "us-east-1"), ("hcloud", "fsn1")),
    )
    families = comparison(both, families_asked=False).query.families
    assert families == (*VENDOR_DEFAULT_FAMILIES[Vendor.AWS], *VENDOR_DEFAULT_FAMILIES["hcloud"])


def test_a_region_whose_vendor_has_none_of_the_families_asked_shows_its_own(clouds, client):
    """As the page asks when fsn1 is chosen in its menu with AWS's families ticked."""
    html = client.get("/", {**QUESTION, "region": "fsn1", "families": "c7g"}).content.decode()
    assert rows(html) == {"cx22", "cax11", "ccx13"}
    assert "None of c7g is a family of Hetzner Cloud: its cx, cpx, cax, ccx are shown." in html


def test_a_cloud_ticked_with_none_of_its_families_asked_is_ranked_with_its_own(clouds, client):
    regions = {"regions": "aws:us-east-1,hcloud:fsn1", "families": "c7g"}
    html = client.get("/", {**QUESTION, **regions}).content.decode()
    assert rows(html) == {"c7g.large", "cx22", "cax11", "ccx13"}
    assert "its cx, cpx, cax, ccx are shown too." in html


def test_rank_with_offers_every_region_of_each_cloud_with_prices(clouds, client):
    html = client.get("/", {**QUESTION, "region": "us-east-1", "regions": "hcloud:nbg1"})
    html = html.content.decode()
    picker = html[html.index('id="clouds"') : html.index("</fieldset>", html.index('id="clouds"'))]
    assert re.search(r'value="hcloud:nbg1" data-vendor="hcloud" checked', picker)
    offered = re.findall(r'<option value="(hcloud:[a-z0-9]+)"', picker)
    assert len(offered) == 6 and {"hcloud:fsn1", "hcloud:nbg1", "hcloud:hel1"} <= set(offered)
    assert '<option value="hcloud:nbg1" selected>' in picker


def test_a_cloud_ranked_without_a_row_is_said(clouds, client):
    regions = {"regions": "aws:us-east-1,hcloud:fsn1", "instance_types": "c7g.large"}
    html = client.get("/", {**QUESTION, **regions}).content.decode()
    assert rows(html) == {"c7g.large"}
    assert "No instance type asked has a price or results in hcloud:fsn1: it adds no row." in html


def test_arm_across_clouds_asks_each_cloud_where_its_arm_types_have_prices(clouds, client):
    from html import unescape

    from benchmarks.models import InstanceType, Price

    InstanceType.objects.filter(name="cax11").update(architecture="arm64")
    Price.objects.filter(instance_type__name="cax11").exclude(region__code="nbg1").delete()
    html = client.get("/", {**QUESTION, "region": "us-east-1"}).content.decode()
    href = unescape(re.search(r'<a href="([^"]+)" data-preset="arm"', html)[1])
    assert "hcloud%3Anbg1" in href
    answer = client.get("/" + href).content.decode()
    assert re.search(r'data-instance-type="cax11".*?<td>hcloud:nbg1</td>', answer, re.S)


def test_an_answer_in_euros_names_its_per_dollar_figures_per_us_dollar(clouds, client):
    euros = client.get("/", {**QUESTION, "region": "fsn1", "currency": "EUR"}).content.decode()
    header = re.search(r'<th scope="col" class="per-dollar">([^<]+)</th>', euros)[1]
    assert header.endswith("per US dollar-hour") or header.endswith("per US dollar"), header
    dollars = client.get("/", {**QUESTION, "region": "fsn1"}).content.decode()
    assert "per US dollar" not in dollars
