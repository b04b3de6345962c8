"""Imports of AWS prices, one per source: the bundled snapshot, offer files, saved Price List,
spot history and describe_instance_types responses. Each reads all of its source first (a
file may take minutes), then writes in one transaction."""

from __future__ import annotations

import datetime
import json
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import transaction

from benchmarks.errors import DomainError
from benchmarks.models import Region
from benchmarks.pricing import aws, fargate_spot, savings_plans, snapshot, versions
from benchmarks.pricing.instance_types import read_instance_types
from benchmarks.pricing.offer_files import OfferFile, Progress
from benchmarks.pricing.price_list import load_price_list_file, read_price_list
from benchmarks.pricing.products import EC2, ECS, RDS
from benchmarks.pricing.records import (
    ReadStats,
    load_json_file,
)
from benchmarks.pricing.spot import read_spot_price_history
from benchmarks.services.prices import periods
from benchmarks.services.prices.databases import AURORA_RATES, DATABASE_PRICES
from benchmarks.services.prices.ec2 import PRICES, record_prices
from benchmarks.services.prices.fargate import FARGATE_RATES, record_fargate_rates
from benchmarks.services.prices.periods import ImportSummary
from benchmarks.services.prices.specs import update_instance_specs
from benchmarks.services.prices.volumes import VOLUME_PRICES, record_volume_prices

# Every kind of price a file or an API answer may hold, in the order they are written.
ALL_TABLES = (DATABASE_PRICES, AURORA_RATES, PRICES, FARGATE_RATES, VOLUME_PRICES)


# Records written per call of record_periods: its model instances, not the records, are what
# a big file's import holds in memory (an EC2 file's Reserved terms are 12 per price).
WRITE_BATCH = 5_000


@transaction.atomic
def _record_any(records: Iterable) -> ImportSummary:
    """Read every record first (a file may take minutes), then write them in one transaction,
    a batch at a time; a batch never splits the records of one instance type in a region."""
    records = list(records)
    records.sort(key=_write_group)
    summary, batch, group = ImportSummary(), [], None
    for record in records:
        if len(batch) >= WRITE_BATCH and _write_group(record) != group:
            summary += periods.record_periods(batch, *ALL_TABLES)
            batch = []
        batch.append(record)
        group = _write_group(record)
    if batch or not records:
        summary += periods.record_periods(batch, *ALL_TABLES)
    summary.notes = list(dict.fromkeys(summary.notes))
    return summary


def _write_group(record) -> tuple[str, str, str]:
    """What a record's periods are fitted among: its kind, region and instance type."""
    name = getattr(record, "instance_type", None) or getattr(record, "instance_class", "")
    return (type(record).__name__, record.region, name)


def _with_stats(summary: ImportSummary, stats: ReadStats, source: str) -> ImportSummary:
    summary.read, summary.matched, summary.source = stats.read, stats.matched, source
    return summary


@transaction.atomic
def import_snapshot(*, directory: Path = snapshot.DEMO_DIR) -> ImportSummary:
    """Load the bundled snapshot (instance types, prices, Fargate rates, EBS volume rates);
    loading again stores nothing."""
    summary = update_instance_specs(
        specs=snapshot.read_instance_types(directory / "instance_types.csv")
    )
    summary += record_prices(records=snapshot.read_prices(directory / "prices.csv"))
    # Reserved terms (scripts/build_demo_commitments.py): the few the shared data holds.
    commitments = directory / "commitment_prices.csv"
    if commitments.is_file():
        summary += record_prices(records=snapshot.read_commitment_prices(commitments))
    summary += record_fargate_rates(
        records=snapshot.read_fargate_rates(directory / "fargate_rates.csv")
    )
    summary += record_volume_prices(
        records=snapshot.read_volume_prices(directory / "volume_prices.csv")
    )
    summary.read = summary.matched
    summary.source = f"the bundled snapshot ({directory})"
    return summary


@transaction.atomic
def import_offer_file(*, path: Path, progress: Progress | None = None) -> ImportSummary:
    """An AWS bulk offer file (EC2 with its Reserved terms and EBS volume rates, ECS, RDS, or a
    region's Savings Plans file, told apart by its content; JSON or CSV, any size), streamed."""
    if savings_plans.looks_like(path):
        plans = savings_plans.SavingsPlanFile(path)
        summary = _record_any(plans.records())
        summary.notes.append(plans.stats.describe_skipped())
        summary.read, summary.matched, summary.source = (
            plans.stats.read,
            plans.stats.matched,
            plans.source,
        )
        return summary
    offer = OfferFile(path, progress=progress)
    summary = _record_any(offer.records())
    return _with_stats(summary, offer.stats, offer.info.source)


