"""Number formatting on the pages."""

import pytest

from dashboard.templatetags.pricebench import si


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (3150184080.0, "3.15 G"),
        (5.97e14, "597 T"),
        (1234.5, "1.234 k"),
        (0.019, "0.019"),
        (97.0, "97"),
        (None, ""),
    ],
)
def test_si_shows_large_numbers_with_a_prefix(value, shown):
    assert si(value) == shown
