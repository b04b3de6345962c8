"""Hetzner Cloud's prices (`import_prices --hetzner`): net hourly prices in EUR per location,
kept as quoted, idempotent; Hetzner's types ranked per euro in fsn1 (issue 28's acceptance).

The file is a real `GET /v1/server_types` answer of mid-2024
(../shared/data/pricing/other-clouds/SOURCES.md).
"""

import datetime
import io
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from benchmarks.models import InstanceType, Price, Region, Vendor
from tests.json_api import JsonApi
from tests.selectors.test_price_performance import run_with

pytestmark = pytest.mark.django_db

SAMPLE = (
    Path(__file__).resolve().parents[3]
    / "shared/data/pricing/other-clouds/hetzner_server_types_2024_hcloud-autok8s.json"
)
OCTOBER = "2024-10-01"


def run_import(path, *extra) -> str:
    out = io.StringIO()
    call_command("import_prices", "--hetzner", str(path), *extra, stdout=out)
    return out.getvalue()


def test_every_type_is_priced_in_every_location_in_euros_as_quoted():
    summary = run_import(SAMPLE, "--as-of", OCTOBER)
    assert "read 24, matched 105, stored 105" in summary
    assert set(Region.objects.filter(vendor=Vendor.HCLOUD).values_list("code", flat=True)) == {
        "fsn1", "nbg1", "hel1", "ash", "hil", "sin"
    }  # fmt: skip
    cx22 = Price.objects.get(instance_type__name="cx22", region__code="fsn1")
    assert cx22.instance_type.vendor == "hcloud" and cx22.instance_type.kind == "vm"
    assert (cx22.currency, cx22.quoted_per_hour, cx22.purchase_option) == (
        "EUR",
        Decimal("0.0052"),
        "on_demand",
    )
    # In US dollars at the ECB's rate of the day it is in force from (1 EUR = 1.1086 USD).
    assert cx22.usd_per_hour == Decimal("0.0052") * Decimal("1.1086")
    assert cx22.effective_from == datetime.date(2024, 10, 1)
    assert "ECB" in cx22.source and "2024-10-01 (1.1086 USD per EUR)" in cx22.source


def test_every_dollar_price_is_the_net_euro_price_at_the_ecbs_own_rate_to_the_8th_decimal():
    run_import(SAMPLE, "--as-of", OCTOBER)
    prices = Price.objects.filter(region__vendor=Vendor.HCLOUD)
    assert prices.count() == 105
    # No rounded cross rate in between: cpx41 in fsn1 is 0.04534174 (0.0409 / 0.902039 is
    # 0.04534172), and so are the other 18 types there.
    assert {
        (price.instance_type.name, price.region.code): price.usd_per_hour
        for price in prices.select_related("instance_type", "region")
    } == {
        (price.instance_type.name, price.region.code): (
            price.quoted_per_hour * Decimal("1.1086")
        ).quantize(Decimal("1e-8"))
        for price in prices.select_related("instance_type", "region")
    }
    cpx41 = prices.get(instance_type__name="cpx41", region__code="fsn1")
    assert (cpx41.quoted_per_hour, cpx41.usd_per_hour) == (Decimal("0.0409"), Decimal("0.04534174"))


def test_importing_the_same_quotes_again_stores_nothing_even_at_another_rate(tmp_path):
    run_import(SAMPLE, "--as-of", OCTOBER)
    # A month later the euro moved, the quotes did not: no new period.
    assert "stored 0, unchanged 105" in run_import(SAMPLE, "--as-of", "2024-11-04")
    answer = json.loads(SAMPLE.read_text())
    for server_type in answer["server_types"]:
        if server_type["name"] == "cx22":
            for price in server_type["prices"]:
                price["price_hourly"]["net"] = "0.0060000000"
    changed = tmp_path / "server_types.json"
    changed.write_text(json.dumps(answer))
    assert "stored 3, unchanged 102 (3 periods closed)" in run_import(
        changed, "--as-of", "2025-04-01"
    )
    periods = Price.objects.filter(instance_type__name="cx22", region__code="fsn1")
    assert [(p.quoted_per_hour, p.effective_to) for p in periods.order_by("effective_from")] == [
        (Decimal("0.0052"), datetime.date(2025, 3, 31)),
        (Decimal("0.006"), None),
    ]


