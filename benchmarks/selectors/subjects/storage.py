"""Reads about EBS volumes: what volumes cost a month with the prices of a day.

Kept apart from the compute selectors; the API and the volume page call the same functions.
The gp2 burst model needs no database: `benchmarks.storage.gp2`.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone

from benchmarks.errors import DomainError
from benchmarks.models import Region, VolumePrice
from benchmarks.storage import gp2, volumes
from benchmarks.storage.gp2 import Gp2Burst


@dataclass(frozen=True)
class CostPart(volumes.Part):
    """One line of a volume's monthly bill, with the price period it was computed from."""

    effective_from: datetime.date
    effective_to: datetime.date | None
    source: str
    price_note: str | None


@dataclass(frozen=True)
class VolumeCost:
    """The answer of `GET /api/v1/volume-cost/`: a volume's monthly price on a day."""

    region: str
    volume_type: str
    size_gb: int
    iops: int | None
    throughput: int | None
    at: datetime.date
    usd_per_month: Decimal
    parts: list[CostPart]
    baseline_iops: int | None
    max_iops: int
    baseline_throughput: float | None
    max_throughput: float | None


def volume_cost(
    *,
    region_code: str,
    volume_type: str,
    size_gb: int,
    iops: int | None = None,
    throughput: int | None = None,
    at: datetime.date | None = None,
) -> VolumeCost:
    """What a volume costs a month with the prices in force on `at` (default today).

    A component with no price in force that day is priced at the nearest period known, and
    its part says so; a component with no price at all is a 404 naming it.
    """
    (cost,) = volume_costs(
        region_code=region_code,
        specs=[(volume_type, size_gb, iops, throughput)],
        at=at,
    )
    return cost


def volume_costs(
    *,
    region_code: str,
    specs: list[tuple[str, int, int | None, int | None]],
    at: datetime.date | None = None,
) -> list[VolumeCost]:
    """Several volumes (type, size, iops, throughput) priced side by side, in one query."""
    region, day, items, periods = _volumes_and_periods(region_code, specs, at)
    return [_cost(region, item, day, periods) for item in items]


def _volumes_and_periods(
    region_code: str, specs: list[tuple[str, int, int | None, int | None]], at
) -> tuple:
    """The region, the day, the volumes the specs describe and their price periods (one
    query)."""
    region = _region(region_code)
    items = [
        volumes.volume(volume_type, size_gb, iops=iops, throughput=throughput)
        for volume_type, size_gb, iops, throughput in specs
    ]
    return region, at or timezone.now().date(), items, _periods(region, items)


def _periods(region: Region, items: list[volumes.Volume]) -> dict[tuple, list[VolumePrice]]:
    """Every period of the volumes' types in the region, by (type, component, tier), in one
    query."""
    periods: dict[tuple[str, str, int], list[VolumePrice]] = defaultdict(list)
    for period in VolumePrice.objects.filter(
        region=region, volume_type__in={item.volume_type for item in items}
    ).order_by("effective_from"):
        periods[(period.volume_type, period.component, period.tier)].append(period)
    return periods


def _cost(region: Region, item: volumes.Volume, day: datetime.date, periods) -> VolumeCost:
    chosen: dict[tuple[str, int], tuple[VolumePrice, str | None]] = {}
    for charge in volumes.charges(item):
        known = periods.get((item.volume_type, charge.component, charge.tier))
        if not known:
            tier = f" (tier {charge.tier})" if charge.tier != 1 else ""
            raise DomainError(
                f"no {item.volume_type} {charge.component}{tier} price is known in "
                f"{region.code}; import EBS prices (import_prices --api --service ebs "
                f"--region {region.code}, or an offer file)",
                status_code=404,
            )
        chosen[(charge.component, charge.tier)] = _period_on(known, day)
    bill = volumes.monthly_cost(
        item, {key: period.usd_per_unit_month for key, (period, _) in chosen.items()}
    )
    parts = [
        CostPart(
            **dataclasses.asdict(part),
            effective_from=period.effective_from,
            effective_to=period.effective_to,
            source=period.source,
            price_note=note,
        )
        for part in bill
        for period, note in [chosen[(part.what, part.tier)]]
    ]
    performance = volumes.performance(item)
    return VolumeCost(
        region=region.code,
        volume_type=item.volume_type,
        size_gb=item.size_gb,
        iops=item.iops,
        throughput=item.throughput,
        at=day,
        usd_per_month=sum((part.usd_per_month for part in parts), Decimal(0)),
        parts=parts,
        baseline_iops=performance.baseline_iops,
        max_iops=performance.max_iops,
        baseline_throughput=performance.baseline_throughput,
        max_throughput=performance.max_throughput,
    )


