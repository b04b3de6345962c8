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


HOURS_PER_MONTH = 730  # AWS's own convention for monthly estimates


@register.filter
def monthly(usd_per_hour) -> float | None:
    """An hourly price as a month of always-on use (730 hours)."""
    return None if usd_per_hour is None else float(usd_per_hour) * HOURS_PER_MONTH
