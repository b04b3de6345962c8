"""Pagination of the list endpoints: `limit`/`offset`, or `page_size`, within bounds."""

from django.db.models import QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

from benchmarks.selectors.pages.paging import rows_between

MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    """limit (or page_size) up to 1,000; an offset past any table answers an empty page.

    A value that is not a whole number in range (`limit=0`, `offset=-1`, `limit=ten`) is a
    400 naming the parameter; a larger one than the table or the cap is read as the cap.
    """

    default_limit = 100
    max_limit = 1000
    page_size_query_param = "page_size"

    def get_limit(self, request):
        limit = _whole_number(request, self.limit_query_param, minimum=1)
        size = _whole_number(request, self.page_size_query_param, minimum=1)
        chosen = limit if limit is not None else size
        return self.default_limit if chosen is None else min(chosen, self.max_limit)

    def paginate_queryset(self, queryset, request, view=None):
        """DRF's page, its offset skipped over the list's ids alone (`rows_between`)."""
        if not isinstance(queryset, QuerySet):
            return super().paginate_queryset(queryset, request, view)
        self.request = request
        self.limit = self.get_limit(request)
        self.count = self.get_count(queryset)
        self.offset = self.get_offset(request)
        if self.count > self.limit and self.template is not None:
            self.display_page_controls = True
        if self.count == 0 or self.offset >= self.count:
            return []
        return rows_between(queryset, self.offset, self.offset + self.limit)

    def get_offset(self, request):
        offset = _whole_number(request, self.offset_query_param, minimum=0)
        return 0 if offset is None else min(offset, MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        parameters.append(
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Same as limit (at most {self.max_limit}).",
                "schema": {"type": "integer", "minimum": 1},
            }
        )
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["description"] = (
                    f"Number of results to return per page: at most {self.max_limit} (a larger "
                    f"limit answers {self.max_limit})."
                )
                parameter["schema"] = {"type": "integer", "minimum": 1}
            if parameter["name"] == self.offset_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 0}
        return parameters


def _whole_number(request, name: str, *, minimum: int) -> int | None:
    """The query parameter `name` as a whole number from `minimum`, None when absent or
    empty (as the filters read `at=`)."""
    text = request.query_params.get(name)
    if not text:
        return None
    # ASCII digits only: `int()` also reads other scripts' digits (`٣`) and underscores.
    value = int(text) if text.isascii() and text.strip().isdigit() else None
    if value is None or value < minimum:
        raise ValidationError({name: [f"must be a whole number from {minimum}; got {text[:40]!r}"]})
    return value
