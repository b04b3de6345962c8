"""Offer files cut in the middle (an interrupted download): refused before anything is stored,
the import exiting non-zero with the byte the file was cut at."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from benchmarks.errors import DomainError
from benchmarks.models import Price, VolumePrice
from benchmarks.pricing import cut_short
from benchmarks.pricing.offer_files import OfferFile
from tests.pricing.test_offer_files import offer_items, write_csv, write_json

# A real EC2 offer file in AWS's pretty-printed layout (its source in aws-samples/SOURCES.md).
SAMPLE = "aws_ec2_offer_c4large_us-east-1_201612_lyft.json"


def read_all(path) -> list:
    return list(OfferFile(path).records())


def cut(tmp_path, whole: bytes, at: int, name: str):
    path = tmp_path / name
    path.write_bytes(whole[:at])
    return path


def test_the_sample_cut_at_any_byte_is_refused_naming_that_byte(tmp_path, shared_data):
    whole = (shared_data / "pricing" / "aws-samples" / SAMPLE).read_bytes()
    read = read_all(cut(tmp_path, whole, len(whole), "whole.json"))
    assert read and {record.instance_type for record in read} == {"c4.large"}
    unended = read_all(cut(tmp_path, whole, len(whole.rstrip()), "no-newline.json"))
    assert [record.usd_per_hour for record in unended] == [record.usd_per_hour for record in read]
    # Every byte of the last lines (where a check of the last byte alone passed a cut after an
    # inner brace) and every 37th before them.
    offsets = sorted({*range(1, len(whole) - 200, 37), *range(len(whole) - 200, len(whole) - 2)})
    for at in offsets:
        if not whole[:at].rstrip():
            continue
        path = cut(tmp_path, whole, at, "cut.json")
        with pytest.raises(DomainError) as refused:
            read_all(path)
        assert f"cut.json: cut short at byte {at:,}" in refused.value.message, at


def test_a_cut_json_file_with_prices_stores_nothing_and_the_command_names_the_byte(
    tmp_path, m5_item, db
):
    path = write_json(tmp_path / "offer.json", offer_items(m5_item, copies=3))
    whole = path.read_bytes()
    assert len(read_all(path)) > 0
    # Cut after a closing brace in the reserved terms, which the reader never parses.
    at = whole.rindex(b"}", 0, whole.rindex(b'"Reserved"') + 3000) + 1
    cut(tmp_path, whole, at, "offer.json")
    with pytest.raises(CommandError, match=rf"offer.json: cut short at byte {at:,}"):
        call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO())
    assert not Price.objects.exists() and not VolumePrice.objects.exists()


def test_a_csv_file_cut_in_a_row_stores_nothing_and_names_the_byte_and_line(tmp_path, m5_item, db):
    path = write_csv(tmp_path / "offer.csv", offer_items(m5_item, copies=2))
    whole = path.read_bytes()
    lines = whole.split(b"\n")
    for last in (6, 9, len(lines) - 2):
        # Within the row's last field (its field count whole), and in the middle of the row.
        row_start = len(b"\n".join(lines[:last])) + 1
        for at in (row_start + len(lines[last]) - 1, row_start + len(lines[last]) // 2):
            cut(tmp_path, whole, at, "offer.csv")
            with pytest.raises(CommandError) as refused:
                call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO())
            assert f"offer.csv: cut short at byte {at:,}, in line {last + 1}" in str(refused.value)
            assert not Price.objects.exists()
    # A cut at the end of a row cannot be told from a shorter file: those rows are read (the
    # on-demand price and the reserved term before the cut).
    cut(tmp_path, whole, len(b"\n".join(lines[:8])) + 1, "offer.csv")
    assert [record.purchase_option for record in read_all(path)] == ["on_demand", "reserved"]


def test_a_small_compact_file_is_parsed_whole_to_tell(tmp_path, m5_item):
    path = write_json(tmp_path / "compact.json", offer_items(m5_item)[:2], indent=None)
    whole = path.read_bytes()
    assert b"\n" not in whole and cut_short.json_cut_at(path) is None
    at = whole.rindex(b"}", 0, len(whole) - 1)
    cut(tmp_path, whole, at, "compact.json")
    assert whole[:at].endswith(b"}")
    assert cut_short.json_cut_at(path) == at
    json.loads(whole)  # the whole one is JSON indeed


SAVINGS_PLANS = "aws_savingsplan_offer_eu-west-1_ligoj_fixture.json"


def test_a_savings_plans_file_cut_at_any_byte_is_refused_naming_that_byte(tmp_path, shared_data):
    from benchmarks.pricing.savings_plans import SavingsPlanFile

    whole = (shared_data / "pricing" / "aws-samples" / SAVINGS_PLANS).read_bytes()
    assert list(SavingsPlanFile(cut(tmp_path, whole, len(whole), "whole.json")).records())
    offsets = sorted({*range(1, len(whole) - 200, 37), *range(len(whole) - 200, len(whole) - 2)})
    for at in offsets:
        if not whole[:at].rstrip():
            continue
        path = cut(tmp_path, whole, at, "plans.json")
        with pytest.raises(DomainError) as refused:
            list(SavingsPlanFile(path).records())
        assert f"plans.json: cut short at byte {at:,}" in refused.value.message, at


def test_a_cut_savings_plans_file_stores_nothing_and_the_command_names_the_byte(
    tmp_path, shared_data, db
):
    whole = (shared_data / "pricing" / "aws-samples" / SAVINGS_PLANS).read_bytes()
    # Cut in the middle of the rates, after a closing brace.
    at = whole.rindex(b"}", 0, len(whole) * 2 // 3) + 1
    path = cut(tmp_path, whole, at, "plans.json")
    with pytest.raises(CommandError, match=rf"plans.json: cut short at byte {at:,}"):
        call_command("import_prices", "--offer-file", str(path), stdout=io.StringIO())
    assert not Price.objects.exists()
