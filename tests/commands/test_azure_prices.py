"""Azure's prices (`import_prices --azure-retail`): Retail Prices API items, Linux and Windows
apart, Spot and Low Priority, reservations as effective hourly prices (issue 28's acceptance).

The file holds 682 real `Virtual Machines` items of the API
(../shared/data/pricing/other-clouds/SOURCES.md).
"""

import datetime
import io
import json
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.core.management import CommandError, call_command

from benchmarks.models import InstanceType, Price, Region, Vendor
from tests.json_api import JsonApi

pytestmark = pytest.mark.django_db

OTHER_CLOUDS = Path(__file__).resolve().parents[3] / "shared/data/pricing/other-clouds"
ITEMS = OTHER_CLOUDS / "azure_retail_vm_items_carbonandfinch_subset.json"
PAGE = OTHER_CLOUDS / "azure_retail_envelope_ace_aks_availability_set.json"


def run_import(path) -> str:
    out = io.StringIO()
    call_command("import_prices", "--azure-retail", str(path), stdout=out)
    return out.getvalue()


def d16as(**fields) -> Price:
    return Price.objects.get(
        instance_type__name="Standard_D16as_v4", region__code="westus2", **fields
    )


def test_linux_on_demand_prices_and_reservations_as_effective_hourly_prices():
    summary = run_import(ITEMS)
    assert "read 682" in summary
    on_demand = d16as(purchase_option="on_demand", os="linux")
    assert (on_demand.usd_per_hour, on_demand.currency) == (Decimal("0.768"), "USD")
    assert on_demand.effective_from == datetime.date(2021, 11, 1)
    assert on_demand.instance_type.vendor == "azure" and on_demand.instance_type.kind == "vm"
    assert on_demand.region.vendor == "azure"
    # $3,956 for a year: $0.45159817 an hour, upfront or spread over the months alike.
    upfront = d16as(purchase_option="reserved", term="1y", payment="all_upfront")
    monthly = d16as(purchase_option="reserved", term="1y", payment="no_upfront")
    assert upfront.usd_per_hour == monthly.usd_per_hour == Decimal("0.45159817")
    assert (upfront.upfront_usd, upfront.hourly_usd) == (Decimal("3956"), Decimal(0))
    assert (monthly.upfront_usd, monthly.hourly_usd) == (Decimal(0), Decimal("0.45159817"))
    three = d16as(purchase_option="reserved", term="3y", payment="all_upfront")
    assert three.usd_per_hour == (Decimal(7589) / 26280).quantize(Decimal("1e-8"))


def test_windows_spot_and_low_priority_are_kept_apart_and_dev_test_left_out():
    run_import(ITEMS)
    items = json.loads(ITEMS.read_text())
    kept = [
        item for item in items
        if item["type"] != "DevTestConsumption" and item["armSkuName"]
        and "Host" not in item["productName"]
    ]  # fmt: skip
    windows = Price.objects.filter(os="windows")
    assert windows.exists() and Price.objects.filter(os="linux").exists()
    assert Price.objects.filter(purchase_option="spot").count() == sum(
        1 for item in kept if item["type"] == "Consumption" and item["skuName"].endswith("Spot")
    )
    low = Price.objects.filter(purchase_option="low_priority")
    assert low.count() == sum(1 for item in kept if item["skuName"].endswith("Low Priority"))
    assert not Price.objects.filter(source__icontains="devtest").exists()
    assert Region.objects.filter(vendor=Vendor.AZURE).count() == len(
        {item["armRegionName"] for item in kept}
    )
    # Dedicated hosts are whole hosts, not sizes: no type is made of them.
    hosts = {item["armSkuName"] for item in items if "Host" in item["productName"]}
    assert hosts >= {"Dsv5_Type1", "Dadsv5_Type1"}
    assert not Price.objects.filter(instance_type__name__in=hosts).exists()
    assert not InstanceType.objects.filter(name__in=hosts).exists()


def test_importing_again_stores_nothing_and_a_page_is_read_as_items_are():
    first = run_import(ITEMS)
    again = run_import(ITEMS)
    assert "stored 0" in again and "stored 0" not in first
    # A whole API page (`Items`, `NextPageLink`): Standard_D2s_v3 in westeurope, Windows.
    run_import(PAGE)
    page = Price.objects.get(instance_type__name="Standard_D2s_v3", region__code="westeurope")
    assert (page.os, page.usd_per_hour) == ("windows", Decimal("0.212"))


def test_items_that_are_not_retail_prices_are_named_and_nothing_is_written(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([{"armSkuName": "Standard_D2s_v3"}]))
    with pytest.raises(CommandError, match="neither a page"):
        run_import(path)
    item = json.loads(ITEMS.read_text())[0]
    path.write_text(json.dumps([{**item, "retailPrice": "a lot"}]))
    with pytest.raises(CommandError, match="is not a price"):
        run_import(path)
    assert not Price.objects.exists() and not InstanceType.objects.filter(vendor="azure").exists()


ITEMS_PER_PAGE = 10


def retail_pages(items: list[dict], api: JsonApi):
    """Azure's Retail Prices API: the items of the region asked, ITEMS_PER_PAGE a page linked by
    NextPageLink, as the API pages them."""

    def answer(path, query, headers):
        region = query["$filter"][0].split("armRegionName eq '")[1].rstrip("'")
        chosen = [item for item in items if item["armRegionName"] == region]
        skip = int(query.get("$skip", ["0"])[0])
        following = None
        if skip + ITEMS_PER_PAGE < len(chosen):
            asked = urlencode({"$filter": query["$filter"][0], "$skip": skip + ITEMS_PER_PAGE})
            following = f"{api.url}?{asked}"
        page = chosen[skip : skip + ITEMS_PER_PAGE]
        return 200, {"BillingCurrency": "USD", "Items": page, "NextPageLink": following,
                     "Count": len(page)}  # fmt: skip

    return answer


@pytest.fixture
def retail_api(settings):
    items = json.loads(ITEMS.read_text())
    api = JsonApi(lambda *asked: pages(*asked), prefix="/api/retail/prices")
    pages = retail_pages(items, api)
    settings.PRICEBENCH_AZURE_PRICES_URL = api.url
    yield api
    api.close()


def test_the_live_api_is_read_page_by_page_as_the_saved_items_are(retail_api):
    out = io.StringIO()
    call_command("import_prices", "--api", "--service", "azure", "--region", "westus2",
                 stdout=out)  # fmt: skip
    westus2 = [i for i in json.loads(ITEMS.read_text()) if i["armRegionName"] == "westus2"]
    assert len(retail_api.requests) == -(-len(westus2) // ITEMS_PER_PAGE) > 1
    assert "serviceName+eq+%27Virtual+Machines%27" in retail_api.requests[0]
    assert d16as(purchase_option="on_demand", os="linux").usd_per_hour == Decimal("0.768")
    assert not Price.objects.exclude(region__code="westus2").exists()
    # The saved file's westus2 prices are these: reading it adds only other regions'.
    before = Price.objects.filter(region__code="westus2").count()
    run_import(ITEMS)
    assert Price.objects.filter(region__code="westus2").count() == before


def test_a_page_the_api_cannot_give_is_named_and_nothing_is_written(settings):
    settings.PRICEBENCH_AZURE_PRICES_URL = "http://127.0.0.1:9/api/retail/prices"
    with pytest.raises(CommandError, match="could not be read"):
        call_command("import_prices", "--api", "--service", "azure", "--region", "westus2",
                     stdout=io.StringIO())  # fmt: skip
    assert not Price.objects.exists()
