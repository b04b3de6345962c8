"""Price-performance on the basis a buyer can act on: burstable types at what they sustain,
honest price dates, and the sentence that answers."""

import datetime
from decimal import Decimal

import pytest

from benchmarks.selectors.answer.answer_sentence import summary
from tests.selectors.test_price_performance import answer, make_type, price, run_with

pytestmark = pytest.mark.django_db

JAN, DAY = datetime.date(2024, 1, 1), datetime.date(2024, 6, 1)


def nano_and_c7g():
    """t4g.nano (2 vCPUs at 5%, cheap, fast while bursting) against c7g.large."""
    make_type("t4g.nano", vcpus=2, burstable=True, baseline_share=Decimal("0.05"))
    make_type("c7g.large", vcpus=2, cpu_allocation="dedicated")
    price("t4g.nano", "0.0042", JAN)
    price("c7g.large", "0.0725", JAN)
    run_with("t4g.nano", [100.0], params={"processes": 2})
    run_with("c7g.large", [110.0], params={"processes": 2})


def test_a_burstable_type_is_ranked_at_what_it_sustains_by_default():
    nano_and_c7g()
    table = answer("openssl:sha256", "us-east-1", at=DAY)
    assert [row.instance_type for row in table.results] == ["c7g.large", "t4g.nano"]
    nano = table.results[1]
    assert nano.burstable and nano.cpu_allocation == "burstable"
    assert nano.per_dollar == nano.sustained_per_dollar
    # Two processes on 2 vCPUs at 5%: 5% of the burst figure.
    assert nano.sustained_per_dollar == pytest.approx(nano.burst_per_dollar * 0.05, rel=1e-6)
    # 24 hours of credits (6 an hour) spent at 2 vCPUs, 0.1 a minute earned back.
    assert nano.burst_minutes == pytest.approx(144 / 1.9)
    assert table.results[0].cpu_allocation == "dedicated"


def test_the_burst_basis_ranks_burst_figures_and_says_so():
    nano_and_c7g()
    table = answer("openssl:sha256", "us-east-1", at=DAY, basis="burst")
    assert [row.instance_type for row in table.results] == ["t4g.nano", "c7g.large"]
    assert table.results[0].per_dollar == table.results[0].burst_per_dollar
    assert "burstable types at their burst figure" in summary(table)


def test_unlimited_mode_pays_the_surplus_credits():
    nano_and_c7g()
    table = answer("openssl:sha256", "us-east-1", at=DAY, basis="unlimited")
    nano = next(row for row in table.results if row.instance_type == "t4g.nano")
    # Flat out on both vCPUs: 2 x 95% of a vCPU-hour in surplus credits at $0.04.
    assert nano.unlimited_usd_per_hour == pytest.approx(0.0042 + 1.9 * 0.04)
    assert nano.per_dollar == pytest.approx(100 * 3600 / nano.unlimited_usd_per_hour, rel=1e-6)
    assert "unlimited mode" in summary(table)


def test_an_unlimited_price_reads_as_its_sum_without_float_noise():
    make_type("t2.micro", vcpus=1, burstable=True, baseline_share=Decimal("0.1"))
    price("t2.micro", "0.0116", JAN)
    run_with("t2.micro", [100.0], params={"processes": 1})
    table = answer("openssl:sha256", "us-east-1", at=DAY, basis="unlimited")
    # 0.0116 + 90% of a vCPU-hour at $0.05 (in floats, 0.056600000000000004).
    assert table.results[0].unlimited_usd_per_hour == 0.0566


def test_each_row_names_the_day_its_price_came_into_force():
    price("c7g.large", "0.08", JAN, datetime.date(2024, 3, 31))
    price("c7g.large", "0.0725", datetime.date(2024, 4, 1))
    run_with("c7g.large", [100.0])
    row = answer("openssl:sha256", "us-east-1", at=DAY).results[0]
    assert row.price_effective_from == datetime.date(2024, 4, 1)
    assert row.price_in_force


def test_a_day_without_prices_says_which_prices_were_used():
    nano_and_c7g()
    day = datetime.date(2017, 12, 13)
    table = answer("openssl:sha256", "us-east-1", at=day)
    assert {row.price_effective_from for row in table.results} == {JAN}
    assert not any(row.price_in_force for row in table.results)
    sentence = summary(table)
    assert "of 2024-01-01: none on record for 2017-12-13 for 2 of 2 rows" in sentence
    assert "in force on 2017-12-13" not in sentence


def test_exact_price_dates_leave_out_rows_priced_on_another_day():
    nano_and_c7g()
    price("t2.nano", "0.0058", datetime.date(2017, 12, 13), datetime.date(2017, 12, 13))
    make_type("t2.nano", vcpus=1, burstable=True, baseline_share=Decimal("0.05"))
    run_with("t2.nano", [90.0], params={"processes": 2})
    table = answer(
        "openssl:sha256", "us-east-1", at=datetime.date(2017, 12, 13), price_dates="exact"
    )
    assert [row.instance_type for row in table.results] == ["t2.nano"]
    assert sorted(row.instance_type for row in table.unpriced) == ["c7g.large", "t4g.nano"]
    assert all(row.reason.startswith("price_dates=exact: ") for row in table.unpriced)
    assert "Left out: 2 types with results (2 whose price was not in force" in summary(table)


def test_the_sentence_names_the_winner_the_next_family_and_the_baseline():
    nano_and_c7g()
    make_type("c7a.large", vcpus=2, cpu_allocation="dedicated")
    price("c7a.large", "0.1027", JAN)
    run_with("c7a.large", [120.0], params={"processes": 2})
    table = answer("openssl:sha256", "us-east-1", at=DAY, baseline="c7a.large")
    sentence = summary(table)
    assert sentence.startswith("c7g.large gives the most openssl:sha256 per dollar (")
    # 110 / 0.0725 per hour against t4g.nano's sustained 5 / 0.0042: 27% more; against
    # the baseline's 120 / 0.1027: 30% more.
    assert "27% more than the best of the next family (t4g.nano)" in sentence
    assert "30% more than the baseline c7a.large" in sentence
    assert "on-demand prices in us-east-1 in force on 2024-06-01" in sentence
    assert "what they sustain once their CPU credits are spent" in sentence


def test_nothing_priced_says_why():
    run_with("c7g.large", [100.0])
    make_type("c7g.large")
    table = answer("openssl:sha256", "ap-northeast-1", at=DAY)
    assert not table.results
    assert summary(table).startswith("None of the 1 type with openssl:sha256 results can be")
