"""Template filters for the pages."""

import math

from django import template

register = template.Library()

_PREFIXES = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")]


@register.filter
def si(value) -> str:
    """3150184080.0 -> '3.15 G'; small numbers keep four significant digits."""
    if value is None or value == "":
        return ""
    number = float(value)
    if not math.isfinite(number):
        return str(number)
    for scale, prefix in _PREFIXES:
        if abs(number) >= scale:
            return f"{number / scale:.4g} {prefix}"
    return f"{number:.4g}"
