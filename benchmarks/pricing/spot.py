"""EC2 `describe_spot_price_history` responses -> spot prices per availability zone."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator

from benchmarks.errors import DomainError
from benchmarks.pricing.records import SPOT, PriceRecord, ReadStats, parse_usd, response_entries

# "Linux/UNIX (Amazon VPC)" is how accounts from the EC2-Classic years see the same price.
LINUX_PRODUCTS = frozenset({"Linux/UNIX", "Linux/UNIX (Amazon VPC)"})

ZONE_NAME = re.compile(r"^(?P<region>[a-z]{2}(?:-[a-z]+)+-\d+)[a-z]$")


def read_spot_price_history(
    pages: Iterable[dict],
    *,
    source: str,
    region: str | None = None,
    stats: ReadStats | None = None,
) -> Iterator[PriceRecord]:
    """Linux/UNIX spot prices, one record per price change and zone.

    A zone is named by its ID (`use1-az1`, the same in every account) when the response gives
    one, else by its name (`us-east-1a`). The region comes from `region`, else from the zone
    name. Each record keeps the time AWS set the price; it is in force from that day.
    """
    stats = stats if stats is not None else ReadStats()
    for where, entry in response_entries(
        pages, key="SpotPriceHistory", operation="describe_spot_price_history"
    ):
        stats.read += 1
        product = entry.get("ProductDescription")
        if product not in LINUX_PRODUCTS:
            continue
        zone_name = entry.get("AvailabilityZone") or ""
        zone = entry.get("AvailabilityZoneId") or zone_name
        if not zone or (region is None and not zone_name):
            raise DomainError(
                f"{where}: no availability zone name to tell the region by; give the region"
            )
        zone_region = region or _region_of_zone(zone_name)
        if zone_region is None:
            continue  # a Local Zone or Wavelength Zone, not a region's own zone
        instance_type = entry.get("InstanceType")
        if not instance_type:
            raise DomainError(f"{where}: no InstanceType")
        price = parse_usd(entry.get("SpotPrice"), where=where)
        if price == 0:
            continue
        observed_at = _timestamp(entry.get("Timestamp"), where=where)
        stats.matched += 1
        yield PriceRecord(
            instance_type=instance_type,
            region=zone_region,
            purchase_option=SPOT,
            usd_per_hour=price,
            effective_from=observed_at.date(),
            source=f"{source}: {product}, price set {observed_at:%Y-%m-%d %H:%M} UTC",
            availability_zone=zone,
            observed_at=observed_at,
        )


def _region_of_zone(zone_name: str) -> str | None:
    found = ZONE_NAME.match(zone_name)
    return found["region"] if found else None


def _timestamp(value: object, *, where: str) -> datetime.datetime:
    """boto3 gives datetimes; a saved response gives "2014-01-06T04:32:53.000Z". -> UTC."""
    if isinstance(value, datetime.datetime):
        moment = value
    else:
        try:
            moment = datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            raise DomainError(f"{where}: Timestamp {value!r} is not a date and time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC)
