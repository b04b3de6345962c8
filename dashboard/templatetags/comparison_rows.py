"""The comparison page's long lists, written in Python: a thousand instance types in the
results table, the charts' data tables and the baseline menu took the template language about
250 ms of a 320 ms page; these loops take a small part of that.

Values are written as the template language writes them (`localize`, then escaped), through
the same filters (`reads`, `usd`, `percent`, ...)."""

from __future__ import annotations

import html

from django import template
from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.safestring import mark_safe

from benchmarks import cpu_models
from benchmarks.per_dollar import other_basis_per_dollar
from benchmarks.selectors.answer import fargate_estimates
from dashboard.templatetags.pricebench import cost_per, monthly, percent, reads, type_pages, usd

register = template.Library()


def _text(value) -> str:
    """A value as `{{ value }}` writes it: localized, then escaped (as `conditional_escape`
    does, without its lazy-string wrapper: a third of these tables' time)."""
    if type(value) is not str:
        value = localize(value)
        if hasattr(value, "__html__"):
            return value.__html__()
    return html.escape(str(value))


def _name(row) -> str:
    """The row's label (`c7a.xlarge (base)`), escaped; an estimated row's says so, as its
    bars do (`fargate-1vcpu-2gb-arm64 (estimated)`)."""
    return _text(row.shown_label)


def _width_percent(share) -> str:
    """`{% widthratio share 1 100 %}`: a share as a whole percentage."""
    try:
        return str(round(float(share) * 100))
    except (TypeError, ValueError, OverflowError):
        return ""


def _other_basis(row, table, reading) -> str:
    """A burstable row's figure on the basis the ranking did not use."""
    other = other_basis_per_dollar(
        table.basis,
        burst_per_dollar=row.burst_per_dollar,
        sustained_per_dollar=row.sustained_per_dollar,
    )
    return _text(reads(other, reading.per_dollar))


def _rows(lines) -> str:
    return mark_safe("".join(lines))


@register.simple_tag
def baseline_options(table) -> str:
    """The Baseline menu's `<option>` of each row (the one asked for selected)."""
    lines = []
    for row in table.results if table else ():
        key = _text(row.key)
        selected = " selected" if row.key == table.baseline else ""
        lines.append(f'<option value="{key}"{selected}>{_name(row)}</option>\n')
    return _rows(lines)


@register.simple_tag
def per_dollar_data(comparison, table) -> str:
    """The per-dollar chart's data: each bar's figure (a burstable type's other figure too)."""
    reading = comparison.reading
    burstable = table.has_burstable
    lines = []
    for row in comparison.bars:
        cells = (
            f"<tr><td>{_name(row)}</td><td>{_text(reads(row.per_dollar, reading.per_dollar))}</td>"
        )
        if burstable:
            other = _other_basis(row, table, reading) if row.burstable else ""
            cells += f"<td>{other}</td>"
        lines.append(cells + "</tr>")
    return _rows(lines)


def _runs(row) -> str:
    return "none: estimated" if row.estimated else _text(row.runs)


@register.simple_tag
def median_data(comparison) -> str:
    """The median chart's data: each bar's runs, median, min and max."""
    scale = comparison.reading.value
    return _rows(
        f"<tr><td>{_name(row)}</td><td>{_runs(row)}</td>"
        f"<td>{_text(reads(row.median, scale))}</td><td>{_text(reads(row.min, scale))}</td>"
        f"<td>{_text(reads(row.max, scale))}</td></tr>"
        for row in comparison.bars
    )


@register.simple_tag
def frontier_data(comparison) -> str:
    """The price chart's data: the types on the frontier, their price and median."""
    scale = comparison.reading.value
    return _rows(
        f'<tr data-frontier="{_text(row.key)}"><td>{_name(row)}</td>'
        f"<td>{_text(usd(row.usd_per_hour))}</td><td>{_text(reads(row.median, scale))}</td></tr>"
        for row in comparison.frontier
    )


@register.simple_tag
def cpu_data(comparison) -> str:
    """The spread chart's data: each bar's CPU models, their machines and median."""
    scale = comparison.reading.value
    breakdowns = comparison.cpu_breakdowns or {}
    return _rows(
        f"<tr><td>{_name(row)}</td><td>{_text(part.model)}</td><td>{_text(part.machines)}</td>"
        f"<td>{_text(reads(part.median, scale))}</td></tr>"
        for row in comparison.bars
        for part in breakdowns.get(row.key) or ()
    )


@register.simple_tag
def baseline_data(comparison) -> str:
    """The baseline chart's data: each bar's throughput, cost and per dollar against it."""
    return _rows(
        f"<tr><td>{_name(row)}</td><td>{_text(percent(row.relative_throughput))}</td>"
        f"<td>{_text(percent(row.relative_cost))}</td>"
        f"<td>{_text(percent(row.relative_per_dollar))}</td></tr>"
        for row in comparison.bars
    )


def _estimate_note(row) -> str:
    """An estimated row says so under its name (selectors/answer/fargate_estimates.py)."""
    if not row.estimated:
        return ""
    return f' <small class="estimate">{_text(fargate_estimates.describe(row.estimate))}</small>'


