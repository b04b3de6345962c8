"""The pages' scripts write every unit the demo has as benchmarks/units.py does: the same
words ("2.23 M tokens per dollar", "401 k seconds of audio per dollar"), the same digits."""

import pytest

from benchmarks import units
from tests.test_units import DEMO_UNITS

pytestmark = pytest.mark.browser

NUMBERS = [2.23e6, 401e3, 0.00004346, 999.7e3, 1.125, 5.97e14, 0, 12.5]
FORMAT = "([values, scale, rules]) => values.map((v) => PricebenchUnits.format(v, scale, rules))"


def test_every_demo_units_scales_read_the_same_in_the_scripts(sqlite_site, browser):
    page = browser.new_page()
    page.goto(f"{sqlite_site}/")
    page.wait_for_function("() => window.PricebenchUnits !== undefined")
    rules = units.script_rules()
    for unit, higher in DEMO_UNITS:
        reading = units.reading("tool:test", unit, higher)
        for scale in (reading.value, reading.per_dollar):
            if scale is None:
                continue
            written = page.evaluate(FORMAT, [NUMBERS, scale.as_json(), rules])
            assert written == [scale.format(number) for number in NUMBERS], (unit, scale)
    page.close()
