"""Bulk offer files (JSON and CSV, streamed) and the indexes that lead to them."""

import csv
import datetime
import json
import tracemalloc
from decimal import Decimal

import pytest

from benchmarks.errors import DomainError
from benchmarks.pricing.offer_files import (
    READ_BLOCK,
    OfferFile,
    regional_offer_file_url,
)
from benchmarks.pricing.records import PriceRecord
from tests.pricing.conftest import decoy, with_usd

DECOYS = [
    {"operatingSystem": "Windows"},
    {"operatingSystem": "RHEL"},
    {"operatingSystem": "SUSE"},
    {"preInstalledSw": "SQL Web"},
    {"tenancy": "Dedicated"},
    {"tenancy": "Host"},
    {"capacitystatus": "UnusedCapacityReservation"},
]


def offer_items(m5_item, *, copies: int = 1) -> list[dict]:
    """Per copy: the real m5.large item, a c5.large made from it, seven decoys, a zero price."""
    items = []
    for copy in range(copies):
        items.append(decoy(m5_item, f"M5{copy:014d}"))
        c5 = decoy(m5_item, f"C5{copy:014d}", instanceType=f"c5.large{copy or ''}")
        items.append(with_usd(c5, "0.0850000000"))
        for number, attributes in enumerate(DECOYS):
            items.append(decoy(m5_item, f"D{number}{copy:014d}", **attributes))
        items.append(with_usd(decoy(m5_item, f"ZERO{copy:012d}"), "0.0000000000"))
    return items


def write_json(path, items, *, terms_first=False, indent=2, offer_code="AmazonEC2"):
    """An offer file in AWS's layout (pretty-printed like AWS's, `products` before `terms`)."""
    products = {item["product"]["sku"]: item["product"] for item in items}
    terms = {
        "OnDemand": {
            item["product"]["sku"]: item["terms"]["OnDemand"]
            for item in items
            if "OnDemand" in item["terms"]
        },
        "Reserved": {
            item["product"]["sku"]: item["terms"]["Reserved"]
            for item in items
            if "Reserved" in item["terms"]
        },
    }
    head = {
        "formatVersion": "v1.0",
        "disclaimer": "This pricing list is for informational purposes only.",
        "offerCode": offer_code,
        "version": "20210205204500",
        "publicationDate": "2021-02-05T20:45:00Z",
    }
    sections = {"terms": terms, "products": products} if terms_first else {"products": products}
    sections.setdefault("terms", terms)
    separators = (",", " : ") if indent else (",", ":")
    path.write_text(json.dumps({**head, **sections}, indent=indent, separators=separators))
    return path


CSV_COLUMNS = {
    "Location": "location",
    "Location Type": "locationType",
    "Instance Type": "instanceType",
    "Tenancy": "tenancy",
    "Operating System": "operatingSystem",
    "usageType": "usagetype",
    "operation": "operation",
    "CapacityStatus": "capacitystatus",
    "Pre Installed S/W": "preInstalledSw",
    "Volume API Name": "volumeApiName",
}
CSV_HEADER = [
    "SKU",
    "OfferTermCode",
    "RateCode",
    "TermType",
    "PriceDescription",
    "EffectiveDate",
    "StartingRange",
    "EndingRange",
    "Unit",
    "PricePerUnit",
    "Currency",
    "LeaseContractLength",
    "PurchaseOption",
    "OfferingClass",
    "Product Family",
    *CSV_COLUMNS,
]


def write_csv(path, items):
    """The same items as AWS's CSV: five metadata rows, the header, one row per dimension."""
    with open(path, "w", newline="") as file:
        writer = csv.writer(file, quoting=csv.QUOTE_ALL)
        writer.writerows(
            [
                ["FormatVersion", "v1.0"],
                ["Disclaimer", "This pricing list is for informational purposes only."],
                ["Publication Date", "2021-02-05T20:45:00Z"],
                ["Version", "20210205204500"],
                ["OfferCode", "AmazonEC2"],
                CSV_HEADER,
            ]
        )
        for item in items:
            product = item["product"]
            for term_type, terms in item["terms"].items():
                for term in terms.values():
                    for dimension in term["priceDimensions"].values():
                        writer.writerow(
                            [
                                product["sku"],
                                term["offerTermCode"],
                                dimension["rateCode"],
                                term_type,
                                dimension["description"],
                                term["effectiveDate"][:10],
                                dimension.get("beginRange", ""),
                                dimension.get("endRange", ""),
                                dimension["unit"],
                                dimension["pricePerUnit"]["USD"],
                                "USD",
                                term["termAttributes"].get("LeaseContractLength", ""),
                                term["termAttributes"].get("PurchaseOption", ""),
                                term["termAttributes"].get("OfferingClass", ""),
                                product["productFamily"],
                                *(
                                    product["attributes"].get(name, "")
                                    for name in CSV_COLUMNS.values()
                                ),
                            ]
                        )
    return path