@register.simple_tag
def result_rows(comparison, table, rows=None) -> str:
    """The `<tr>` of each row of the results table (of `rows`, when only some are shown),
    with the columns the question has."""
    reading = comparison.reading
    scale = reading.value
    breakdowns = comparison.cpu_breakdowns or {}
    burstable = table.has_burstable
    converted = table.exchange_rate.currency != "USD"
    page_of = type_pages()
    lines = []
    for row in table.results if rows is None else rows:
        name = _text(row.instance_type)
        flagged = ' class="flagged"' if row.only_flagged else ""
        if row.estimated:
            flagged = ' class="estimated"'
        page = page_of(row.page_name)
        cells = [
            f'<tr data-instance-type="{name}" data-key="{_text(row.key)}" '
            f'data-usd-per-hour="{_text(row.usd_per_hour)}"{flagged}>'
            f'<th scope="row"><input type="checkbox" name="types" value="{_text(row.page_name)}" '
            f'form="compare-form" aria-label="compare {name}"> <a href="{page}">{name}</a>'
            + _estimate_note(row)
            + "</th>"
        ]
        if table.regions:
            allocation = _text(row.cpu_allocation or "not known")
            cells.append(f"<td>{_text(row.region)}</td><td>{allocation}</td>")
        cells.append(f"<td>{_text(row.variant or '')}</td>")
        runs = "none: estimated" if row.estimated else _text(row.runs)
        if row.flagged_runs:
            flag = (
                "all flagged"
                if row.only_flagged
                else f"+{_text(row.flagged_runs)} flagged, left out"
            )
            runs += f' <small class="flag">{flag}</small>'
        cells.append(f"<td>{runs}</td><td>{_text(reads(row.median, scale))}</td>")
        spread = (
            f"{_text(reads(row.min, scale))} – {_text(reads(row.max, scale))}"
            if row.min != row.max
            else ""
        )
        cells.append(f"<td>{spread}</td>")
        cells.append(f"<td>{_cpu_models(row, breakdowns.get(row.key), scale)}</td>")
        measured = ", ".join(_text(code or "not recorded") for code in row.measured_in)
        cells.append(
            f"<td>{measured}</td><td>{_text(usd(row.usd_per_hour))}</td>"
            f"<td>{_text(usd(monthly(row.usd_per_hour)))}</td>"
        )
        if converted:
            rate = f"{_text(row.exchange_rate)} {_text(row.currency)} per US dollar"
            cells.append(
                f'<td class="quoted" title="{rate} (ECB, {_text(row.exchange_rate_date)})">'
                f"{_text(floatformat(row.price_per_hour, 4))} {_text(row.currency)}</td>"
            )
        if reading.per_dollar:
            cells.append(
                f'<td class="per-dollar">{_text(reads(row.per_dollar, reading.per_dollar))}</td>'
            )
        if burstable:
            cells.append(f"<td>{_burst(row, table, reading)}</td>")
        if reading.cost_per:
            cells.append(f"<td>{_text(usd(cost_per(row.per_dollar, reading)))}</td>")
        if table.baseline:
            cells.append(
                f'<td class="relative">{_text(percent(row.relative_throughput))}</td>'
                f'<td class="relative">{_text(percent(row.relative_cost))}</td>'
                f'<td class="relative">{_text(percent(row.relative_per_dollar))}</td>'
            )
        cells.append(f'<td class="note">{_text(row.price_note or "")}</td></tr>\n')
        lines.append("".join(cells))
    return _rows(lines)


@register.simple_tag
def unpriced_items(comparison, table, rows=None) -> str:
    """The `<li>` of each type measured but without a price (of `rows`, when only some are
    shown)."""
    scale = comparison.reading.value
    page_of = type_pages()
    lines = []
    for row in table.unpriced if rows is None else rows:
        name = _text(row.instance_type)
        page = page_of(row.instance_type)
        variant = f" ({_text(row.variant)})" if row.variant else ""
        plural = "" if row.runs == 1 else "s"
        lines.append(
            f'<li data-instance-type="{name}"><a href="{page}">{name}</a>{variant}: '
            f"{_text(row.runs)} run{plural}, median {_text(reads(row.median, scale))}; "
            f"{_text(row.reason)}</li>"
        )
    return _rows(lines)


def _cpu_models(row, parts, scale) -> str:
    """`Graviton3 (12)` (machines), or with several models the processor lottery, each
    model's odds and median: `4 of 5 tasks ran on a: 2.78 G<br>1 of 5 tasks ran on b: ...`."""
    if not parts:
        return ""
    if len(parts) == 1:
        return f"{_text(parts[0].model)} ({_text(parts[0].machines)})"
    said = dict(cpu_models.odds(row.cpu_models, row.kind))
    return "<br>".join(
        _text(said.get(part.model, part.model))
        + (f": {_text(reads(part.median, scale))}" if part.median is not None else "")
        for part in parts
    )


def _burst(row, table, reading) -> str:
    """A burstable row's other figure, its baseline share and how long its credits last."""
    if not row.burstable:
        return ""
    lasts = (
        f"; a full credit balance lasts {_text(floatformat(row.burst_minutes, 0))} min at full load"
        if row.burst_minutes
        else ""
    )
    return (
        f"{_other_basis(row, table, reading)} "
        f"<small>(baseline {_width_percent(row.baseline_share)}% of a vCPU{lasts})</small>"
    )
