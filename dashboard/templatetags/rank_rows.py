"""The instance-type page's ranks table, written in Python: a Spare Cores type has some 90
benchmarks and 430 parameter sets, which took the template language about 100 ms. Escaped by
the standard library's `html.escape`, the very function behind Django's `escape` (the same
text) without its lazy-string wrapper, which cost a tenth of the page over a thousand ranks."""

from __future__ import annotations

from html import escape

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def rank_rows(ranks, every_rank_url: str) -> str:
    """The `<tr>` of each benchmark's ranks (`InstanceTypePage.ranks`): its main parameter set
    in a row, the others folded in a row below it (ranked there when the page counted every
    rank, else with their peers' number and `every_rank_url`, the page counting them all)."""
    lines = []
    for group in ranks:
        rank = group.main
        key = escape(group.benchmark)
        page = escape(reverse("benchmark", args=[group.benchmark]))
        lines.append(
            f'<tr data-benchmark="{key}">'
            f'<th scope="row"><a href="{page}">{key}</a></th>'
            f"<td>{escape(rank.setting)}</td><td>{escape(rank.shown_median)}</td>"
            f"<td>{rank.runs}{_odds(rank)}</td>"
            f'<td class="rank">{_standing(rank)} '
            f"<small>({escape(rank.reading.direction)})</small></td>"
            f'<td><a href="{escape(rank.comparison_url)}">comparison</a></td></tr>'
        )
        others = group.others
        if others:
            items = "".join(
                f"<li>{escape(other.setting)}: {escape(other.shown_median)}, "
                f'{_standing(other)} (<a href="{escape(other.comparison_url)}">comparison</a>)'
                "</li>"
                for other in others
            )
            if any(other.rank is None for other in others):
                items += f'<li><a href="{escape(every_rank_url)}">Rank every parameter set</a></li>'
            plural = "s" if len(others) != 1 else ""
            lines.append(
                f'<tr class="more"><td colspan="6"><details><summary>{len(others)} other '
                f"parameter set{plural}</summary><ul>{items}</ul></details></td></tr>"
            )
    return mark_safe("\n".join(lines))


def _odds(rank) -> str:
    """The processor lottery under the runs, where the type met several processors."""
    if not rank.odds:
        return ""
    return f'<br><small class="odds">{escape("; ".join(rank.odds))}</small>'


def _standing(rank) -> str:
    """`3 of 40`, or `40 types measured` for a rank not counted."""
    if rank.rank is None:
        plural = "s" if rank.out_of != 1 else ""
        return f"{rank.out_of} type{plural} measured"
    return f"{rank.rank} of {rank.out_of}"
