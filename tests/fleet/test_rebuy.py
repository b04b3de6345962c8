"""Re-buying a fleet: each line's cheapest equal at equal work, the saving's range from the
noise, the way to buy kept, regions same or any, lines it cannot match skipped with a reason."""

import io
from types import SimpleNamespace

import pytest

from benchmarks.errors import DomainError
from benchmarks.fleet.reader import MAX_SKIPPED_LISTED, read_fleet
from benchmarks.fleet.rebuy import (
    FleetQuestion,
    _cheapest,
    _relative_interval,
    _Tables,
    rebuy_fleet,
)
from tests.fleet.fleet_data import KEY, make_type, measure_fleet_types, measured, price
from tests.fleet.focus_rows import acceptance_rows, focus_csv, focus_row

pytestmark = pytest.mark.django_db


@pytest.fixture
def fleet_types():
    measure_fleet_types()


def rebuy(rows, **question):
    fleet = read_fleet(io.StringIO(focus_csv(rows)))
    return rebuy_fleet(fleet, FleetQuestion(**{"benchmark": KEY, **question}))


def by_type(answer):
    return {line.instance_type: line for line in answer.lines}


def test_the_acceptance_bill_answers_two_lines_with_a_saving_range(fleet_types):
    answer = rebuy(acceptance_rows())

    lines = by_type(answer)
    assert set(lines) == {"m5.xlarge", "c5.xlarge"}
    assert lines["m5.xlarge"].hours == pytest.approx(48)
    assert lines["m5.xlarge"].usd_per_month == pytest.approx(48 * 0.192)
    assert lines["c5.xlarge"].usd_per_month == pytest.approx(48 * 0.17 * 0.7)
    for line in lines.values():
        replacement = line.replacement
        assert replacement.instance_type == "c7g.xlarge"
        # 48 hours of 100 an hour is 32 hours of c7g's 150, at $0.145.
        assert replacement.usd_per_month == pytest.approx(32 * 0.145)
        assert replacement.work_ratio.mid == pytest.approx(1.5)
        saving = replacement.saving_usd_per_month
        assert saving.low <= saving.mid <= saving.high
        assert saving.mid == pytest.approx(line.usd_per_month - 32 * 0.145)
        assert replacement.beyond_noise
    assert answer.total_usd_per_month == pytest.approx(48 * 0.192 + 48 * 0.17 * 0.7)
    assert answer.total_saving.mid == pytest.approx(answer.total_usd_per_month - 2 * 32 * 0.145)
    assert answer.file.other_rows == 1
    assert answer.summary.startswith("Re-buying 2 of 2 lines at equal openssl:sha256 work saves $")


def test_a_committed_line_is_re_bought_at_its_own_way_to_buy_where_priced(fleet_types):
    price("c5.xlarge", "0.11", option="reserved")
    price("c7g.xlarge", "0.09", option="reserved")
    rows = [focus_row(instance_type="c5.xlarge", pricing_category="Committed", hours=10)]

    line = rebuy(rows).lines[0]

    assert line.purchase_option == "reserved"
    assert line.replacement.purchase_option == "reserved"
    assert line.replacement.usd_per_month == pytest.approx(10 * 100 / 150 * 0.09)
    assert line.note == ""


def test_a_committed_line_without_its_own_commitment_price_is_compared_on_demand(fleet_types):
    rows = [focus_row(instance_type="c5.xlarge", pricing_category="Committed")]

    line = rebuy(rows).lines[0]

    assert line.purchase_option == "on_demand"
    assert "re-bought on-demand" in line.note


def test_a_line_already_cheapest_is_kept_and_the_summary_says_so(fleet_types):
    answer = rebuy([focus_row(instance_type="c7g.xlarge", list_unit_price=0.145)])

    replacement = answer.lines[0].replacement
    assert replacement.kept
    assert replacement.instance_type == "c7g.xlarge"
    assert replacement.saving_usd_per_month.as_dict() == {"low": 0, "mid": 0, "high": 0}
    assert not replacement.beyond_noise
    assert "already costs least" in answer.summary


def test_a_saving_inside_the_noise_is_not_beyond_it():
    measured("m5.xlarge", 100)
    price("m5.xlarge", "0.192")
    measured("m6i.xlarge", 101)
    price("m6i.xlarge", "0.192")

    answer = rebuy([focus_row(instance_type="m5.xlarge", list_unit_price=0.192)])

    replacement = answer.lines[0].replacement
    assert replacement.instance_type == "m6i.xlarge"
    saving = replacement.saving_usd_per_month
    assert saving.low < 0 < saving.high
    assert not replacement.beyond_noise
    assert "within noise" in answer.summary


