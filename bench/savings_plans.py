"""How fast, and in how much memory, pricebench reads an AWS Savings Plans offer file.

    .venv/bin/python bench/savings_plans.py [--rates 2400000] [--dir var/bench]

Builds a synthetic Savings Plans region file (one Compute plan with --rates EC2 rates, the
shape of the real sample in ../shared/data/pricing/aws-samples/; 2.4 million rates make
about 650 MB) and reads it with `SavingsPlanFile.records()`, printing MB/s and the process's
peak RSS. The file is cached under --dir (never in git).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(path: Path, rates: int) -> None:
    with open(path, "w") as file:
        file.write(
            '{"version": "1", "publicationDate": "2024-01-01T00:00:00Z", "products": [{"sku": "P",'
            ' "productFamily": "ComputeSavingsPlans", "attributes": {"purchaseOption":'
            ' "No Upfront", "purchaseTerm": "1yr"}}], "terms": {"savingsPlan": [{"sku": "P",'
            ' "description": "1 year No Upfront Compute Savings Plan", "rates": ['
        )
        for index in range(rates):
            rate = {
                "discountedSku": f"SKU{index:012d}",
                "discountedServiceCode": "AmazonEC2",
                "discountedUsageType": f"USE2-BoxUsage:zz{index // 100}.n{index % 100}",
                "discountedOperation": "RunInstances",
                "rateCode": f"P.SKU{index:012d}",
                "unit": "Hrs",
                "discountedRate": {"price": "0.0123", "currency": "USD"},
            }
            file.write(("," if index else "") + json.dumps(rate))
        file.write("]}]}}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=int, default=2_400_000)
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "bench")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from benchmarks.pricing.savings_plans import SavingsPlanFile

    args.dir.mkdir(parents=True, exist_ok=True)
    path = args.dir / f"savings_plans_{args.rates}.json"
    if not path.exists():
        build(path, args.rates)
    size = os.path.getsize(path) / 1e6
    start = time.perf_counter()
    count = sum(1 for _ in SavingsPlanFile(path).records())
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{size:,.0f} MB, {count:,} rates: {seconds:.1f} s, {size / seconds:.1f} MB/s, "
        f"peak RSS {peak:.0f} MB"
    )


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    main()
