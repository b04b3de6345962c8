"""The compare page's benchmark lines, written in Python: three types share some 90
benchmarks, whose lines took the template language about 40 ms of a 100 ms page on the full
demo (docs/performance.md). The same text as the template wrote (tests/dashboard/
test_compare_page.py), each value written as `{{ value }}` writes it (`comparison_rows._text`),
through the same filters."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

from dashboard.templatetags.comparison_rows import _text
from dashboard.templatetags.pricebench import percent, reads

register = template.Library()


@register.simple_tag
def compare_groups(comparison) -> str:
    """Each benchmark's `<tbody>` (its main line: the types' figures, against the baseline
    and per dollar), or the row saying no benchmark is shared."""
    groups = comparison.benchmarks
    if not groups:
        return mark_safe(
            f'\n  <tbody><tr><td colspan="{len(comparison.columns) + 1}" class="notice" '
            'id="nothing-shared">No benchmark has results for two of these types yet.</td></tr>'
            "</tbody>\n  "
        )
    return mark_safe("".join(_group(group) for group in groups))


def _group(group) -> str:
    line = group.main
    variant = f' data-variant="{_text(group.variant)}"' if group.variant else ""
    data_line = _text(group.benchmark) + (f":{_text(group.variant)}" if group.variant else "")
    params = ""
    if line.params:
        params = ", ".join(f"{_text(name)}={_text(value)}" for name, value in line.params.items())
        params = f"<br><small>{params}</small>"
    others = ""
    if group.others:
        count = len(group.others)
        others = (
            f'<br><small><a href="{_text(group.chart_url)}" class="other-params">{count} other '
            f"parameter set{'s' if count != 1 else ''}</a></small>"
        )
    page = _text(reverse("benchmark", args=[line.benchmark]))
    named = f" ({_text(line.variant)})" if line.variant else ""
    cells = "".join(
        f"\n      {_cell(line, index, cell)}\n      " for index, cell in enumerate(line.cells)
    )
    return (
        f'\n  <tbody class="benchmark-group" data-benchmark="{_text(group.benchmark)}"{variant}>'
        f'\n    \n    <tr data-line="{data_line}">'
        f'\n      <th scope="row"><a href="{page}">{_text(line.benchmark)}</a>{named}'
        f"\n        {params}"
        f"\n        <br><small>{_text(line.reading.direction)}</small>"
        f"\n        {others}"
        f"\n      </th>\n      {cells}\n    </tr>\n    \n  </tbody>\n  "
    )


def _cell(line, index: int, cell) -> str:
    if not cell:
        return '<td class="notice">not measured</td>'
    estimated = " estimated" if cell.estimated else ""
    if line.best_index == index:
        marked = f' class="best{estimated}" title="{_text(line.best_by)} on this line"'
    elif index in line.within_noise:
        marked = (
            f' class="within-noise{estimated}" title="within this benchmark\'s noise of the best '
            f'({_text(line.best_by)}): no type leads beyond it"'
        )
    elif cell.estimated:
        marked = ' class="estimated"'
    else:
        marked = ""
    if cell.estimated:
        marked += ' data-estimated="true"'
    note = (
        f' <small class="estimate" title="{_text(cell.estimate_note)}">estimated</small>'
        if cell.estimated
        else ""
    )
    relative = ""
    if cell.relative_throughput is not None:
        relative = (
            f'<br><span class="relative" data-relative-throughput='
            f'"{_text(cell.relative_throughput)}">{_text(percent(cell.relative_throughput))} '
            "of the baseline</span>"
        )
    per_dollar = ""
    if cell.per_dollar is not None:
        per_dollar = (
            f'<br><span class="per-dollar">{_text(reads(cell.per_dollar, line.reading.per_dollar))}'
            "</span>"
        )
        if cell.relative_per_dollar is not None:
            per_dollar += (
                f' <span class="relative" data-relative-per-dollar='
                f'"{_text(cell.relative_per_dollar)}">({_text(percent(cell.relative_per_dollar))}'
                " per dollar)</span>"
            )
    figure = _text(reads(cell.median, line.reading.value))
    return (
        f'<td{marked}>\n        <span class="figure">{figure}</span>{note}'
        f"\n        {relative}\n        {per_dollar}\n      </td>"
    )