def import_offer_version(
    *,
    as_of: datetime.date,
    region: str | None = None,
    index: Path | None = None,
    base_url: str | None = None,
    progress: Progress | None = None,
) -> ImportSummary:
    """The EC2 price list version in force on `as_of`: its version index (`index`, else
    downloaded from `base_url`, AWS's or a mirror's), the version it names for that day, and
    that version's offer file (one `region`'s, else the whole offer), downloaded and
    imported as any offer file (its prices keep their own effective dates; a price that
    changed closes the period before it)."""
    base_url = (base_url or settings.PRICEBENCH_OFFERS_URL).rstrip("/")
    with tempfile.TemporaryDirectory(prefix="pricebench-offer-version-") as folder:
        version = versions.resolve(as_of, base_url=base_url, index=index, folder=Path(folder))
        offer = Path(folder) / "index.json"
        versions.download(base_url + version.url_for(region), offer)
        summary = import_offer_file(path=offer, progress=progress)
    summary.notes.append(f"{version.describe()} (asked for {as_of.isoformat()})")
    return summary


# The offer files a region walk can read, by the name `import_prices --offers` takes: EC2's
# (on-demand and Reserved), ECS's (Fargate) and the Savings Plans rates.
REGION_OFFERS = {"ec2": EC2, "ecs": ECS, "savings-plans": None}


@dataclass
class RegionsImport:
    """What `import_offer_regions` did, file by file (`ec2 us-east-1`): each summary, the
    files a run before had done, those the price list has none of, and those that failed."""

    label: str
    regions: list[str]
    offers: list[str]
    done: dict[str, ImportSummary] = field(default_factory=dict)
    done_before: list[str] = field(default_factory=list)
    absent: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)


def import_offer_regions(
    *,
    regions: list[str] | None = None,
    offers: list[str] | None = None,
    as_of: datetime.date | None = None,
    index: Path | None = None,
    base_url: str | None = None,
    state_dir: Path | None = None,
) -> RegionsImport:
    """Each region's offer files (`regions`, else every region pricebench knows; `offers`
    among REGION_OFFERS, else all of them, or EC2's and ECS's with `as_of`) of the versions in
    force on `as_of` (else the current ones), one file after the other, each in its own
    transaction. `index` is EC2's version index, if at hand. Savings Plans rates are read as
    now (their region index lists the current files only). A DomainError names unknown
    regions or offers.

    Resumable: the files done are kept in a file under `state_dir` (settings.VAR_DIR) until
    every one is, so that a run stopped or failing part-way starts again where it stopped;
    idempotent either way (a file imported again stores nothing new)."""
    known = list(Region.objects.order_by("code").values_list("code", flat=True))
    regions = known if regions is None else regions
    unknown = sorted(set(regions) - set(known))
    if unknown:
        raise DomainError(f"unknown region(s): {', '.join(unknown)}", field="regions")
    offers = _region_offers(offers, as_of)
    base_url = (base_url or settings.PRICEBENCH_OFFERS_URL).rstrip("/")
    with tempfile.TemporaryDirectory(prefix="pricebench-offer-regions-") as folder:
        files, labels = {}, []
        for offer in offers:
            code = REGION_OFFERS[offer]
            if code is None:
                files[offer] = _savings_plan_paths(base_url, Path(folder))
                labels.append("Savings Plans: the rates in force now")
                continue
            version = versions.resolve(
                as_of,
                base_url=base_url,
                index=index if code == EC2 else None,
                folder=Path(folder),
                offer=code,
            )
            files[offer] = {region: version.url_for(region) for region in regions}
            labels.append(f"{code}: {version.describe()}")
        day = as_of.isoformat() if as_of else versions.CURRENT
        state = (state_dir or settings.VAR_DIR) / f"import-regions-{day}.json"
        before = set(json.loads(state.read_text())) if state.is_file() else set()
        outcome = RegionsImport(label="; ".join(labels), regions=regions, offers=offers)
        for offer in offers:
            for region in regions:
                unit = f"{offer} {region}"
                if unit in before:
                    outcome.done_before.append(unit)
                    continue
                url = files[offer].get(region)
                if url is None:
                    outcome.absent[unit] = "the price list has no such file"
                else:
                    file = Path(folder) / "offer.json"
                    try:
                        versions.download(base_url + url, file)
                        outcome.done[unit] = import_offer_file(path=file)
                    except DomainError as error:
                        outcome.failed[unit] = error.message
                        continue
                    finally:
                        file.unlink(missing_ok=True)
                before.add(unit)
                state.parent.mkdir(parents=True, exist_ok=True)
                state.write_text(json.dumps(sorted(before)))
        if not outcome.failed:
            state.unlink(missing_ok=True)
    return outcome