def prices_of(records) -> dict:
    """The on-demand prices among the records (Reserved terms are tested in test_reserved)."""
    return {
        (r.instance_type, r.region): (r.usd_per_hour, r.effective_from)
        for r in records
        if r.purchase_option == "on_demand"
    }


# Per matching item: its on-demand price and its 12 Reserved terms. The zero-priced decoy is an
# m5.large too: its on-demand price is left out, its Reserved terms are the m5.large's.
MATCHED_PER_COPY = 2 + 3 * 12


EXPECTED = {
    ("m5.large", "us-east-1"): (Decimal("0.096"), datetime.date(2021, 2, 1)),
    ("c5.large", "us-east-1"): (Decimal("0.085"), datetime.date(2021, 2, 1)),
}


def test_a_json_offer_file_gives_only_the_linux_on_demand_and_reserved_prices(tmp_path, m5_item):
    offer = OfferFile(write_json(tmp_path / "index.json", offer_items(m5_item)))
    records = list(offer.records())
    assert prices_of(records) == EXPECTED
    assert all(isinstance(record, PriceRecord) for record in records)
    assert {r.instance_type for r in records if r.purchase_option == "reserved"} == {
        "m5.large",
        "c5.large",
    }
    assert records[0].source == (
        "AWS bulk offer file AmazonEC2 version 20210205204500, published 2021-02-05 (index.json)"
    )
    assert (offer.stats.read, offer.stats.matched) == (10, MATCHED_PER_COPY)


def test_the_csv_form_of_the_same_file_gives_the_same_prices(tmp_path, m5_item):
    offer = OfferFile(write_csv(tmp_path / "index.csv", offer_items(m5_item)))
    records = list(offer.records())
    assert prices_of(records) == EXPECTED
    # A row per price dimension: the on-demand price, and the reserved terms' fees and rates.
    rows_per_item = 1 + sum(
        len(term["priceDimensions"]) for term in m5_item["terms"]["Reserved"].values()
    )
    assert (offer.stats.read, offer.stats.matched) == (10 * rows_per_item, MATCHED_PER_COPY)
    assert offer.info.version == "20210205204500"


def test_each_pass_reads_only_its_own_section(tmp_path, m5_item):
    path = write_json(tmp_path / "index.json", offer_items(m5_item, copies=60))
    text = path.read_text()
    terms_at, reserved_at = text.index('"terms"'), text.index('"Reserved"')
    reports = []
    records = list(OfferFile(path, progress=lambda *report: reports.append(report)).records())
    assert len(records) == 60 * MATCHED_PER_COPY
    products = [(done, size) for done, size, label in reports if label == "products"]
    terms = [(done, size) for done, size, label in reports if label == "terms"]
    reserved = [(done, size) for done, size, label in reports if label == "reserved"]
    # The products pass reads up to the terms; the on-demand pass from there, block by block,
    # until the reserved terms begin, and then counts as done; the reserved pass reads on.
    assert products[-1] == (terms_at, terms_at)
    assert terms[0] == (0, len(text) - terms_at)
    assert (
        terms[-2][0] <= reserved_at - terms_at + READ_BLOCK < terms[-1][0] == len(text) - terms_at
    )
    assert reserved[-1] == (len(text) - terms_at, len(text) - terms_at)


def test_a_key_named_terms_among_the_products_does_not_cut_them_short(tmp_path, m5_item):
    items = offer_items(m5_item)
    # Compact JSON and an attribute called "terms" look like the top-level key to a byte scan.
    items[0]["product"]["attributes"]["terms"] = "x"
    offer = OfferFile(write_json(tmp_path / "index.json", items, indent=None))
    assert prices_of(offer.records()) == EXPECTED
    assert offer.stats.read == 10


