"""Hetzner Cloud's prices: the `GET /v1/server_types` answer of its API, read into records.

Each server type lists a price per location (`fsn1`, `nbg1`, `hel1`, `ash`, `hil`, `sin`):
`price_hourly` and `price_monthly`, each `net` and `gross` (with VAT), in euros, as strings
("0.0052000000"). pricebench keeps the net hourly price, as quoted, in EUR; its US-dollar
figure is it at the ECB's reference rate of the day the price is recorded from (net EUR x the
ECB's US dollars per euro, to the 8th decimal). The API gives no dates: a price is in force
from the day it is read (or the day the caller names).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator

from benchmarks.currency import exchange_rate
from benchmarks.errors import DomainError
from benchmarks.pricing.records import PLACES, QuotedPriceRecord, follow_pages, parse_usd

VENDOR = "hcloud"
CURRENCY = "EUR"
API_URL = "https://api.hetzner.cloud/v1/server_types"
# Hetzner's locations, as its `GET /v1/locations` names them (city, country).
LOCATIONS = {
    "fsn1": "Falkenstein, DE",
    "nbg1": "Nuremberg, DE",
    "hel1": "Helsinki, FI",
    "ash": "Ashburn, VA, US",
    "hil": "Hillsboro, OR, US",
    "sin": "Singapore, SG",
}


def server_type_prices(
    answer: object, *, day: datetime.date, source: str
) -> Iterator[QuotedPriceRecord]:
    """The net hourly price of every server type in every location it is sold in, in force
    from `day`; a DomainError names the first thing that is not as the API writes it."""
    if not isinstance(answer, dict) or not isinstance(answer.get("server_types"), list):
        raise DomainError("not a Hetzner Cloud server_types answer: no `server_types` list")
    rate = exchange_rate(CURRENCY, day)
    for index, server_type in enumerate(answer["server_types"]):
        where = f"server_types[{index}]"
        if not isinstance(server_type, dict) or not isinstance(server_type.get("name"), str):
            raise DomainError(f"{where}: a server type has a `name`")
        name = server_type["name"]
        prices = server_type.get("prices")
        if not isinstance(prices, list):
            raise DomainError(f"{where} ({name}): `prices` is not a list")
        for price in prices:
            try:
                location, net = price["location"], price["price_hourly"]["net"]
            except (KeyError, TypeError):
                raise DomainError(
                    f"{where} ({name}): a price names its `location` and `price_hourly.net`"
                ) from None
            quoted = parse_usd(net, where=f"{name} in {location}")
            yield QuotedPriceRecord(
                vendor=VENDOR,
                instance_type=name,
                region=str(location),
                currency=CURRENCY,
                quoted_per_hour=quoted,
                usd_per_hour=rate.usd_of(quoted).quantize(PLACES),
                effective_from=day,
                source=f"{source}; net hourly price in EUR, in US dollars at the ECB's "
                f"reference rate of {rate.day} ({rate.published})",
            )


MAX_PAGES = 100


def fetch_server_types(base_url: str, *, token: str) -> dict:
    """Every page of `GET /v1/server_types` (50 a page, following `meta.pagination.next_page`)
    as one answer; a DomainError (502) names a page that cannot be read."""

    def address(page: int) -> str:
        return f"{base_url}/server_types?per_page=50&page={page}"

    def next_url(_url: str, body: dict) -> str | None:
        following = ((body.get("meta") or {}).get("pagination") or {}).get("next_page")
        return address(following) if following else None

    pages = follow_pages(
        address(1),
        items="server_types",
        next_url=next_url,
        what="a server_types page",
        max_pages=MAX_PAGES,
        headers={"Authorization": f"Bearer {token}"},
    )
    return {"server_types": [server_type for body in pages for server_type in body["server_types"]]}
