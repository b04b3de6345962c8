"""The instance type page speaks of each type in its own vendor's terms (issue 54, item 7): its
prices' origin and the month its costs count, its price now on the first screen, and its
network as the vendor sells it (a burst "up to" N Gbit/s, and the baseline apart)."""

import datetime
import io
import re
from decimal import Decimal
from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client

from benchmarks.models import InstanceType, Region, Vendor
from benchmarks.selectors.pages import instance_type_facts as facts
from benchmarks.selectors.pages.instance_types import RegionPrices
from tests.commands.test_azure_prices import ITEMS
from tests.commands.test_hetzner_prices import measured  # noqa: F401 (a fixture)
from tests.selectors.test_price_performance import price

pytestmark = pytest.mark.django_db


def text(html: str, element_id: str) -> str:
    """The text of the element with this id (tags removed)."""
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</(?:p|dd)>', html, re.S)
    assert found, element_id
    return unescape(re.sub(r"<[^>]+>", "", found[1]))


def test_a_hetzner_types_page_names_hetzners_prices_and_month(measured, client):  # noqa: F811
    html = unescape(client.get("/instance-types/hcloud:cx22/").content.decode())
    assert "AWS prices" not in html and "AWS's convention" not in html
    assert "Hetzner Cloud's net prices" in html
    assert "quoted in euros" in html
    assert "Hetzner Cloud bills by the hour up to each type's monthly price" in html


def test_an_azure_sizes_page_names_azures_prices_and_month(client):
    call_command("import_prices", "--azure-retail", str(ITEMS), stdout=io.StringIO())
    html = unescape(client.get("/instance-types/azure:Standard_D16as_v4/").content.decode())
    assert "AWS prices" not in html and "AWS's convention" not in html
    assert "Azure's retail prices (its Retail Prices API)" in html
    assert "a month is 730 hours (Azure's convention" in html


def test_an_aws_types_page_keeps_aws_wording(client):
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    html = unescape(client.get("/instance-types/c7g.large/").content.decode())
    assert "AWS prices, as imported with their periods" in html
    assert "a month is 730 hours (AWS's convention)" in html


def test_the_first_screen_says_the_hourly_price_in_the_pages_region(client):
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    price("c7g.large", "0.0616", datetime.date(2024, 1, 1), region="ap-northeast-1")
    price("c7g.large", "0.03", datetime.date(2024, 1, 1), option="spot", zone="use1-az1")
    html = client.get("/instance-types/c7g.large/").content.decode()
    # Right under the name, before the specifications.
    assert html.index('id="price-now"') < html.index('id="specs"')
    assert text(html, "price-now") == (
        "$0.0725 an hour on demand in us-east-1 ($52.92 a month of 730 hours); spot from "
        "$0.03 (use1-az1); cheapest of 2 regions: ap-northeast-1, $0.0616 (every region)."
    )
    # The region asked, when the type has a price there.
    asked = client.get("/instance-types/c7g.large/", {"region": "ap-northeast-1"})
    assert text(asked.content.decode(), "price-now").startswith(
        "$0.0616 an hour on demand in ap-northeast-1"
    )


def test_a_type_without_us_east_1_is_priced_first_where_it_costs_least(measured):  # noqa: F811
    html = Client().get("/instance-types/hcloud:cx22/").content.decode()
    sentence = text(html, "price-now")
    cheapest = (
        Region.objects.filter(vendor=Vendor.HCLOUD, prices__instance_type__name="cx22")
        .order_by("prices__usd_per_hour", "code")
        .values_list("code", flat=True)
        .first()
    )
    assert f"on demand in {cheapest} " in sentence
    # The cost table prices the same region by default.
    assert f"in {cheapest}, prices in force" in unescape(html)


def test_a_burstable_network_reads_up_to_its_burst_with_the_baseline_apart(client):
    InstanceType.objects.create(
        name="t4g.medium",
        vcpus=2,
        memory_gib=4,
        network_gbps=Decimal("0.256"),
        network_performance="Up to 5 Gigabit",
    )
    html = client.get("/instance-types/t4g.medium/").content.decode()
    assert text(html, "network") == (
        "up to 5 Gbit/s, 0.256 Gbit/s baseline once the burst is spent (AWS: “Up to 5 Gigabit”)"
    )


@pytest.mark.parametrize(
    ("words", "known", "expected"),
    [
        ("Up to 12.5 Gigabit", "0.937", "up to 12.5 Gbit/s, 0.937 Gbit/s baseline once the "
         "burst is spent (AWS: “Up to 12.5 Gigabit”)"),
        ("400 Gigabit", "200", "400 Gbit/s (AWS: “400 Gigabit”)"),
        ("Moderate", "0.625", "0.625 Gbit/s (AWS: “Moderate”)"),
        ("", "25", "25 Gbit/s"),
        ("Up to 10 Gigabit", None, "up to 10 Gbit/s (AWS: “Up to 10 Gigabit”)"),
    ],
)  # fmt: skip
def test_networks_read_as_the_vendor_sells_them(words, known, expected):
    instance_type = InstanceType(
        name="x.large",
        network_performance=words,
        network_gbps=Decimal(known) if known else None,
    )
    assert facts.network_of(instance_type).text == expected


def test_no_network_figure_says_nothing():
    assert facts.network_of(InstanceType(name="x.large")) is None


def test_the_page_region_is_the_one_asked_else_us_east_1_else_the_cheapest():
    regions = [RegionPrices("ap-south-1", 0.05), RegionPrices("us-east-1", 0.07)]
    assert facts.page_region(regions, "ap-south-1") == "ap-south-1"
    assert facts.page_region(regions, "eu-west-9") == "us-east-1"
    assert facts.page_region(regions[:1], None) == "ap-south-1"
    assert facts.page_region([], None) is None


def test_another_clouds_type_meets_its_similar_types_in_its_own_region(measured, client):  # noqa: F811
    # cx22 (Hetzner) was shown beside AWS's types in us-east-1, where it has no price.
    InstanceType.objects.filter(name__in=["cx22", "cax11", "ccx13"]).update(memory_gib=4)
    html = unescape(client.get("/instance-types/hcloud:cx22/").content.decode())
    region = re.search(r"on demand in ([a-z0-9]+) ", text(html, "price-now"))[1]
    similar = html.split('<h2 id="similar">')[1].split("</table>")[0]
    assert f"(on-demand, {region})" in similar and "us-east-1" not in similar
    assert re.findall(r'<tr data-instance-type="([^"]+)"', similar)[:1] != []