def test_regions_any_looks_in_the_vendors_other_regions(fleet_types):
    price("c7g.xlarge", "0.10", region="us-west-2")

    same = rebuy([focus_row()]).lines[0].replacement
    anywhere = rebuy([focus_row()], regions="any").lines[0].replacement

    assert (same.region, same.usd_per_month) == ("us-east-1", pytest.approx(100 / 150 * 0.145))
    assert (anywhere.region, anywhere.usd_per_month) == (
        "us-west-2",
        pytest.approx(100 / 150 * 0.1),
    )


def test_lines_it_cannot_match_are_skipped_with_the_reason(fleet_types):
    make_type("t4g.nano")
    rows = [focus_row(), focus_row(instance_type="zz9.plural"), focus_row(instance_type="t4g.nano")]

    answer = rebuy(rows)

    reasons = {skipped.row: skipped.reason for skipped in answer.file.skipped}
    assert [line.instance_type for line in answer.lines] == ["m5.xlarge"]
    assert "no cloud sells" in reasons[2]
    assert "cannot be matched" in reasons[3]


def test_a_question_without_a_known_benchmark_is_refused_by_name():
    with pytest.raises(DomainError) as error:
        rebuy([focus_row()], benchmark="nope:nothing")
    assert error.value.field == "benchmark"
    with pytest.raises(DomainError) as error:
        rebuy([focus_row()], regions="moon")
    assert error.value.field == "regions"


def test_a_calibrated_per_dollar_interval_is_used_when_the_row_has_one():
    row = SimpleNamespace(per_dollar=10.0, per_dollar_interval={"low": 8.0, "high": 13.0})
    plain = SimpleNamespace(per_dollar=10.0)

    assert _relative_interval(row, 0.1) == pytest.approx((0.8, 1.3))
    assert _relative_interval(plain, 0.1) == pytest.approx((0.95, 1.05))


def candidate(name, per_dollar, *, estimated=False):
    return (SimpleNamespace(instance_type=name, per_dollar=per_dollar, estimated=estimated), "r")


def test_an_estimate_leading_only_within_the_noise_gives_way_to_a_measured_type():
    estimate = candidate("fargate-1vcpu-2gb-arm64", 104.0, estimated=True)
    measured_type = candidate("c7g.medium", 100.0)

    assert _cheapest([measured_type, estimate], margin=0.05) == measured_type
    # Beyond the noise the estimate stands: the answer labels it `estimated`.
    assert _cheapest([measured_type, estimate], margin=0.02) == estimate
    # With nothing measured to prefer, the estimate is the answer.
    assert _cheapest([estimate], margin=0.05) == estimate


def test_a_replacement_on_an_estimate_is_labelled_and_the_summary_says_so(fleet_types, monkeypatch):
    def rows(self, region, option):
        figures = [
            SimpleNamespace(instance_type=name, variant=None, usd_per_hour=usd,
                            per_dollar=work * 3600 / usd, estimated=estimated)
            for name, work, usd, estimated in (
                ("m5.xlarge", 100, 0.192, False),
                ("fargate-4vcpu-8gb-arm64", 150, 0.16, True),
            )
        ]  # fmt: skip
        return figures, 0.02

    monkeypatch.setattr(_Tables, "rows", rows)

    answer = rebuy([focus_row()])

    replacement = answer.lines[0].replacement
    assert replacement.instance_type == "fargate-4vcpu-8gb-arm64"
    assert replacement.estimated
    assert "1 of them on an estimated figure" in answer.summary


def test_lines_it_cannot_match_count_past_the_listed_skips_as_the_files_rows_do(fleet_types):
    text = "instance_type,region,count,hours\n" + "m5.xlarge,,1,1\n" * MAX_SKIPPED_LISTED
    fleet = read_fleet(io.StringIO(text + "zz9.plural,us-east-1,1,730\n"))

    answer = rebuy_fleet(fleet, FleetQuestion(benchmark=KEY))

    assert answer.file.skipped_count == MAX_SKIPPED_LISTED + 1
    assert len(answer.file.skipped) == MAX_SKIPPED_LISTED