def _region_offers(offers: list[str] | None, as_of: datetime.date | None) -> list[str]:
    if offers is None:
        return [offer for offer, code in REGION_OFFERS.items() if code or as_of is None]
    unknown = sorted(set(offers) - set(REGION_OFFERS))
    if unknown:
        raise DomainError(
            f"unknown offer(s): {', '.join(unknown)} (choose from {', '.join(REGION_OFFERS)})",
            field="offers",
        )
    if as_of is not None and "savings-plans" in offers:
        raise DomainError(
            "Savings Plans rates are read as now only (their region index lists no past "
            "versions): leave out --as-of, or savings-plans from --offers",
            field="offers",
        )
    return [offer for offer in REGION_OFFERS if offer in offers]


def _savings_plan_paths(base_url: str, folder: Path) -> dict[str, str | None]:
    index = folder / "savings-plans-region-index.json"
    versions.download(base_url + versions.SAVINGS_PLANS_REGION_INDEX, index)
    return versions.savings_plan_files(index)


@transaction.atomic
def import_fargate_spot_file(*, path: Path) -> ImportSummary:
    """The pricing page's Fargate Spot feed, saved in a file: Fargate Spot rates per vCPU-hour
    and GB-hour; the regions the feed lacks a rate for are named in the notes."""
    feed = fargate_spot.load_fargate_spot_file(path)
    summary = record_fargate_rates(records=feed.records)
    summary.read, summary.matched, summary.source = feed.read, len(feed.records), feed.source
    summary.skipped += feed.skipped
    summary.notes.extend(f"missing: {what}" for what in feed.missing)
    return summary


@transaction.atomic
def import_price_list(*, pages: Iterable[dict], source: str) -> ImportSummary:
    """get_products pages (AmazonEC2 or AmazonECS items, told apart by their service; EBS
    volume rates among the AmazonEC2 items, told apart by their product family)."""
    stats = ReadStats()
    summary = _record_any(read_price_list(pages, source=source, stats=stats))
    unknown = stats.services - {aws.EC2, ECS, RDS}
    if unknown and not stats.services & {aws.EC2, ECS, RDS}:
        raise DomainError(
            f"items of {', '.join(sorted(unknown))}: pricebench reads {aws.EC2} (instance "
            f"prices), {ECS} (Fargate rates) and {RDS} (DB instance prices, Aurora rates)"
        )
    services = " and ".join(sorted(stats.services)) or "no"
    return _with_stats(summary, stats, f"{services} items, {source}")


def import_price_list_file(*, path: Path) -> ImportSummary:
    """A saved get_products response, or a JSON list of them."""
    pages = load_price_list_file(path)
    return import_price_list(
        pages=pages, source=f"AWS Price List API response saved in {path.name}"
    )


@transaction.atomic
def import_spot_history(
    *, pages: Iterable[dict], source: str, region: str | None = None
) -> ImportSummary:
    """describe_spot_price_history pages: Linux/UNIX spot prices per availability zone."""
    stats = ReadStats()
    summary = record_prices(
        records=read_spot_price_history(pages, source=source, region=region, stats=stats)
    )
    return _with_stats(summary, stats, source)


def import_spot_history_file(*, path: Path, region: str | None = None) -> ImportSummary:
    """A saved describe_spot_price_history response, or a JSON list of them."""
    return import_spot_history(
        pages=_load_pages(path),
        source=f"EC2 spot price history saved in {path.name}",
        region=region,
    )


@transaction.atomic
def import_instance_types(*, pages: Iterable[dict], source: str) -> ImportSummary:
    """describe_instance_types pages: vCPUs, cores, memory, architecture, burstable."""
    stats = ReadStats()
    summary = update_instance_specs(specs=read_instance_types(pages, source=source, stats=stats))
    return _with_stats(summary, stats, source)


def import_instance_types_file(*, path: Path) -> ImportSummary:
    """A saved describe_instance_types response, or a JSON list of them."""
    return import_instance_types(
        pages=_load_pages(path), source=f"EC2 describe_instance_types response saved in {path.name}"
    )


def _load_pages(path: Path) -> list[dict]:
    data = load_json_file(path)
    pages = data if isinstance(data, list) else [data]
    if not all(isinstance(page, dict) for page in pages):
        raise DomainError(f"{path}: not an AWS response or a list of them")
    return pages
