"""Number formatting on the pages: the filters write what benchmarks.units writes."""

import pytest

from benchmarks import units
from dashboard.templatetags.pricebench import percent, reads, si, usd


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (3150184080.0, "3.15 G"),
        (5.97e14, "597 T"),
        (1234.5, "1.23 k"),
        (0.019, "0.019"),
        (97.0, "97"),
        (None, ""),
    ],
)
def test_si_shows_large_numbers_with_a_prefix(value, shown):
    assert si(value) == shown


def test_reads_writes_a_figure_in_its_benchmarks_unit():
    reading = units.reading("openssl:aes-256-cbc", "B/s", True)
    assert reads(5.97e14, reading.per_dollar) == "597 TB per dollar"
    assert reads(None, reading.per_dollar) == "—"
    assert reads(1.0, None) == "—"


def test_percent_and_usd():
    assert [percent(0.97), percent(0.704), percent(1.378), percent(None)] == [
        "97%",
        "70%",
        "138%",
        "",
    ]
    assert [usd(0.0058), usd(12.345), usd(None)] == ["$0.0058", "$12.35", "—"]
