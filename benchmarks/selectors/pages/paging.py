"""Pages of a list that skip their offset over ids alone (the API's lists, `/runs/`).

A plain `queryset[start:stop]` makes PostgreSQL read every skipped row whole, with its joins
and annotations (a run's result count is a subquery per skipped run): page 100 of the runs
at 10M results took 12.8 s, and `runs/` at offset 48,000 107 ms of SQL. The page's ids are
read first, in the list's order (an index of that order holds them), then only those rows
(docs/performance.md, "A question's rows from an index").
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import QuerySet


def rows_between(queryset: QuerySet, start: int, stop: int) -> list:
    """`list(queryset[start:stop])`, in the same order: the ids, then their rows."""
    ids = list(queryset.values_list("pk", flat=True)[start:stop])
    rows = queryset.in_bulk(ids)
    # A row deleted between the two queries is left out, as if read a moment later.
    return [rows[pk] for pk in ids if pk in rows]


class IdsFirstPaginator(Paginator):
    """Django's Paginator, each page read by `rows_between`."""

    def page(self, number):
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        return self._get_page(rows_between(self.object_list, bottom, top), number, self)