def _period_on(periods: list[VolumePrice], day: datetime.date) -> tuple[VolumePrice, str | None]:
    """The period in force on `day`, else the nearest one and a note saying which."""
    for period in periods:
        if period.effective_from <= day and (
            period.effective_to is None or period.effective_to >= day
        ):
            return period, None

    def distance(period: VolumePrice) -> int:
        if period.effective_from > day:
            return (period.effective_from - day).days
        return (day - period.effective_to).days

    nearest = min(periods, key=distance)
    until = f" to {nearest.effective_to}" if nearest.effective_to else ""
    return nearest, (
        f"no price in force on {day}; using the nearest known, in force from "
        f"{nearest.effective_from}{until}"
    )


def _region(code: str) -> Region:
    found = Region.objects.filter(code=code).first()
    if found is None:
        codes = list(Region.objects.values_list("code", flat=True))
        close = difflib.get_close_matches(code, codes, n=3, cutoff=0.6)
        suggestion = f"; did you mean {', '.join(close)}?" if close else ""
        raise DomainError(f"unknown region {code!r}{suggestion}", field="region")
    return found


# ---- the volume page --------------------------------------------------------------------


@dataclass(frozen=True)
class VolumeRow:
    """One volume of the page: its cost (or why it has none) and the IOPS it delivers."""

    volume: volumes.Volume
    cost: VolumeCost | None
    error: str | None
    # [t, IOPS] under the page's load; None for HDD volumes (their I/O is counted in MiB).
    delivered: list[tuple[int, int]] | None
    burst: Gp2Burst | None = None

    @property
    def label(self) -> str:
        """`io1 100 GB, 1,000 IOPS`, `gp3 100 GB, 3,000 IOPS, 125 MiB/s`."""
        text = f"{self.volume.volume_type} {self.volume.size_gb:,} GB"
        if self.volume.iops is not None:
            text += f", {self.volume.iops:,} IOPS"
        if self.volume.throughput is not None:
            text += f", {self.volume.throughput:,} MiB/s"
        return text


@dataclass(frozen=True)
class VolumeComparison:
    """Volumes priced side by side in one region on one day, under one constant load."""

    region: str
    at: datetime.date
    load_iops: int
    seconds: int
    rows: list[VolumeRow]

    @property
    def sources(self) -> list[str]:
        """Every price source the rows use, once each."""
        found = [part.source for row in self.rows if row.cost for part in row.cost.parts]
        return list(dict.fromkeys(found))


def volume_comparison(
    *,
    region_code: str,
    specs: list[tuple[str, int, int | None, int | None]],
    at: datetime.date | None = None,
    load_iops: int = gp2.DEFAULT_LOAD_IOPS,
    seconds: int = gp2.DEFAULT_SECONDS,
) -> VolumeComparison:
    """Volumes priced side by side (a volume without a price says so instead of failing the
    others), with the IOPS each delivers under a constant load: gp2 bursts, then falls to its
    baseline; provisioned volumes deliver their IOPS."""
    region, day, items, periods = _volumes_and_periods(region_code, specs, at)
    rows = []
    for item in items:
        try:
            cost, error = _cost(region, item, day, periods), None
        except DomainError as refused:
            cost, error = None, refused.message
        burst, delivered = None, None
        if item.volume_type == "gp2":
            # No gp2 volume delivers more than its maximum: a heavier load changes nothing.
            burst = gp2.gp2_burst(
                item.size_gb, iops=min(load_iops, gp2.MAX_BASELINE_IOPS), seconds=seconds
            )
            delivered = burst.timeline
        elif item.iops is not None:
            delivered = [(0, min(load_iops, item.iops)), (seconds, min(load_iops, item.iops))]
        rows.append(VolumeRow(item, cost, error, delivered, burst))
    return VolumeComparison(
        region=region.code, at=day, load_iops=load_iops, seconds=seconds, rows=rows
    )


def volume_priced_regions() -> list[str]:
    """Codes of the regions with EBS volume prices, for the page's menu."""
    return list(
        Region.objects.filter(volume_prices__isnull=False)
        .distinct()
        .order_by("code")
        .values_list("code", flat=True)
    )
