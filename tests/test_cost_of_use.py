"""benchmarks/per_dollar.py: the cost of hours of use under a commitment, and its break-even
month against on demand."""

import math

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from benchmarks import per_dollar as arithmetic

hours = st.integers(min_value=0, max_value=5 * arithmetic.HOURS_PER_YEAR)
hourly = st.floats(min_value=0, max_value=50, allow_nan=False, allow_infinity=False)
upfront = st.floats(min_value=0, max_value=100_000, allow_nan=False, allow_infinity=False)
terms = st.sampled_from(list(arithmetic.TERM_HOURS.values()))


def test_a_month_is_730_hours_so_a_term_is_a_whole_number_of_months():
    assert arithmetic.HOURS_PER_MONTH == 730
    assert {hours / arithmetic.HOURS_PER_MONTH for hours in arithmetic.TERM_HOURS.values()} == {
        12,
        36,
    }


def test_one_year_all_upfront_used_three_years_pays_the_fee_three_times():
    cost = arithmetic.cost_of_use(hours=26_280, hourly_usd=0.0, upfront_usd=494.0, term_hours=8_760)
    assert cost == arithmetic.CostOfUse(1482.0, 0.0, 1482.0, 1482.0)


def test_a_month_of_a_no_upfront_term_costs_its_hours_but_commits_the_whole_term():
    cost = arithmetic.cost_of_use(hours=730, hourly_usd=0.06, term_hours=8_760)
    assert cost.total_usd == pytest.approx(43.8)
    assert cost.committed_usd == pytest.approx(0.06 * 8_760)


def test_on_demand_has_nothing_upfront_and_commits_only_the_hours_used():
    cost = arithmetic.cost_of_use(hours=730, hourly_usd=0.096)
    assert cost.upfront_usd == 0
    assert cost.total_usd == cost.committed_usd == pytest.approx(70.08)


def test_negative_hours_and_empty_terms_are_refused():
    with pytest.raises(ValueError):
        arithmetic.cost_of_use(hours=-1, hourly_usd=0.1)
    with pytest.raises(ValueError):
        arithmetic.cost_of_use(hours=1, hourly_usd=0.1, term_hours=0)


@given(hours=hours, hourly=hourly, upfront=upfront, term=terms)
# Five whole years: the hourly fee times the hours committed was once a float below the
# same fee times the hours used.
@example(hours=43_800, hourly=30.6898877187159, upfront=0.0, term=8_760)
def test_the_total_is_the_upfront_fees_of_the_terms_started_plus_the_hours(
    hours, hourly, upfront, term
):
    cost = arithmetic.cost_of_use(
        hours=hours, hourly_usd=hourly, upfront_usd=upfront, term_hours=term
    )
    started = math.ceil(hours / term)
    assert cost.upfront_usd == upfront * started
    assert cost.hourly_usd == hourly * hours
    assert cost.total_usd == cost.upfront_usd + cost.hourly_usd
    assert cost.committed_usd >= cost.total_usd


@given(
    hours=hours,
    more=st.integers(min_value=1, max_value=10_000),
    hourly=hourly,
    upfront=upfront,
    term=terms,
)
def test_more_hours_never_cost_less(hours, more, hourly, upfront, term):
    fewer = arithmetic.cost_of_use(
        hours=hours, hourly_usd=hourly, upfront_usd=upfront, term_hours=term
    )
    longer = arithmetic.cost_of_use(
        hours=hours + more, hourly_usd=hourly, upfront_usd=upfront, term_hours=term
    )
    assert longer.total_usd >= fewer.total_usd


def test_the_m5_large_one_year_all_upfront_breaks_even_in_its_eighth_month():
    # 494 upfront against 0.096 an hour on demand: 7 months cost 490.56 on demand, 8 cost 560.64.
    month = arithmetic.break_even_month(
        upfront_usd=494, hourly_usd=0, on_demand_usd_per_hour=0.096, term_hours=8_760
    )
    assert month == 8


def test_a_commitment_dearer_than_on_demand_never_breaks_even():
    month = arithmetic.break_even_month(
        upfront_usd=0, hourly_usd=0.2, on_demand_usd_per_hour=0.1, term_hours=8_760
    )
    assert month is None


def test_a_commitment_that_costs_exactly_on_demand_breaks_even_at_once():
    month = arithmetic.break_even_month(
        upfront_usd=0, hourly_usd=0.1, on_demand_usd_per_hour=0.1, term_hours=8_760
    )
    assert month == 1


@given(upfront=upfront, hourly=hourly, on_demand=hourly, term=terms)
def test_the_break_even_month_is_the_first_month_at_or_below_on_demand(
    upfront, hourly, on_demand, term
):
    month = arithmetic.break_even_month(
        upfront_usd=upfront, hourly_usd=hourly, on_demand_usd_per_hour=on_demand, term_hours=term
    )

    def at_or_below(month):
        hours = month * arithmetic.HOURS_PER_MONTH
        commitment = arithmetic.cost_of_use(
            hours=hours, hourly_usd=hourly, upfront_usd=upfront, term_hours=term
        ).total_usd
        return round(commitment, 8) <= round(on_demand * hours, 8)

    months = range(1, term // arithmetic.HOURS_PER_MONTH + 1)
    if month is None:
        assert not any(at_or_below(m) for m in months)
    else:
        assert month in months
        assert at_or_below(month)
        assert not any(at_or_below(m) for m in range(1, month))


@given(upfront=upfront, hourly=hourly, on_demand=hourly, term=terms)
def test_a_commitment_that_breaks_even_stays_cheaper_to_the_end_of_its_term(
    upfront, hourly, on_demand, term
):
    month = arithmetic.break_even_month(
        upfront_usd=upfront, hourly_usd=hourly, on_demand_usd_per_hour=on_demand, term_hours=term
    )
    if month is not None:
        commitment = arithmetic.cost_of_use(
            hours=term, hourly_usd=hourly, upfront_usd=upfront, term_hours=term
        ).total_usd
        assert round(commitment, 6) <= round(on_demand * term, 6) + 1e-6
