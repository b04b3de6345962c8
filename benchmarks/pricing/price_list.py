"""Price List API `get_products` responses -> on-demand and Reserved EC2 prices, EBS volume
rates and Fargate rates."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from benchmarks.errors import DomainError
from benchmarks.pricing.products import make_record, match_product, on_demand_price
from benchmarks.pricing.records import (
    FargateRateRecord,
    PriceRecord,
    ReadStats,
    VolumePriceRecord,
    load_json_file,
    response_entries,
)
from benchmarks.pricing.reserved import reserved_records


def decode_price_list(pages: Iterable[dict]) -> Iterator[dict]:
    """Every item of some `get_products` pages, decoded from the JSON string AWS sends it as."""
    for where, entry in response_entries(pages, key="PriceList", operation="get_products"):
        if isinstance(entry, str):
            try:
                entry = json.loads(entry)
            except json.JSONDecodeError as error:
                raise DomainError(f"{where}: not JSON ({error})") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("product"), dict):
            raise DomainError(f"{where}: not a Price List item (no product)")
        yield entry


def read_price_list(
    pages: Iterable[dict], *, source: str, stats: ReadStats | None = None
) -> Iterator[PriceRecord | FargateRateRecord | VolumePriceRecord]:
    """Linux on-demand and Reserved EC2 prices and EBS volume rates (AmazonEC2 items) and
    Fargate rates (AmazonECS items).

    `source` says where the pages come from; each record's source adds the item's service,
    offer version and publication date.
    """
    stats = stats if stats is not None else ReadStats()
    sources: dict[tuple, str] = {}
    for item in decode_price_list(pages):
        stats.read += 1
        product = item["product"]
        attributes = product.get("attributes") or {}
        service = item.get("serviceCode") or attributes.get("servicecode") or ""
        stats.services.add(service)
        match = match_product(service, attributes, product.get("productFamily") or "")
        if match is None:
            continue
        where = f"SKU {product.get('sku', '?')}"
        terms = item.get("terms") or {}
        priced = on_demand_price(terms.get("OnDemand") or {}, where=where, match=match)
        version = (service, item.get("version"), item.get("publicationDate"))
        if version not in sources:
            sources[version] = f"{source} ({describe_version(*version)})"
        if priced is not None:
            stats.matched += 1
            yield make_record(match, *priced, sources[version])
        if match[0] == "ec2":
            for record in reserved_records(
                terms.get("Reserved") or {}, match=match, source=sources[version], where=where
            ):
                stats.matched += 1
                yield record


def describe_version(service: str, version: str | None, published: str | None) -> str:
    """For example: AmazonEC2 offer version 20210205204500, published 2021-02-05."""
    text = service or "unknown service"
    if version:
        text += f" offer version {version}"
    if published:
        text += f", published {str(published)[:10]}"
    return text


def load_price_list_file(path: Path) -> list[dict]:
    """A saved `get_products` response, a JSON list of them, or one decoded item -> pages."""
    data = load_json_file(path)
    if isinstance(data, dict) and "product" in data:
        return [{"PriceList": [data]}]
    if isinstance(data, dict):
        return [data]
    if isinstance(data, list) and all(isinstance(page, dict) for page in data):
        return data
    raise DomainError(f"{path}: not a get_products response or a list of them")
