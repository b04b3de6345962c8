"""The price-performance row as `price_performance_table` builds it: every field by position."""

import dataclasses
import inspect
import re

from benchmarks.selectors.answer import price_performance
from benchmarks.selectors.answer.price_performance_rows import PricePerformanceRow


def test_the_table_gives_each_field_in_its_declared_order():
    # The row is built by position, not by keyword (a thousand rows' keywords cost three
    # times the rest of the call): each argument's comment names its field, and the names
    # must be the dataclass's own, in order, or a field would take another's value.
    source = inspect.getsource(price_performance.price_performance_table)
    call = source[source.index("PricePerformanceRow(") : source.index("\n        )")]
    arguments = [line for line in call.splitlines()[1:] if line.strip()]
    named = [re.search(r",\s*#\s*(\w+)$", line) for line in arguments]
    assert all(named), [line for line, found in zip(arguments, named, strict=True) if not found]
    declared = [field.name for field in dataclasses.fields(PricePerformanceRow)]
    assert [found.group(1) for found in named] == declared[: len(named)]
