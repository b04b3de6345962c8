"""The fleet file reader: plain CSVs and FOCUS 1.2 exports (rows shaped like the FinOps
Foundation's, tests/fleet/focus_rows.py says whence), streamed; bad files refused by name."""

import io

import pytest

from benchmarks.fleet.reader import MAX_SKIPPED_LISTED, FleetFileError, read_fleet
from tests.fleet.focus_rows import HEADER, acceptance_rows, cloudwatch_row, focus_csv, focus_row


def by_type(fleet):
    return {line.instance_type: line for line in fleet.lines}


def test_it_sums_each_type_and_region_of_a_focus_export_into_one_line():
    fleet = read_fleet(io.StringIO(focus_csv(acceptance_rows())))

    lines = by_type(fleet)
    assert fleet.format == "focus"
    assert set(lines) == {"m5.xlarge", "c5.xlarge"}
    assert lines["m5.xlarge"].hours == pytest.approx(48)
    assert lines["m5.xlarge"].usd_paid == pytest.approx(48 * 0.192)
    assert lines["m5.xlarge"].purchase_option == "on_demand"
    assert lines["c5.xlarge"].usd_paid == pytest.approx(48 * 0.17 * 0.7)
    assert lines["c5.xlarge"].usd_list == pytest.approx(48 * 0.17)
    assert lines["c5.xlarge"].purchase_option == "reserved"
    assert lines["c5.xlarge"].rows == 48
    # The CloudWatch row is counted, never a line nor a skipped compute row.
    assert fleet.other_rows == 1
    assert fleet.skipped == []


def test_it_reads_spot_and_savings_plans_from_the_pricing_category():
    rows = [
        focus_row(instance_type="c7g.large", pricing_category="Dynamic"),
        focus_row(
            instance_type="m7g.large", pricing_category="Committed", commitment_type="Savings Plan"
        ),
    ]
    lines = by_type(read_fleet(io.StringIO(focus_csv(rows))))

    assert lines["c7g.large"].purchase_option == "spot"
    assert lines["m7g.large"].purchase_option == "savings_plan"


def test_it_keeps_types_in_two_regions_apart():
    rows = [focus_row(region="us-east-1"), focus_row(region="eu-west-1", hours=3)]
    fleet = read_fleet(io.StringIO(focus_csv(rows)))

    assert sorted((line.region, line.hours) for line in fleet.lines) == [
        ("eu-west-1", 3.0),
        ("us-east-1", 1.0),
    ]


def test_it_lists_compute_rows_it_cannot_use_with_the_reason():
    rows = [
        focus_row(instance_type=None, service_name="AmazonECS"),
        focus_row(consumed_unit="Requests"),
        focus_row(region=""),
        focus_row(),
    ]
    fleet = read_fleet(io.StringIO(focus_csv(rows)))

    reasons = {skipped.row: skipped.reason for skipped in fleet.skipped}
    assert "Fargate" in reasons[1]
    assert "not hours" in reasons[2]
    assert "RegionId" in reasons[3]
    assert len(fleet.lines) == 1


def test_it_passes_over_rows_that_are_not_compute_usage():
    rows = [cloudwatch_row(), focus_row(charge_category="Tax"), focus_row(charge_category="Credit")]
    fleet = read_fleet(io.StringIO(focus_csv(rows)))

    assert fleet.lines == []
    assert fleet.other_rows == 3


def test_it_lists_a_bounded_number_of_skipped_rows_and_counts_the_rest():
    rows = [focus_row(region="") for _ in range(MAX_SKIPPED_LISTED + 5)]
    fleet = read_fleet(io.StringIO(focus_csv(rows)))

    assert len(fleet.skipped) == MAX_SKIPPED_LISTED
    assert fleet.skipped_count == MAX_SKIPPED_LISTED + 5


def test_it_reads_a_plain_csv_with_counts_and_purchase_options():
    text = (
        "instance_type,region,count,hours,purchase_option\n"
        "c7g.xlarge,us-east-1,3,730,on_demand\n"
        "c7g.xlarge,us-east-1,1,730,spot\n"
        "hcloud:cax11,fsn1,2,100,\n"
    )
    fleet = read_fleet(io.StringIO(text))

    lines = by_type(fleet)
    assert fleet.format == "csv"
    assert lines["c7g.xlarge"].hours == pytest.approx(4 * 730)
    assert lines["c7g.xlarge"].purchase_option == "on_demand"
    assert lines["c7g.xlarge"].usd_paid is None
    assert lines["hcloud:cax11"].hours == pytest.approx(200)


def test_it_streams_the_file_line_by_line():
    consumed = []

    def lines():
        yield "instance_type,region,count,hours\n"
        for _ in range(1000):
            consumed.append(1)
            yield "m5.large,us-east-1,1,1\n"

    fleet = read_fleet(lines())

    assert fleet.lines[0].hours == 1000
    assert len(consumed) == 1000


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("", "empty"),
        ("hello world\nfoo\n", "not a fleet file"),
        ("instance_type,region,count,hours\nm5.large,us-east-1,1,-5\n", "negative"),
        ("instance_type,region,count,hours\nm5.large,us-east-1,1,lots\n", "hours 'lots'"),
        ("instance_type,region,count,hours,purchase_option\nm5.large,x,1,1,lease\n", "lease"),
        ("BilledCost,ServiceCategory,RegionId\n1,Compute,us-east-1\n", "SkuPriceDetails"),
        ("a,b\n\x00\x01\x02,\n", "not"),
    ],
)
def test_it_refuses_a_bad_file_naming_what_is_wrong(text, names):
    with pytest.raises(FleetFileError, match=names):
        read_fleet(io.StringIO(text))


def test_it_refuses_negative_focus_hours():
    with pytest.raises(FleetFileError, match="ConsumedQuantity must not be negative"):
        read_fleet(io.StringIO(focus_csv([focus_row(hours=-2)])))


def test_it_refuses_text_that_is_not_utf_8():
    wrapper = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00\x00garbage\x81\x82"), encoding="utf-8")
    with pytest.raises(FleetFileError, match="UTF-8"):
        read_fleet(wrapper)


def test_the_rows_have_the_focus_header():
    assert focus_csv([]).strip().split(",") == HEADER