def test_prices_gives_a_euro_vendors_own_quote_beside_its_dollar_figure():
    from tests.selectors.test_price_performance import price

    run_import(SAMPLE, "--as-of", OCTOBER)
    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    client = APIClient()
    answer = client.get("/api/v1/prices/", {"instance_type": "cax11", "region": "fsn1"})
    assert answer.status_code == 200, answer.content
    [cax11] = answer.json()["results"]
    assert (cax11["vendor"], cax11["currency"], cax11["price_per_hour"]) == (
        "hcloud",
        "EUR",
        0.0053,
    )
    assert cax11["usd_per_hour"] == 0.00587558  # 0.0053 EUR x 1.1086
    # A US-dollar quote has no other figure: usd_per_hour is the quote.
    [c7g] = client.get("/api/v1/prices/", {"instance_type": "c7g.large"}).json()["results"]
    assert c7g["usd_per_hour"] == 0.0725 and "currency" not in c7g and "price_per_hour" not in c7g
    csv = client.get("/api/v1/prices/", {"vendor": "hcloud", "format": "csv"}).content.decode()
    assert "usd_per_hour,currency,price_per_hour" in csv.splitlines()[0]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ("not json", "bad.json: not JSON"),
        ('{"types": []}', "no `server_types` list"),
        ('{"server_types": [{"name": "cx22", "prices": [{"location": "fsn1"}]}]}',
         "cx22): a price names its `location` and `price_hourly.net`"),
        ('{"server_types": [{"name": "cx22", "prices": [{"location": "fsn1", '
         '"price_hourly": {"net": "free"}}]}]}', "cx22 in fsn1: 'free' is not a price"),
    ],
)  # fmt: skip
def test_a_file_that_is_not_a_server_types_answer_is_named_and_nothing_is_written(
    tmp_path, content, error
):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError, match=error.replace("(", r"\(").replace(")", r"\)")):
        run_import(path)
    assert not Price.objects.exists()
    assert not Region.objects.filter(vendor=Vendor.HCLOUD).exists()


@pytest.fixture
def measured():
    """Three Hetzner types measured with PassMark, and one AWS type."""
    for name, vcpus in (("cx22", 2), ("cax11", 2), ("ccx13", 2)):
        InstanceType.objects.create(
            vendor=Vendor.HCLOUD, name=name, kind=InstanceType.Kind.VM, vcpus=vcpus
        )
    run_with("cx22", [7000.0], key="passmark:cpu-mark", region=None)
    run_with("cax11", [6000.0], key="passmark:cpu-mark", region=None)
    run_with("ccx13", [9000.0], key="passmark:cpu-mark", region=None)
    run_with("c7g.large", [9500.0], key="passmark:cpu-mark", region=None)
    run_import(SAMPLE, "--as-of", OCTOBER)


