"""How fast, and in how much memory, pricebench imports an AWS bulk offer file.

    .venv/bin/python bench/offer_file.py [--size-mb 512] [--dir var/bench] [--skip-json-load]

Builds a synthetic EC2 offer file of at least --size-mb in AWS's own layout (JSON, and the
CSV form of the same data) by repeating the real m5.large Price List item from
../shared/data/pricing/ under new SKUs: one item in ten is a Linux, shared-tenancy, on-demand
price; the others are the decoys a real file is full of (Windows, RHEL, SUSE, SQL Server,
dedicated and host tenancy, capacity reservations, zero prices), each with the item's twelve
reserved terms. Then measures, each in its own process on the same file:

- `ijson.parse`: every event of the JSON file, doing nothing (the floor for any ijson reader);
- two `ijson.kvitems` passes over the whole file (products, then terms.OnDemand), for contrast;
- `json.load` + filter: the whole file in memory, then the same product and term rules;
- pricebench JSON / CSV: `import_prices --offer-file` into a fresh SQLite database.

Prints MB/s and peak RSS (the measuring process's VmHWM, from /proc) for each. Times leave out
starting Python and Django; the import includes writing the prices to the database. The files
are cached next to each other under --dir (never in git) and rebuilt when missing.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "pricing"
ITEM = SHARED / "aws-responses" / "GetProducts_item_AmazonEC2_m5.large_us-east-1_2021.json"
PRICES = SHARED / "snapshots" / "ec2_ondemand_linux_us-east-1_2026-07-20.json"
MB = 1024 * 1024

# One item in ten matches; the other nine are what a real offer file is mostly made of.
VARIANTS = [
    {},
    {"operatingSystem": "Windows", "operation": "RunInstances:0002"},
    {"operatingSystem": "RHEL", "operation": "RunInstances:0010"},
    {"operatingSystem": "SUSE", "operation": "RunInstances:000g"},
    {"preInstalledSw": "SQL Std", "operation": "RunInstances:0004"},
    {"tenancy": "Dedicated"},
    {"tenancy": "Host"},
    {"capacitystatus": "UnusedCapacityReservation"},
    {"capacitystatus": "AllocatedCapacityReservation"},
    {"zero_price": True},
]

# AWS's CSV columns (EC2 offer file, 2025), in AWS's order.
CSV_HEADER = (
    "SKU,OfferTermCode,RateCode,TermType,PriceDescription,EffectiveDate,StartingRange,"
    "EndingRange,Unit,PricePerUnit,Currency,RelatedTo,LeaseContractLength,PurchaseOption,"
    "OfferingClass,Product Family,serviceCode,Location,Location Type,Instance Type,"
    "Current Generation,Instance Family,vCPU,Physical Processor,Clock Speed,Memory,Storage,"
    "Network Performance,Processor Architecture,Storage Media,Volume Type,Max Volume Size,"
    "Max IOPS/volume,Max IOPS Burst Performance,Max throughput/volume,Provisioned,Tenancy,"
    "EBS Optimized,Operating System,License Model,Group,Group Description,Transfer Type,"
    "From Location,From Location Type,To Location,To Location Type,usageType,operation,"
    "AvailabilityZone,CapacityStatus,ClassicNetworkingSupport,Dedicated EBS Throughput,ECU,"
    "Elastic Graphics Type,Enhanced Networking Supported,From Region Code,GPU,GPU Memory,"
    "Instance,Instance Capacity - 10xlarge,Instance Capacity - 12xlarge,"
    "Instance Capacity - 16xlarge,Instance Capacity - 18xlarge,Instance Capacity - 24xlarge,"
    "Instance Capacity - 2xlarge,Instance Capacity - 32xlarge,Instance Capacity - 4xlarge,"
    "Instance Capacity - 8xlarge,Instance Capacity - 9xlarge,Instance Capacity - large,"
    "Instance Capacity - medium,Instance Capacity - metal,Instance Capacity - xlarge,"
    "instanceSKU,Intel AVX2 Available,Intel AVX Available,Intel Turbo Available,MarketOption,"
    "Normalization Size Factor,Physical Cores,Pre Installed S/W,Processor Features,"
    "Product Type,Region Code,Resource Type,serviceName,SnapshotArchiveFeeType,To Region Code,"
    "Volume API Name,VPCNetworkingSupport"
).split(",")
CSV_COLUMN_OF = {
    "instanceType": "Instance Type",
    "currentGeneration": "Current Generation",
    "instanceFamily": "Instance Family",
    "vcpu": "vCPU",
    "physicalProcessor": "Physical Processor",
    "clockSpeed": "Clock Speed",
    "memory": "Memory",
    "storage": "Storage",
    "networkPerformance": "Network Performance",
    "processorArchitecture": "Processor Architecture",
    "tenancy": "Tenancy",
    "operatingSystem": "Operating System",
    "licenseModel": "License Model",
    "usagetype": "usageType",
    "operation": "operation",
    "capacitystatus": "CapacityStatus",
    "dedicatedEbsThroughput": "Dedicated EBS Throughput",
    "ecu": "ECU",
    "enhancedNetworkingSupported": "Enhanced Networking Supported",
    "intelAvx2Available": "Intel AVX2 Available",
    "intelAvxAvailable": "Intel AVX Available",
    "intelTurboAvailable": "Intel Turbo Available",
    "marketoption": "MarketOption",
    "normalizationSizeFactor": "Normalization Size Factor",
    "preInstalledSw": "Pre Installed S/W",
    "processorFeatures": "Processor Features",
    "regionCode": "Region Code",
    "servicename": "serviceName",
    "location": "Location",
    "locationType": "Location Type",
    "servicecode": "serviceCode",
}


# Building the synthetic files.


def synthetic_items():
    """(sku, product, on-demand terms, reserved terms), endlessly, from the real m5.large item."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.reference import AWS_REGIONS

    item = json.loads(ITEM.read_text())
    prices = json.loads(PRICES.read_text())["prices"]["us-east-1"]
    instance_types = sorted(prices)
    regions = [region for region in AWS_REGIONS if not region.code.startswith(("cn-", "us-gov"))]
    template_sku = item["product"]["sku"]
    on_demand_text = json.dumps(item["terms"]["OnDemand"])
    reserved_text = json.dumps(item["terms"]["Reserved"])
    number = 0
    while True:
        variant = VARIANTS[number % len(VARIANTS)]
        # Every matching item is a different (instance type, region), as in a real file.
        group = number // len(VARIANTS)
        instance_type = instance_types[group % len(instance_types)]
        region = regions[(group // len(instance_types)) % len(regions)]
        sku = f"B{number:015d}"
        attributes = dict(item["product"]["attributes"])
        attributes.update({key: value for key, value in variant.items() if key != "zero_price"})
        attributes.update(
            instanceType=instance_type,
            usagetype=f"BoxUsage:{instance_type}",
            regionCode=region.code,
            location=region.pricing_location,
            marketoption="OnDemand",
        )
        price = "0.0000000000" if "zero_price" in variant else f"{prices[instance_type]:.10f}"
        on_demand = json.loads(on_demand_text.replace(template_sku, sku))
        (term,) = on_demand.values()
        (dimension,) = term["priceDimensions"].values()
        dimension["pricePerUnit"]["USD"] = price
        dimension["description"] = f"${price} per On Demand Linux {instance_type} Instance Hour"
        reserved = json.loads(reserved_text.replace(template_sku, sku))
        product = {"sku": sku, "productFamily": "Compute Instance", "attributes": attributes}
        yield sku, product, on_demand, reserved
        number += 1


def build_files(json_path: Path, csv_path: Path, size_bytes: int) -> None:
    """Write the JSON and CSV offer files, AWS's layout, from the same synthetic items."""
    version, published = "20251101000000", "2025-11-01T00:00:00Z"
    dump = json.JSONEncoder(indent=2, separators=(",", " : ")).encode
    products_tmp = json_path.with_suffix(".products.tmp")
    on_demand_tmp = json_path.with_suffix(".ondemand.tmp")
    reserved_tmp = json_path.with_suffix(".reserved.tmp")
    with (
        open(products_tmp, "w") as products,
        open(on_demand_tmp, "w") as on_demand_file,
        open(reserved_tmp, "w") as reserved_file,
        open(csv_path, "w", newline="") as csv_file,
    ):
        rows = csv.writer(csv_file, quoting=csv.QUOTE_ALL)
        rows.writerows(
            [
                ["FormatVersion", "v1.0"],
                ["Disclaimer", "Synthetic offer file built by pricebench's bench/offer_file.py."],
                ["Publication Date", published],
                ["Version", version],
                ["OfferCode", "AmazonEC2"],
                CSV_HEADER,
            ]
        )
        column = {name: index for index, name in enumerate(CSV_HEADER)}
        written = 0
        for sku, product, on_demand, reserved in synthetic_items():
            if written >= size_bytes:
                break
            separator = ",\n" if written else ""
            for part, section, depth in (
                (products, product, 4),
                (on_demand_file, on_demand, 6),
                (reserved_file, reserved, 6),
            ):
                text = separator + _indent(f'"{sku}" : {dump(section)}', depth)
                part.write(text)
                written += len(text)
            base = [""] * len(CSV_HEADER)
            base[column["SKU"]] = sku
            base[column["Product Family"]] = product["productFamily"]
            for attribute, value in product["attributes"].items():
                if attribute in CSV_COLUMN_OF:
                    base[column[CSV_COLUMN_OF[attribute]]] = value
            for term_type, terms in (("OnDemand", on_demand), ("Reserved", reserved)):
                for term in terms.values():
                    for dimension in term["priceDimensions"].values():
                        row = list(base)
                        row[column["OfferTermCode"]] = term["offerTermCode"]
                        row[column["RateCode"]] = dimension["rateCode"]
                        row[column["TermType"]] = term_type
                        row[column["PriceDescription"]] = dimension["description"]
                        row[column["EffectiveDate"]] = term["effectiveDate"][:10]
                        row[column["StartingRange"]] = dimension.get("beginRange", "")
                        row[column["EndingRange"]] = dimension.get("endRange", "")
                        row[column["Unit"]] = dimension["unit"]
                        row[column["PricePerUnit"]] = dimension["pricePerUnit"]["USD"]
                        row[column["Currency"]] = "USD"
                        attributes = term.get("termAttributes") or {}
                        row[column["LeaseContractLength"]] = attributes.get(
                            "LeaseContractLength", ""
                        )
                        row[column["PurchaseOption"]] = attributes.get("PurchaseOption", "")
                        row[column["OfferingClass"]] = attributes.get("OfferingClass", "")
                        rows.writerow(row)
    with open(json_path, "w") as out:
        out.write(
            "{\n"
            '  "formatVersion" : "v1.0",\n'
            '  "disclaimer" : "Synthetic offer file built by pricebench\'s bench/offer_file.py.",\n'
            '  "offerCode" : "AmazonEC2",\n'
            f'  "version" : "{version}",\n'
            f'  "publicationDate" : "{published}",\n'
            '  "products" : {\n'
        )
        _append(out, products_tmp)
        out.write('\n  },\n  "terms" : {\n    "OnDemand" : {\n')
        _append(out, on_demand_tmp)
        out.write('\n    },\n    "Reserved" : {\n')
        _append(out, reserved_tmp)
        out.write("\n    }\n  }\n}\n")


def _indent(text: str, spaces: int) -> str:
    pad = " " * spaces
    return pad + text.replace("\n", "\n" + pad)


def _append(out, path: Path) -> None:
    with open(path) as part:
        while block := part.read(8 * MB):
            out.write(block)
    path.unlink()


# The measurements, each run in a process of its own (--measure NAME FILE).


def measure_ijson_parse(path: Path) -> int:
    import ijson

    events = 0
    with open(path, "rb") as file:
        for _ in ijson.parse(file):
            events += 1
    return events


def measure_two_passes(path: Path) -> int:
    """The obvious streaming reader: kvitems over the whole file for products, then terms."""
    import ijson

    sys.path.insert(0, str(ROOT))
    from benchmarks.pricing.products import make_record, match_product, on_demand_price

    with open(path, "rb") as file:
        matches = {}
        for sku, product in ijson.kvitems(file, "products", use_float=True):
            match = match_product("AmazonEC2", product.get("attributes") or {})
            if match is not None:
                matches[sku] = match
    records = []
    with open(path, "rb") as file:
        for sku, terms in ijson.kvitems(file, "terms.OnDemand", use_float=True):
            if sku in matches and (priced := on_demand_price(terms, where=sku)) is not None:
                records.append(make_record(matches[sku], *priced, "two passes"))
    return len(records)


def measure_json_load(path: Path) -> int:
    sys.path.insert(0, str(ROOT))
    from benchmarks.pricing.products import make_record, match_product, on_demand_price

    with open(path, "rb") as file:
        offer = json.load(file)
    records = []
    for sku, product in offer["products"].items():
        match = match_product(offer["offerCode"], product.get("attributes") or {})
        if match is None:
            continue
        priced = on_demand_price(offer["terms"]["OnDemand"].get(sku, {}), where=sku)
        if priced is not None:
            records.append(make_record(match, *priced, "json.load"))
    return len(records)


def measure_import(path: Path) -> int:
    """What `manage.py import_prices --offer-file PATH` does, into a fresh database."""
    import django
    from django.core.management import call_command

    django.setup()
    from benchmarks.models import Price

    call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO())
    return Price.objects.count()


MEASUREMENTS = {
    "ijson.parse": measure_ijson_parse,
    "two passes": measure_two_passes,
    "json.load": measure_json_load,
    "import": measure_import,
}


def run_measurement(name: str, path: Path, env: dict) -> dict:
    """One measurement in a child process: its time, and its peak RSS as it reports it."""
    command = [sys.executable, __file__, "--measure", name, str(path)]
    child = subprocess.run(command, env=env, stdout=subprocess.PIPE, cwd=ROOT, check=False)
    if child.returncode != 0:
        raise SystemExit(f"{name} on {path.name} failed (exit {child.returncode})")
    return json.loads(child.stdout.splitlines()[-1])


def peak_rss_mb() -> float:
    """This process's peak resident set: VmHWM, which exec resets (getrusage as a fallback,
    which on Linux also counts the parent's pages the child had before exec)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_main(name: str, path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    started = time.perf_counter()
    count = MEASUREMENTS[name](path)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "count": count, "peak_rss_mb": peak_rss_mb()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=int, default=512, help="JSON file size (default 512)")
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "bench")
    parser.add_argument("--skip-json-load", action="store_true", help="skip the json.load run")
    parser.add_argument("--measure", nargs=2, metavar=("NAME", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        child_main(args.measure[0], Path(args.measure[1]))
        return

    args.dir.mkdir(parents=True, exist_ok=True)
    json_path = args.dir / f"AmazonEC2_synthetic_{args.size_mb}MB.json"
    csv_path = json_path.with_suffix(".csv")
    if not (json_path.exists() and csv_path.exists()):
        print(f"building {json_path} and {csv_path} ...", flush=True)
        started = time.perf_counter()
        build_files(json_path, csv_path, args.size_mb * MB)
        print(f"  built in {time.perf_counter() - started:.0f} s", flush=True)
    json_mb = json_path.stat().st_size / MB
    csv_mb = csv_path.stat().st_size / MB

    with tempfile.TemporaryDirectory(prefix="pricebench-bench-") as scratch:
        runs = [
            ("ijson.parse", "ijson.parse, every event, nothing else", json_path),
            ("two passes", "ijson.kvitems, two whole-file passes", json_path),
        ]
        if not args.skip_json_load:
            runs.append(("json.load", "json.load + the same filter", json_path))
        runs += [
            ("import", "pricebench import_prices, JSON", json_path),
            ("import", "pricebench import_prices, CSV", csv_path),
        ]
        print(f"\nJSON file: {json_mb:,.0f} MB; CSV file (same data): {csv_mb:,.0f} MB")
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
        print(
            f"{'measurement':42} {'MB':>7} {'seconds':>8} {'MB/s':>7} {'peak RSS':>9} {'count':>10}"
        )
        figures = {}
        for number, (name, label, path) in enumerate(runs):
            # manage.py refuses to start without a SECRET_KEY when DEBUG is off.
            env = {**os.environ, "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-" + "x" * 50}
            if name == "import":
                # A fresh database per import, so every import stores what it matched.
                database = Path(scratch) / f"bench{number}.sqlite3"
                env["DATABASE_URL"] = f"sqlite:///{database}"
                env["DJANGO_SETTINGS_MODULE"] = "dashboard.settings"
                subprocess.run(
                    [sys.executable, "manage.py", "migrate", "--verbosity", "0"],
                    env=env,
                    cwd=ROOT,
                    check=True,
                )
            result = run_measurement(name, path, env)
            size = path.stat().st_size / MB
            speed = size / result["seconds"]
            figures[label] = speed
            print(
                f"{label:42} {size:7,.0f} {result['seconds']:8.1f} {speed:7.1f} "
                f"{result['peak_rss_mb']:6.0f} MB {result['count']:10,}",
                flush=True,
            )
        ours = figures["pricebench import_prices, JSON"]
        csv_speed = figures["pricebench import_prices, CSV"]
        bare = figures["ijson.parse, every event, nothing else"]
        print(f"\nJSON import vs bare ijson.parse: {ours / bare:.2f}x")
        if not args.skip_json_load:
            loaded = figures["json.load + the same filter"]
            print(f"JSON import vs json.load + filter: {ours / loaded:.2f}x")
        print(f"CSV import vs bare ijson.parse on the JSON: {csv_speed / bare:.2f}x")
        print(f"CSV import vs JSON import (MB/s): {csv_speed / ours:.2f}x")
        print("count: events (ijson.parse), prices found (json.load, kvitems), Price rows (import)")


if __name__ == "__main__":
    main()
