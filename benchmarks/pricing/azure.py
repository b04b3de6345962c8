"""Azure's prices: items of the Retail Prices API (https://prices.azure.com/api/retail/prices),
read into records.

The API is public and paginated: each page holds `Items` and a `NextPageLink` (null on the
last). Each item prices one meter: `armSkuName` (Standard_D16as_v4) in `armRegionName`
(westus2), `retailPrice` in `currencyCode` per `unitOfMeasure`, from `effectiveStartDate`
(to `effectiveEndDate`, when given). What pricebench keeps of the virtual machines:

- `type` Consumption: on demand, or Spot or Low Priority when the `skuName` says so;
- `type` Reservation: a 1- or 3-year reservation (`reservationTerm`), priced for the whole
  term: its effective hourly price is that over the term's hours. Azure bills a reservation
  at the same total paid upfront or monthly, so it is kept both ways (`all_upfront`: the
  total upfront; `no_upfront`: the same spread over the term's hours);
- Linux and Windows apart (`os`: a `productName` that names Windows);
- DevTestConsumption (Dev/Test subscriptions only), items that are not hourly virtual
  machines, and dedicated hosts (`Dsv5_Type1`: a whole host, not a size; their
  `productName` says "Dedicated Host" or "DedicatedHost") are left out.
  (`isPrimaryMeterRegion` false is kept: sizes that share a meter, Standard_D16as_v4 among
  them, are priced only by such items.)
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

from benchmarks import per_dollar
from benchmarks.currency import USD, exchange_rate
from benchmarks.errors import DomainError
from benchmarks.pricing.records import (
    PLACES,
    QuotedPriceRecord,
    follow_pages,
    load_json_file,
    parse_day,
    parse_usd,
)

VENDOR = "azure"
# "Dadsv5 Series Dedicated Host", "Dsv5 Series DedicatedHost".
_DEDICATED_HOST = re.compile(r"Dedicated ?Host")
API_URL = "https://prices.azure.com/api/retail/prices"
VIRTUAL_MACHINES = "Virtual Machines"
TERMS = {"1 Year": "1y", "3 Years": "3y"}


def load_items(path: Path) -> list[dict]:
    """Every item of a saved answer: a bare list of items, one page (`Items`), or a list of
    pages; DomainError naming the file when it is none of these."""
    return items_of(load_json_file(path))


def items_of(data: object) -> list[dict]:
    """The items of a page, a list of pages or a bare list of items."""
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise DomainError("not Azure Retail Prices items: neither a list nor a page")
    items: list[dict] = []
    for entry in data:
        if isinstance(entry, dict) and isinstance(entry.get("Items"), list):
            items.extend(entry["Items"])
        elif isinstance(entry, dict) and "retailPrice" in entry:
            items.append(entry)
        else:
            raise DomainError(
                "not Azure Retail Prices items: an entry is neither a page (`Items`) nor an "
                "item (`retailPrice`)"
            )
    return items


def regions_of(items: Iterable[dict]) -> dict[str, str]:
    """{armRegionName: location} of the items."""
    return {
        item["armRegionName"]: item.get("location") or item["armRegionName"]
        for item in items
        if item.get("armRegionName")
    }


def _option(item: dict) -> str:
    sku = item.get("skuName", "")
    if sku.endswith("Low Priority"):
        return "low_priority"
    return "spot" if sku.endswith("Spot") else "on_demand"


def vm_prices(items: Iterable[dict], *, source: str) -> Iterator[QuotedPriceRecord]:
    """Records of the hourly virtual machine prices among `items` (the module docstring says
    which); a DomainError names the first item that is not as the API writes it."""
    for index, item in enumerate(items):
        if item.get("serviceName") != VIRTUAL_MACHINES or item.get("type") not in (
            "Consumption",
            "Reservation",
        ):
            continue
        if item.get("unitOfMeasure") != "1 Hour":
            continue
        where = f"item {index}"
        try:
            name, region, currency = item["armSkuName"], item["armRegionName"], item["currencyCode"]
            price, start = item["retailPrice"], item["effectiveStartDate"]
        except KeyError as error:
            raise DomainError(f"{where}: no {error.args[0]}") from None
        if not name or not region or _DEDICATED_HOST.search(item.get("productName", "")):
            continue  # a meter of no one size (a dedicated host, a software licence)
        where = f"{name} in {region} ({item.get('skuName', '')})"
        amount = parse_usd(price, where=where)
        effective_from = parse_day(start, where=where)
        end = item.get("effectiveEndDate")
        effective_to = parse_day(end, where=where) if end else None
        rate = exchange_rate(currency, effective_from)
        common = {
            "vendor": VENDOR,
            "instance_type": name,
            "region": region,
            "currency": currency,
            "effective_from": effective_from,
            "effective_to": effective_to,
            "os": "windows" if "Windows" in item.get("productName", "") else "linux",
            "source": source
            + (
                ""
                if currency == USD
                else f"; in US dollars at the ECB rate of {rate.day} ({rate.published})"
            ),
        }
        if item["type"] == "Consumption":
            yield QuotedPriceRecord(
                **common,
                purchase_option=_option(item),
                quoted_per_hour=amount,
                usd_per_hour=rate.usd_of(amount).quantize(PLACES),
            )
            continue
        term = TERMS.get(item.get("reservationTerm", ""))
        if term is None:
            raise DomainError(f"{where}: reservationTerm {item.get('reservationTerm')!r}")
        hours = per_dollar.term_hours(term)
        hourly = (amount / hours).quantize(PLACES)
        upfront_usd = rate.usd_of(amount).quantize(PLACES)
        for payment, upfront, per_hour in (
            ("all_upfront", upfront_usd, Decimal(0)),
            ("no_upfront", Decimal(0), rate.usd_of(hourly).quantize(PLACES)),
        ):
            yield QuotedPriceRecord(
                **common,
                purchase_option="reserved",
                term=term,
                payment=payment,
                offering_class="standard",
                quoted_per_hour=hourly,
                usd_per_hour=per_dollar.effective_hourly(
                    upfront_usd=upfront, hourly_usd=per_hour, hours=hours
                ).quantize(PLACES),
                upfront_usd=upfront,
                hourly_usd=per_hour,
            )


# A query's pages are followed to its last, up to this many (the whole VM catalogue of one
# region is some tens of pages of 1,000 items).
MAX_PAGES = 500


def fetch_pages(base_url: str, *, region: str | None = None) -> Iterator[dict]:
    """The API's pages of virtual machine prices (of one region, when given), following
    `NextPageLink` to the last; a DomainError (502) names a page that cannot be read."""
    query = "serviceName eq 'Virtual Machines'"
    if region:
        query += f" and armRegionName eq '{region}'"
    return follow_pages(
        f"{base_url}?{urllib.parse.urlencode({'$filter': query})}",
        items="Items",
        next_url=lambda _url, page: page.get("NextPageLink") or None,
        what="a Retail Prices page",
        max_pages=MAX_PAGES,
    )
