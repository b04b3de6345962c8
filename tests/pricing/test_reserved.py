"""Reserved Instances from get_products items and bulk offer files (JSON and CSV): every term,
payment option and class, with the upfront and hourly parts of the effective hourly price."""

import csv
import datetime
import io
from decimal import Decimal

import pytest

from benchmarks.models import Price
from benchmarks.pricing.offer_files import OfferFile
from benchmarks.pricing.reserved import ReservedTerm, commitment_of
from benchmarks.services import prices as price_services
from tests.pricing.conftest import M5_ITEM
from tests.pricing.test_offer_files import write_csv, write_json

M5_TERMS = {
    # (term, payment, class): (upfront, hourly) as the m5.large item prices them.
    ("1y", "no_upfront", "standard"): ("0", "0.06"),
    ("1y", "partial_upfront", "standard"): ("252", "0.029"),
    ("1y", "all_upfront", "standard"): ("494", "0"),
    ("3y", "no_upfront", "standard"): ("0", "0.041"),
    ("3y", "partial_upfront", "standard"): ("505", "0.019"),
    ("3y", "all_upfront", "standard"): ("949", "0"),
    ("1y", "no_upfront", "convertible"): ("0", "0.071"),
    ("1y", "partial_upfront", "convertible"): ("294", "0.034"),
    ("1y", "all_upfront", "convertible"): ("577", "0"),
    ("3y", "no_upfront", "convertible"): ("0", "0.049"),
    ("3y", "partial_upfront", "convertible"): ("592", "0.023"),
    ("3y", "all_upfront", "convertible"): ("1161", "0"),
}


def stored_terms() -> dict:
    return {
        (price.term, price.payment, price.offering_class): (
            str(price.upfront_usd.normalize()),
            str(price.hourly_usd.normalize()),
        )
        for price in Price.objects.filter(purchase_option="reserved")
    }


@pytest.mark.django_db
def test_the_m5_large_item_imports_one_on_demand_and_twelve_reserved_prices(aws_responses):
    summary = price_services.import_price_list_file(path=aws_responses / M5_ITEM)
    assert summary.stored == 13
    assert Price.objects.filter(purchase_option="on_demand").count() == 1
    assert stored_terms() == M5_TERMS


@pytest.mark.django_db
def test_three_years_all_upfront_costs_its_fee_spread_over_26280_hours(aws_responses):
    price_services.import_price_list_file(path=aws_responses / M5_ITEM)
    price = Price.objects.get(
        purchase_option="reserved", term="3y", payment="all_upfront", offering_class="standard"
    )
    assert price.usd_per_hour == (Decimal(949) / 26_280).quantize(Decimal("0.00000001"))
    assert (price.upfront_usd, price.hourly_usd) == (949, 0)
    assert price.effective_from == datetime.date(2020, 4, 1)


@pytest.mark.django_db
def test_a_partial_upfront_term_adds_its_spread_fee_to_its_hourly_fee(aws_responses):
    price_services.import_price_list_file(path=aws_responses / M5_ITEM)
    price = Price.objects.get(
        purchase_option="reserved", term="1y", payment="partial_upfront", offering_class="standard"
    )
    assert price.usd_per_hour == Decimal("0.05776712")  # 252 / 8760 + 0.029


@pytest.mark.django_db
def test_importing_the_item_twice_stores_nothing_new(aws_responses):
    price_services.import_price_list_file(path=aws_responses / M5_ITEM)
    again = price_services.import_price_list_file(path=aws_responses / M5_ITEM)
    assert (again.stored, again.unchanged) == (0, 13)
    assert Price.objects.count() == 13


@pytest.mark.django_db
def test_json_and_csv_offer_files_give_the_same_reserved_prices(tmp_path, m5_item):
    first = price_services.import_offer_file(path=write_json(tmp_path / "index.json", [m5_item]))
    assert first.stored == 13
    again = price_services.import_offer_file(path=write_csv(tmp_path / "index.csv", [m5_item]))
    assert (again.stored, again.unchanged) == (0, 13)
    assert stored_terms() == M5_TERMS


