"""Template filters for the pages: numbers as benchmarks.units writes them; links to many
instance types' pages."""

import html
from urllib.parse import quote

from django import template
from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.safestring import mark_safe

from benchmarks import units
from benchmarks.models.prices import purchase_label
from benchmarks.selectors.answer import fargate_estimates

register = template.Library()


@register.filter
def si(value) -> str:
    """3150184080.0 -> '3.15 G': three significant digits and an SI prefix, no unit."""
    if value is None or value == "":
        return ""
    return units.plain(float(value))


@register.filter
def reads(value, scale: units.Scale | None) -> str:
    """A stored figure in a scale's unit: `{{ row.per_dollar|reads:reading.per_dollar }}`."""
    if scale is None:
        return "—"
    return scale.format(None if value is None or value == "" else float(value))


@register.filter
def estimate_note(estimate: dict | None) -> str:
    """An estimated row's label (selectors/answer/fargate_estimates.describe); "" for a measured
    one."""
    return fargate_estimates.describe(estimate) if estimate else ""


@register.filter
def percent(ratio) -> str:
    """A ratio to a baseline as a percentage: 0.704 -> '70%'."""
    if ratio is None or ratio == "":
        return ""
    return units.percent(float(ratio))


HOURS_PER_MONTH = 730  # AWS's own convention for monthly estimates


@register.filter
def purchase_option(value) -> str:
    """`on_demand` as a page says it: "On-demand" (models.prices.purchase_label)."""
    return purchase_label(value)


@register.filter
def monthly(usd_per_hour) -> float | None:
    """An hourly price as a month of always-on use (730 hours)."""
    return None if usd_per_hour is None else float(usd_per_hour) * HOURS_PER_MONTH


@register.filter
def usd(amount) -> str:
    """Dollars: cents for amounts from a dollar, three significant digits below."""
    if amount is None or amount == "":
        return "—"
    number = float(amount)
    if abs(number) >= 1:
        return f"${number:,.2f}"
    return f"${units.significant(number, prefixed=False)[0]}"


@register.filter
def get_item(mapping, key):
    """`mapping[key]`, or None: `{{ comparison.cpu_breakdowns|get_item:row.key }}`."""
    return mapping.get(key) if mapping else None


@register.filter
def cost_per(per_dollar, reading: units.Reading | None):
    """USD for the reading's amount of work (1 M requests, one job) from a per-dollar figure."""
    if reading is None or per_dollar is None or per_dollar == "":
        return None
    return reading.cost(float(per_dollar))


def type_pages():
    """The instance-type page's URL of a name, escaped, as `{% url 'instance-type' name %}`
    writes it, reversing once for a whole list (reverse() is ~30 us a name)."""
    prefix, suffix = reverse("instance-type", args=["~"]).rsplit("~", 1)
    return lambda name: html.escape(prefix + quote(name, safe=RFC3986_SUBDELIMS + "/~:@") + suffix)


@register.simple_tag
def type_links(names) -> str:
    """Each name linked to its page, comma-separated: a family's types on a benchmark's page."""
    page_of = type_pages()
    return mark_safe(
        ", ".join(f'<a href="{page_of(name)}">{html.escape(name)}</a>' for name in names)
    )
