"""The finder table's rows, written in Python: 1,500 rows of a dozen cells each take the
template language over a second, a plain loop a few tens of milliseconds."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from dashboard.templatetags.pricebench import type_pages, usd

register = template.Library()


def _number(value: float | None, digits: int) -> str:
    """4.0 -> '4', 0.5 -> '0.5', None -> ''."""
    if value is None:
        return ""
    return f"{value:.{digits}f}".rstrip("0").rstrip(".")


def _rank(result) -> str:
    """' rank 3 (1-8)': the row's rank per dollar in the whole answer, with the ranks it could
    take within the noise (selectors/answer/standing.py); the range only where it is one."""
    if result.rank is None:
        return ""
    best, worst = result.rank_range or (result.rank, result.rank)
    within = f" ({best}–{worst})" if best != worst else ""
    return (
        f' <small class="rank" title="rank per dollar among every type measured; in brackets '
        f"the ranks it could take within the benchmark's noise\">#{result.rank}{within}</small>"
    )


@register.simple_tag
def finder_rows(table, compare: bool = True) -> str:
    """The `<tr>` of each row of a `FinderTable`, one `data-column` cell per column."""
    page_of = type_pages()
    reading = table.reading
    lines = []
    for row in table.rows:
        name = escape(row.name)
        page = page_of(row.name)
        tick = (
            f'<input type="checkbox" name="types" value="{name}" form="compare-form" '
            f'aria-label="compare {name}"> '
            if compare
            else ""
        )
        if row.usd_per_hour is None:
            prices = (
                f'<td data-column="usd_per_hour" title="{escape(row.price_note or "")}">'
                '<span class="notice">no price</span></td>'
                '<td data-column="usd_per_month"></td><td data-column="usd_per_year"></td>'
            )
        else:
            note = f' title="{escape(row.price_note)}"' if row.price_note else ""
            prices = (
                f'<td data-column="usd_per_hour"{note}>{usd(row.usd_per_hour)}</td>'
                f'<td data-column="usd_per_month">{usd(row.usd_per_month)}</td>'
                f'<td data-column="usd_per_year">{usd(row.usd_per_year)}</td>'
            )
        figures = ""
        if table.profile is not None:
            score = per_dollar = ""
            if row.result is not None:
                score = _number(row.median, 3)
                if row.per_dollar is not None:
                    per_dollar = _number(row.per_dollar, 2) + _rank(row.result)
            figures = (
                f'<td data-column="median">{score}</td>'
                f'<td data-column="per_dollar">{per_dollar}</td>'
            )
        elif table.benchmark is not None:
            median = per_dollar = ""
            if row.result is not None:
                median = escape(reading.value.format(row.median))
                if row.variant:
                    median += f" <small>({escape(row.variant)})</small>"
                if row.per_dollar is not None and reading.per_dollar is not None:
                    per_dollar = escape(reading.per_dollar.format(row.per_dollar))
                    per_dollar += _rank(row.result)
            figures = (
                f'<td data-column="median">{median}</td>'
                f'<td data-column="per_dollar">{per_dollar}</td>'
            )
        gpus = f'<br><small class="gpus">GPUs: {escape(row.gpus)}</small>' if row.gpus else ""
        lines.append(
            f'<tr data-instance-type="{name}">'
            f'<th scope="row" data-column="name">{tick}<a href="{page}">{name}</a></th>'
            f'<td data-column="family">{escape(row.family)}</td>'
            f'<td data-column="vcpus">{_number(row.vcpus, 2)}</td>'
            f'<td data-column="memory_gib">{_number(row.memory_gib, 3)}</td>'
            f'<td data-column="architecture">{escape(row.architecture)}</td>'
            f'<td data-column="cpu_model">{escape(row.cpu_model)}{gpus}</td>'
            f'<td data-column="burstable">{"yes" if row.burstable else "no"}</td>'
            f'<td data-column="network_gbps">{_number(row.network_gbps, 3)}</td>'
            f"{prices}{figures}</tr>"
        )
    return mark_safe("\n".join(lines))