def test_the_2016_offer_excerpt_gives_its_four_reserved_terms(aws_samples):
    offer = OfferFile(aws_samples / "aws_ec2_offer_c4large_us-east-1_201612_lyft.json")
    records = list(offer.records())
    reserved = {
        (r.term, r.payment, r.offering_class): (r.upfront_usd, r.hourly_usd, r.usd_per_hour)
        for r in records
        if r.purchase_option == "reserved"
    }
    assert reserved == {
        ("1y", "partial_upfront", "standard"): (
            Decimal(263),
            Decimal("0.03"),
            Decimal("0.06002283"),
        ),
        ("3y", "partial_upfront", "standard"): (
            Decimal(539),
            Decimal("0.021"),
            Decimal("0.04150989"),
        ),
        ("3y", "partial_upfront", "convertible"): (
            Decimal(710),
            Decimal("0.027"),
            Decimal("0.05401674"),
        ),
        ("1y", "no_upfront", "standard"): (Decimal(0), Decimal("0.063"), Decimal("0.063")),
    }
    # Products from before capacity reservations (2018) name no capacity status.
    assert [r.usd_per_hour for r in records if r.purchase_option == "on_demand"] == [Decimal("0.1")]


def test_the_ligoj_csv_rows_give_linux_shared_reserved_terms_only(tmp_path, aws_samples):
    offer = OfferFile(
        undo_edits(aws_samples / "aws_ec2_offer_eu-west-1_ligoj_fixture.csv", tmp_path)
    )
    reserved = {
        r.instance_type: (r.term, r.payment, r.upfront_usd, r.hourly_usd, r.usd_per_hour)
        for r in offer.records()
        if getattr(r, "purchase_option", "") == "reserved"
    }
    # "3 yr" and "AllUpfront" are read as AWS's usual words; RHEL and Dedicated rows are not.
    assert reserved == {
        "c1.medium": ("3y", "all_upfront", Decimal(1680), Decimal(0), Decimal("0.06392694")),
        "c1.xlarge": ("3y", "all_upfront", Decimal(6720), Decimal(0), Decimal("0.25570776")),
    }


def test_aws_words_for_a_term_are_read_whatever_their_spacing():
    assert commitment_of(
        {"LeaseContractLength": "3 yr", "PurchaseOption": "AllUpfront", "OfferingClass": ""}
    ) == ("3y", "all_upfront", "standard")
    assert commitment_of({"LeaseContractLength": "5yr", "PurchaseOption": "No Upfront"}) is None
    assert commitment_of({"LeaseContractLength": "1yr", "PurchaseOption": "Heavy"}) is None


def test_a_term_with_a_dimension_it_cannot_read_gives_no_price():
    term = ReservedTerm("1y", "partial_upfront", "standard", datetime.date(2021, 1, 1))
    term.add(unit="Quantity", usd="100", begin=None, where="t")
    term.add(unit="Hrs", usd="0.01", begin="100", where="t")  # a step, not a flat fee
    assert term.record(("ec2", "m5.large", "us-east-1", ""), "t") is None


def test_an_all_upfront_term_with_an_hourly_fee_gives_no_price():
    term = ReservedTerm("1y", "all_upfront", "standard", datetime.date(2021, 1, 1))
    term.add(unit="Quantity", usd="100", begin=None, where="t")
    term.add(unit="Hrs", usd="0.01", begin="0", where="t")
    assert term.record(("ec2", "m5.large", "us-east-1", ""), "t") is None


def undo_edits(path, tmp_path):
    """The ligoj fixture with its edits undone, as AWS writes the file: five metadata rows
    (the fixture has made-up lines), every row as wide as the header (the fixture cut the last
    columns), ISO dates (the fixture wrote 30/04/2015); the INVALID lines dropped."""
    lines = path.read_text().splitlines()
    header = next(csv.reader([lines[5]]))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerows(
        [
            ["FormatVersion", "v1.0"],
            ["Disclaimer", "ligoj/plugin-prov-aws test fixture"],
            ["Publication Date", "2017-01-05T00:00:00Z"],
            ["Version", "20170105000000"],
            ["OfferCode", "AmazonEC2"],
            header,
        ]
    )
    for line in lines[6:]:
        row = [cell.strip() for cell in next(csv.reader([line]), [])]
        if len(row) < len(header) // 2:
            continue
        if row[5].count("/") == 2:
            day, month, year = row[5].split("/")
            row[5] = f"{year}-{month}-{day}"
        writer.writerow(row + [""] * (len(header) - len(row)))
    cleaned = tmp_path / "index.csv"
    cleaned.write_text(out.getvalue())
    return cleaned
