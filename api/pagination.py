"""Pagination of the list endpoints: `limit`/`offset`, or `page_size`, within bounds."""

from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    """limit (or page_size) up to 1,000; an offset past any table answers an empty page."""

    default_limit = 100
    max_limit = 1000
    page_size_query_param = "page_size"

    def get_limit(self, request):
        if self.limit_query_param not in request.query_params:
            size = request.query_params.get(self.page_size_query_param)
            if size is not None:
                request = _WithLimit(request, size, self.limit_query_param)
        return super().get_limit(request)

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_OFFSET)

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
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
            if parameter["name"] == self.offset_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 0}
        return parameters


class _WithLimit:
    """A request whose query parameters read `page_size` as `limit`."""

    def __init__(self, request, size: str, name: str):
        self.query_params = {**request.query_params.dict(), name: size}