def test_terms_before_products_are_read_too(tmp_path, m5_item):
    offer = OfferFile(write_json(tmp_path / "index.json", offer_items(m5_item), terms_first=True))
    assert prices_of(offer.records()) == EXPECTED


def test_an_amazonecs_offer_file_gives_fargate_rates(tmp_path, load_response):
    page = load_response("GetProducts_AmazonECS_us-east-1_2022-11.json")
    items = [json.loads(item) for item in page["PriceList"]]
    for item in items:
        item["terms"].setdefault("Reserved", {})
    offer = OfferFile(write_json(tmp_path / "ecs.json", items, offer_code="AmazonECS"))
    rates = {(r.architecture, r.component): r.usd_per_unit_hour for r in offer.records()}
    assert rates[("x86_64", "vcpu")] == Decimal("0.04048")
    assert rates[("arm64", "memory_gb")] == Decimal("0.00356")
    assert len(rates) == 5


def test_it_reads_a_big_file_in_memory_that_does_not_grow_with_it(tmp_path, m5_item):
    path = write_json(tmp_path / "big.json", offer_items(m5_item, copies=200))
    size = path.stat().st_size
    assert size > 25_000_000
    tracemalloc.start()
    try:
        count = sum(1 for _ in OfferFile(path).records())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 200 * MATCHED_PER_COPY
    # json.load would hold several times the file; the reader holds the matching SKUs and
    # a few blocks being read.
    assert peak < 4_000_000, f"peak {peak:,} bytes for a {size:,}-byte file"


def test_a_file_cut_short_is_refused_even_where_no_price_is_missing(tmp_path, m5_item):
    path = write_json(tmp_path / "index.json", offer_items(m5_item))
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.rindex(b'"Reserved"') + 2000])
    ends_early = r"index.json: cut short at byte [\d,]+: the file ends before its JSON does"
    with pytest.raises(DomainError, match=ends_early):
        OfferFile(path)


def test_broken_json_is_an_error_that_says_where(tmp_path, m5_item):
    path = write_json(tmp_path / "index.json", offer_items(m5_item))
    text = path.read_text()
    broken = text.index('"operatingSystem" : "Windows"') + len('"operatingSystem"')
    path.write_text(text[:broken] + " ; " + text[broken + 2 :])
    with pytest.raises(DomainError, match=r"index.json: not valid JSON \(near byte [\d,]+\)"):
        list(OfferFile(path).records())


def test_a_csv_file_without_its_five_metadata_rows_is_refused(tmp_path):
    path = tmp_path / "index.csv"
    path.write_text('"FormatVersion","v1.0"\n"SKU","OfferTermCode"\n')
    with pytest.raises(DomainError, match=r"index.csv: line 3: expected a metadata row"):
        OfferFile(path)


def test_a_csv_row_with_missing_fields_names_its_line(tmp_path, m5_item):
    path = write_csv(tmp_path / "index.csv", offer_items(m5_item)[:1])
    lines = path.read_text().splitlines()
    lines[6] = ",".join(lines[6].split(",")[:-3])
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DomainError, match=r"index.csv: line 7: \d+ fields, the header has \d+"):
        list(OfferFile(path).records())


def test_offer_files_of_other_services_are_refused(tmp_path, m5_item):
    path = write_json(tmp_path / "s3.json", offer_items(m5_item)[:1], offer_code="AmazonS3")
    with pytest.raises(DomainError, match="an offer file for AmazonS3"):
        OfferFile(path)


def test_the_current_offer_file_of_a_region_is_where_aws_publishes_it():
    assert regional_offer_file_url("AmazonEC2", "us-east-1", csv_format=True) == (
        "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/us-east-1/index.csv"
    )


def test_an_index_given_as_an_offer_file_says_what_to_download(aws_responses):
    with pytest.raises(DomainError, match="this is the AWS offer index.*download"):
        OfferFile(aws_responses / "offers_index_2025-09.json")
    with pytest.raises(DomainError, match="this is a version index"):
        OfferFile(aws_responses / "offers_AmazonEC2_version_index_2025-09.json")
