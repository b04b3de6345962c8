"""Answers in another currency: the ECB's reference rate of the day asked, named on each row."""

import datetime
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from benchmarks import currency
from benchmarks.errors import DomainError
from tests.selectors.test_price_performance import price, run_with

URL = "/api/v1/price-performance/"
JAN = datetime.date(2024, 1, 1)


def test_a_rate_is_the_ecbs_of_the_day_or_the_last_working_day_before_it():
    # 2 January 2024: the ECB gave 1.0956 US dollars for a euro.
    tuesday = currency.exchange_rate("EUR", datetime.date(2024, 1, 2))
    assert (tuesday.currency, tuesday.per_usd, tuesday.day) == (
        "EUR",
        0.912742,
        datetime.date(2024, 1, 2),
    )
    # A Sunday has no rates: Friday's (1.0921) are used, and named.
    sunday = currency.exchange_rate("eur", datetime.date(2024, 1, 7))
    assert (sunday.per_usd, sunday.day) == (0.915667, datetime.date(2024, 1, 5))
    assert currency.exchange_rate("GBP", datetime.date(2024, 1, 5)).per_usd == 0.789397
    assert sunday.convert(10.0) == 9.156671 and sunday.convert(None) is None  # 10 / 1.0921


def test_an_amount_is_converted_through_the_ecbs_two_rates_with_no_rounded_cross_rate():
    # 1 October 2024: 1.1086 US dollars and 0.83193 pounds for a euro.
    euro = currency.exchange_rate("EUR", datetime.date(2024, 10, 1))
    assert (euro.per_euro, euro.usd_per_euro) == (Decimal(1), Decimal("1.1086"))
    assert euro.published == "1.1086 USD per EUR"
    # cpx41's net 0.0409 EUR: 0.04534174 USD (at the rounded 0.902039, 0.04534172).
    assert euro.usd_of(Decimal("0.0409")) == Decimal("0.0409") * Decimal("1.1086")
    assert euro.usd_of(Decimal("0.0409")).quantize(Decimal("1e-8")) == Decimal("0.04534174")
    # Dollars into euros divide by the ECB's own rate (at the rounded 0.902039: 90.2039).
    assert euro.convert(100.0) == 90.20386
    pound = currency.exchange_rate("GBP", datetime.date(2024, 10, 1))
    assert pound.published == "1.1086 USD, 0.83193 GBP per EUR"
    assert pound.usd_of(Decimal(10)) == Decimal(10) / Decimal("0.83193") * Decimal("1.1086")
    assert pound.convert(12.5) == 9.380412  # 12.5 / 1.1086 x 0.83193 (not 9.380413)
    # The rate an answer names: their quotient, to the ECB's six significant digits.
    assert (euro.per_usd, pound.per_usd) == (0.902039, 0.750433)


def test_a_day_past_the_shipped_history_takes_its_last_rate_and_says_which():
    last = currency.exchange_rate("EUR", datetime.date(2099, 1, 1))
    assert last.day is not None and last.day < datetime.date(2099, 1, 1)
    assert last == currency.exchange_rate("EUR", last.day)


def test_us_dollars_are_not_converted_and_an_unknown_currency_is_named():
    assert currency.exchange_rate("USD", JAN) == currency.NO_CONVERSION
    assert currency.NO_CONVERSION.convert(0.0058) == 0.0058
    with pytest.raises(DomainError) as raised:
        currency.exchange_rate("XYZ", JAN)
    assert raised.value.field == "currency" and "EUR" in raised.value.message
    # Discontinued currencies (the Slovak koruna, since the euro) are not offered.
    assert "SKK" not in currency.currencies() and {"EUR", "GBP", "USD"} <= set(
        currency.currencies()
    )


@pytest.fixture
def two_types(db):
    price("c7g.large", "0.0725", JAN)
    price("c7a.large", "0.10283", JAN)
    run_with("c7g.large", [200.0], params={"block_size": 8192})
    run_with("c7a.large", [300.0], params={"block_size": 8192})


def ask(**options) -> dict:
    response = APIClient().get(
        URL,
        {"benchmark": "openssl:sha256", "region": "us-east-1", "block_size": "8192",
         "at": "2024-01-07", **options},
    )  # fmt: skip
    assert response.status_code == 200, response.content
    return response.json()


def test_rows_give_the_price_in_the_currency_asked_with_the_rate_and_its_day(two_types):
    dollars, euros = ask(), ask(currency="eur")
    assert (dollars["currency"], euros["currency"]) == ("USD", "EUR")
    by_type = {row["instance_type"]: row for row in euros["results"]}
    c7g = by_type["c7g.large"]
    assert (c7g["usd_per_hour"], c7g["currency"], c7g["exchange_rate"]) == (0.0725, "EUR", 0.915667)
    assert c7g["price_per_hour"] == pytest.approx(0.0725 * 0.915667, rel=1e-6)
    assert c7g["exchange_rate_date"] == "2024-01-05"
    plain = dollars["results"][0]
    assert (plain["currency"], plain["exchange_rate"], plain["exchange_rate_date"]) == (
        "USD",
        1,
        None,
    )
    assert plain["price_per_hour"] == plain["usd_per_hour"]
    # One rate for the whole answer: the ranking and what a dollar buys do not change.
    assert [(r["instance_type"], r["per_dollar"]) for r in euros["results"]] == [
        (r["instance_type"], r["per_dollar"]) for r in dollars["results"]
    ]


def test_an_unknown_currency_is_a_400_naming_it(two_types):
    response = APIClient().get(
        URL, {"benchmark": "openssl:sha256", "region": "us-east-1", "currency": "DOGE"}
    )
    assert response.status_code == 400
    assert "currency" in response.json()
