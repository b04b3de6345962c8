"""Build benchmarks/demo/cloud_prices.csv: Hetzner Cloud's, Azure's and Google Cloud's prices
from the real samples in ../shared/data/pricing/other-clouds/, read with pricebench's own
parsers (benchmarks/pricing/hetzner.py, azure.py, gcp.py), one row per price record.

    .venv/bin/python scripts/build_demo_cloud_prices.py [--shared ../shared/data]

The samples are others' files (SOURCES.md beside them): the project keeps the prices they
quote, not the files, with the sample's repository, commit and licence in every row's source
(benchmarks/demo/cloud_prices.md credits them). What this script decides:

- Hetzner's answer carries no date (the API gives none; `import_prices --hetzner` dates it
  `--as-of`, by default the day it runs): its prices are dated 2024-10-01, the month the
  sample was saved in, so that the file is the same whenever it is built;
- Google's T2D and E2 SKUs of the sample carry no `effectiveTime` (`import_prices --gcp-skus`
  dates them `--as-of` too): 2023-03-24, the date of the page's dated SKUs. Its machine types
  are the bundled specifications' (instance_specs_gcp.csv), as the import reads them from the
  database after loading the same file; the sample quotes T2D and E2 in IDR, kept as quoted;
- Azure's items are dated by their own `effectiveStartDate`.

Each row keeps what the record has: vendor, region (and its name, for creating it), instance
type, purchase option, OS, the commitment's term, payment and class, the currency, the hourly
price as quoted and in US dollars (at the ECB's rate of its first day, as the parsers convert),
a reservation's upfront and hourly parts, the dates in force, and the source. A dollar figure
at the ECB's rates (Hetzner's) is not written: the reader computes it from the quote and the
rates of its day, so that no rounded cross rate is ever stored (Google's IDR quotes keep the
dollar figure of the catalog's own rate).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")

import django  # noqa: E402

django.setup()

from benchmarks.models import vm_family  # noqa: E402
from benchmarks.pricing import azure, gcp, hetzner, snapshot  # noqa: E402
from benchmarks.pricing.records import QuotedPriceRecord, load_json_file  # noqa: E402
from benchmarks.services.prices.specs import bundled_specs_file  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
OUTPUT = snapshot.CLOUD_PRICES_FILE
HETZNER_FILE = "hetzner_server_types_2024_hcloud-autok8s.json"
AZURE_FILE = "azure_retail_vm_items_carbonandfinch_subset.json"
GCP_FILE = "gcp_billing_skus_opencost.json"
HETZNER_DAY = datetime.date(2024, 10, 1)
GCP_DAY = datetime.date(2023, 3, 24)
HETZNER_SOURCE = (
    f"Hetzner Cloud API server_types, saved 2024-10 by siavashmhi/hcloud-autok8s @ aa32d776 "
    f"(hcloud/server_types.json, MIT); undated, in force from {HETZNER_DAY} here"
)
AZURE_SOURCE = (
    "Azure Retail Prices API items, saved 2026-08-22 by babajideoyelayo-carbonandfinch/"
    "azure-prices @ 3f048a22 (azure_prices.json, MIT)"
)
GCP_SOURCE = (
    "Cloud Billing Catalog, Compute Engine SKUs saved by opencost/opencost @ 42976a2b "
    f"(pkg/cloud/gcp/test/skus.json, Apache-2.0); SKUs without a date in force from {GCP_DAY}"
)


def hetzner_rows(folder: Path) -> list[tuple[QuotedPriceRecord, str]]:
    """Every server type's net hourly EUR price in every location, with the location's name."""
    answer = load_json_file(folder / HETZNER_FILE)
    records = hetzner.server_type_prices(answer, day=HETZNER_DAY, source=HETZNER_SOURCE)
    return [(record, hetzner.LOCATIONS.get(record.region, record.region)) for record in records]


def azure_rows(folder: Path) -> list[tuple[QuotedPriceRecord, str]]:
    """The sample's hourly virtual machine prices, with the region's location name."""
    items = azure.load_items(folder / AZURE_FILE)
    locations = azure.regions_of(items)
    records = azure.vm_prices(items, source=AZURE_SOURCE)
    return [(record, locations[record.region]) for record in records]


def gcp_rows(folder: Path) -> list[tuple[QuotedPriceRecord, str]]:
    """The machine types of the bundled specifications priced at the sample's core, RAM and
    GPU rates (the types pricing/gcp.py cannot price left out, as it says)."""
    rates, _left_out = gcp.part_rates(gcp.load_pages(folder / GCP_FILE))
    machines = [
        gcp.Machine(
            row.name,
            vm_family(row.name),
            Decimal(str(row.values["vcpus"])),
            Decimal(str(row.values["memory_gib"])),
            row.values["gpu_count"] or 0,
        )
        for row in snapshot.read_instance_specs(bundled_specs_file(gcp.VENDOR))
        if row.values["vcpus"] is not None and row.values["memory_gib"] is not None
    ]
    records = gcp.machine_prices(rates, machines, day=GCP_DAY, source=GCP_SOURCE)
    return [(record, record.region) for record in records]


def as_row(record: QuotedPriceRecord, region_name: str) -> dict[str, str]:
    """A record as one row of the file: empty cells for what it does not have, and for a
    dollar figure the ECB's rates give (snapshot.read_cloud_prices works it out again)."""
    values = dataclasses.asdict(record)
    row = {name: "" if values[name] is None else str(values[name]) for name in values}
    if record.currency != "USD" and record.usd_per_hour == snapshot.ecb_usd(
        record.quoted_per_hour, record.currency, record.effective_from
    ):
        row["usd_per_hour"] = ""
    return {**row, "region_name": region_name}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=SHARED)
    args = parser.parse_args()
    folder = args.shared / "pricing" / "other-clouds"
    rows = [
        as_row(record, name)
        for read in (hetzner_rows, gcp_rows, azure_rows)
        for record, name in read(folder)
    ]
    rows.sort(
        key=lambda row: tuple(
            row[name]
            for name in snapshot.CLOUD_PRICE_COLUMNS
            if name not in ("region_name", "quoted_per_hour", "usd_per_hour", "source")
        )
    )
    snapshot.write_rows(OUTPUT, snapshot.CLOUD_PRICE_COLUMNS, rows)
    counts = Counter(row["vendor"] for row in rows)
    print(
        f"wrote {OUTPUT.relative_to(ROOT)}: {len(rows):,} prices ("
        + ", ".join(f"{vendor} {count:,}" for vendor, count in sorted(counts.items()))
        + ")"
    )


if __name__ == "__main__":
    main()