def ask(**options) -> dict:
    response = APIClient().get(
        "/api/v1/price-performance/",
        {"benchmark": "passmark:cpu-mark", "at": "2024-10-15", **options},
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_hetzners_types_rank_per_euro_in_fsn1_at_their_net_prices(measured):
    answer = ask(region="fsn1", currency="EUR")
    rows = {row["instance_type"]: row for row in answer["results"]}
    assert set(rows) == {"cx22", "cax11", "ccx13"} and answer["unpriced"] == []
    cx22 = rows["cx22"]
    assert (cx22["vendor"], cx22["currency"], cx22["price_per_hour"]) == ("hcloud", "EUR", 0.0052)
    assert (cx22["exchange_rate"], cx22["exchange_rate_date"]) == (0.902039, OCTOBER)
    # Best per euro first: cax11 (6,000 for 0.0053) and cx22 (7,000 for 0.0052) before ccx13.
    order = [row["instance_type"] for row in answer["results"]]
    assert order == ["cx22", "cax11", "ccx13"]
    # In US dollars the same ranking, each price converted when it was recorded.
    dollars = ask(region="fsn1")
    assert [row["instance_type"] for row in dollars["results"]] == order
    assert dollars["results"][0]["price_per_hour"] == dollars["results"][0]["usd_per_hour"]


def test_an_aws_question_is_unchanged_by_hetzners_prices(measured):
    from tests.selectors.test_price_performance import price

    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    answer = ask(region="us-east-1")
    assert [row["instance_type"] for row in answer["results"]] == ["c7g.large"]
    assert answer["unpriced"] == []


def test_aws_and_hetzner_ranked_together_in_euros_each_row_with_its_rate(measured):
    from tests.selectors.test_price_performance import price

    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    answer = ask(regions="aws:us-east-1,hcloud:fsn1", currency="EUR")
    assert answer["regions"] == ["aws:us-east-1", "hcloud:fsn1"]
    assert answer["region"] == "aws:us-east-1, hcloud:fsn1"
    rows = {row["instance_type"]: row for row in answer["results"]}
    assert set(rows) == {"c7g.large", "cx22", "cax11", "ccx13"}
    assert {row["vendor"] for row in rows.values()} == {"aws", "hcloud"}
    c7g, cx22 = rows["c7g.large"], rows["cx22"]
    assert (c7g["region"], cx22["region"]) == ("aws:us-east-1", "hcloud:fsn1")
    # AWS's dollar price at the ECB rate of the day asked (15 October 2024: 0.917936 EUR);
    # Hetzner's euro price as quoted, with the rate that made its dollar figure.
    assert (c7g["currency"], c7g["exchange_rate_date"]) == ("EUR", "2024-10-15")
    assert c7g["price_per_hour"] == pytest.approx(0.0725 * c7g["exchange_rate"], rel=1e-6)
    assert (cx22["price_per_hour"], cx22["exchange_rate_date"]) == (0.0052, OCTOBER)
    # Best per dollar first, across both clouds; a shared vCPU says so (cpu_allocation).
    per_dollar = [row["per_dollar"] for row in answer["results"]]
    assert per_dollar == sorted(per_dollar, reverse=True)
    assert "aws:us-east-1, hcloud:fsn1" in answer["summary"]


@pytest.mark.parametrize(
    ("regions", "error"),
    [
        ("us-east-1", "write each region as vendor:region"),
        ("oracle:gra", "write each region as vendor:region"),
        ("aws:fsn1", "fsn1 is a region of hcloud, not aws"),
        ("hcloud:mars1", "hcloud:mars1: unknown region"),
    ],
)
def test_a_region_of_the_wrong_vendor_or_form_is_a_400_naming_regions(measured, regions, error):
    response = APIClient().get(
        "/api/v1/price-performance/", {"benchmark": "passmark:cpu-mark", "regions": regions}
    )
    assert response.status_code == 400
    assert error in json.dumps(response.json()["regions"])


def test_vendor_narrows_a_question_to_its_types_and_regions(measured):
    from tests.selectors.test_price_performance import price

    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    both = "aws:us-east-1,hcloud:fsn1"
    hetzner = ask(regions=both, vendor="hcloud")
    assert hetzner["regions"] == ["hcloud:fsn1"]
    assert {row["vendor"] for row in hetzner["results"]} == {"hcloud"}
    assert [row["instance_type"] for row in ask(region="us-east-1", vendor="aws")["results"]] == [
        "c7g.large"
    ]
    client = APIClient()
    wrong = client.get(
        "/api/v1/price-performance/",
        {"benchmark": "passmark:cpu-mark", "region": "us-east-1", "vendor": "hcloud"},
    )
    assert wrong.status_code == 400
    assert "us-east-1 is a region of aws, not hcloud" in json.dumps(wrong.json()["vendor"])
    none = client.get(
        "/api/v1/price-performance/",
        {"benchmark": "passmark:cpu-mark", "regions": "aws:us-east-1", "vendor": "gcp"},
    )
    assert none.status_code == 400 and "vendor" in none.json()
    unknown = client.get(
        "/api/v1/price-performance/",
        {"benchmark": "passmark:cpu-mark", "region": "us-east-1", "vendor": "oracle"},
    )
    assert unknown.status_code == 400 and "vendor" in unknown.json()


def test_the_comparison_page_offers_each_vendors_regions_and_ranks_hetzners_in_fsn1(
    measured, client
):
    import re

    from tests.selectors.test_price_performance import price

    price("c7g.large", "0.0725", datetime.date(2024, 1, 1))
    page = client.get(
        "/", {"benchmark": "passmark:cpu-mark", "region": "fsn1", "at": "2024-10-15",
              "families": ""}
    )  # fmt: skip
    assert page.status_code == 200
    html = page.content.decode()
    menu = html[html.index('id="region"') : html.index("</select>", html.index('id="region"'))]
    groups = re.findall(r'<optgroup label="([^"]+)"', menu)
    assert groups == ["Amazon Web Services", "Hetzner Cloud"]
    hetzner = menu[menu.index('label="Hetzner Cloud"') :]
    assert '<option value="fsn1" selected>' in hetzner and "us-east-1" not in hetzner
    table = html[html.index('id="results-table"') :] if 'id="results-table"' in html else html
    assert "cx22" in table and "c7g.large" not in table.split("</table>")[0]


PAGE, TOKEN = 10, "read-only-token"


def server_types_pages(path, query, headers):
    """Hetzner Cloud's `GET /v1/server_types`: the real answer's types, PAGE a page with
    `meta.pagination.next_page`, only for the bearer token TOKEN."""
    if headers.get("Authorization") != f"Bearer {TOKEN}":
        return 401, None
    types = json.loads(SAMPLE.read_text())["server_types"]
    page = int(query["page"][0])
    following = page + 1 if page * PAGE < len(types) else None
    return 200, {
        "server_types": types[(page - 1) * PAGE : page * PAGE],
        "meta": {"pagination": {"next_page": following}},
    }


@pytest.fixture
def hetzner_api(settings):
    api = JsonApi(server_types_pages, prefix="/v1")
    settings.PRICEBENCH_HETZNER_API_URL = api.url
    yield api
    api.close()


def test_the_live_api_is_read_page_by_page_with_the_token(hetzner_api, settings):
    settings.PRICEBENCH_HCLOUD_TOKEN = TOKEN
    out = io.StringIO()
    call_command("import_prices", "--api", "--service", "hetzner", "--region", "fsn1", stdout=out)
    assert len(hetzner_api.requests) == 3  # 24 types, 10 a page
    fsn1 = Price.objects.filter(region__code="fsn1")
    assert fsn1.count() == 24 and not Price.objects.exclude(region__code="fsn1").exists()
    assert fsn1.get(instance_type__name="cx22").quoted_per_hour == Decimal("0.0052")


def test_without_a_token_or_with_a_wrong_one_nothing_is_written(hetzner_api, settings):
    settings.PRICEBENCH_HCLOUD_TOKEN = ""
    with pytest.raises(CommandError, match="set HCLOUD_TOKEN"):
        call_command("import_prices", "--api", "--service", "hetzner", "--region", "fsn1")
    settings.PRICEBENCH_HCLOUD_TOKEN = "wrong"
    with pytest.raises(CommandError, match="HTTP 401"):
        call_command("import_prices", "--api", "--service", "hetzner", "--region", "fsn1")
    assert not Price.objects.exists() and not hetzner_api.requests[1:]
