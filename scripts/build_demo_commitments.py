"""Write the bundled Reserved prices (benchmarks/demo/commitment_prices.csv) from
../shared/data/pricing/, through pricebench's own readers of those shapes.

    .venv/bin/python scripts/build_demo_commitments.py [--shared ../shared/data/pricing]

The shared files may not be copied into the project; their figures are written into our own
CSV, one source (with its licence) per row. The commitments the shared data holds:

- aws-responses/GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json: m5.large in
  us-east-1, its 12 Reserved terms (1 and 3 years; no, partial and all upfront; standard and
  convertible), from aws/amazon-ec2-instance-selector, test/static (Apache-2.0).
- aws-samples/aws_ec2_offer_c4large_us-east-1_201612_lyft.json: c4.large in us-east-1, the
  December 2016 bulk offer's Reserved terms (lyft, MIT; see aws-samples/SOURCES.md).

Each term keeps the effective date its source gives. On-demand prices stay in prices.csv.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.pricing.offer_files import OfferFile  # noqa: E402
from benchmarks.pricing.price_list import load_price_list_file, read_price_list  # noqa: E402
from benchmarks.pricing.snapshot import COMMITMENT_COLUMNS, DEMO_DIR, write_rows  # noqa: E402

OUTPUT = DEMO_DIR / "commitment_prices.csv"
M5_ITEM = "aws-responses/GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"
M5_SOURCE = (
    "AWS Price List API get_products item for m5.large in us-east-1 (2021), from "
    "aws/amazon-ec2-instance-selector test/static (Apache-2.0)"
)
C4_OFFER = "aws-samples/aws_ec2_offer_c4large_us-east-1_201612_lyft.json"
C4_SOURCE = (
    "AWS bulk price list, AmazonEC2 offer version 20161213014831 (December 2016), c4.large "
    "in us-east-1 excerpt, from lyft (MIT; see ../shared/data/pricing/aws-samples/SOURCES.md)"
)


def commitments(shared: Path) -> list[dict]:
    rows = []
    m5 = read_price_list(load_price_list_file(shared / M5_ITEM), source=M5_SOURCE)
    c4 = OfferFile(shared / C4_OFFER).records()
    for records, source in ((m5, M5_SOURCE), (c4, C4_SOURCE)):
        for record in records:
            if getattr(record, "purchase_option", "") != "reserved":
                continue
            rows.append(
                {
                    "instance_type": record.instance_type,
                    "region": record.region,
                    "purchase_option": record.purchase_option,
                    "term": record.term,
                    "payment": record.payment,
                    "offering_class": record.offering_class,
                    "plan": record.plan,
                    "usd_per_hour": record.usd_per_hour,
                    "upfront_usd": record.upfront_usd,
                    "hourly_usd": record.hourly_usd,
                    "effective_from": record.effective_from.isoformat(),
                    "effective_to": record.effective_to.isoformat() if record.effective_to else "",
                    "source": source,
                }
            )
    return sorted(rows, key=lambda row: [str(row[name]) for name in COMMITMENT_COLUMNS])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared" / "data" / "pricing")
    args = parser.parse_args()
    rows = commitments(args.shared)
    write_rows(OUTPUT, COMMITMENT_COLUMNS, rows)
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(rows)} Reserved prices")


if __name__ == "__main__":
    main()
