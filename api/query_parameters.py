"""The query parameters each API operation takes, and a 400 naming any other.

One place for every view of the API (`KnownParameters`): an operation takes its form's
fields (`query_form`), on a list its FilterSet's filters and the paginator's `limit`,
`offset` and `page_size`, `format` everywhere, and what it declares besides
(`extra_parameters`). The OpenAPI schema documents the same names (api/schema.py reads the
same form and FilterSet; tests/api/test_unknown_parameters.py checks that the two agree).
An operation that takes a benchmark's own parameters (`block_size=8192`) leaves the other
names to its selector, which refuses those the benchmark was not measured with.

Pages are not strict: a link with `utm_source=` still opens the page, which drops what does
not apply with a note (docs/api.md, "Query parameters").
"""

from __future__ import annotations

from rest_framework import mixins
from rest_framework.exceptions import ValidationError

from benchmarks.questions.base import RESERVED

# How many of the names an operation takes a refusal lists before "and N more".
LISTED = 40


class KnownParameters:
    """A view mixin: a query parameter the operation does not know is a 400 naming it and
    listing those it takes, after authentication, permissions and throttling."""

    # The form that validates the query (api/question_views.py), if any.
    query_form = None
    # Names the operation takes besides its form's, its FilterSet's, the paginator's and
    # `format` (an `extend_schema` parameter of its own: `profile`).
    extra_parameters: frozenset[str] = frozenset()
    # Whether the other names are a benchmark's own parameters, which the selector checks
    # against the benchmark (price-performance/, database-price-performance/, ...).
    takes_benchmark_parameters: bool = False

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        method = request.method.lower()
        if method not in self.http_method_names or not hasattr(self, method):
            return  # a method the operation does not have: DRF's 405, whatever the query
        unknown = self.unknown_parameters(request)
        if unknown:
            raise ValidationError({name[:100]: [self.refusal(request)] for name in unknown})

    def unknown_parameters(self, request) -> list[str]:
        """The query's parameters this operation does not take, in the query's order."""
        known = self.known_parameters(request)
        unknown = [name for name in request.query_params if name not in known]
        if self.benchmark_parameters_taken(request):
            # The benchmark's own, checked by the selector; but never the API's machinery
            # (`limit`, `page_size`), which the question would drop without a word.
            return [name for name in unknown if name in RESERVED]
        return unknown

    def benchmark_parameters_taken(self, request) -> bool:
        """Whether the names the operation does not know are a benchmark's own."""
        return self.takes_benchmark_parameters

    def known_parameters(self, request) -> set[str]:
        """Every query parameter this operation takes."""
        names = {"format", *self.extra_parameters}
        if self.query_form is not None:
            names |= set(self.query_form.base_fields)
        if self.lists(request):
            filterset = getattr(self, "filterset_class", None)
            if filterset is not None:
                names |= set(filterset.base_filters)
            paginator = getattr(self, "paginator", None)
            if paginator is not None:
                names |= {
                    getattr(paginator, attribute)
                    for attribute in ("limit_query_param", "offset_query_param",
                                      "page_size_query_param")
                    if getattr(paginator, attribute, None)
                }  # fmt: skip
        return names

    def lists(self, request) -> bool:
        """Whether this operation reads a list (filtered and paginated): a viewset's GET
        without an object's id, or a list view's GET."""
        if request.method not in ("GET", "HEAD"):
            return False
        detail = getattr(self, "detail", None)
        if detail is not None:
            return not detail
        return isinstance(self, mixins.ListModelMixin)

    def refusal(self, request) -> str:
        """What a refused name is told: the names the operation takes."""
        known = sorted(self.known_parameters(request))
        listed = ", ".join(known[:LISTED])
        more = f" and {len(known) - LISTED} more" if len(known) > LISTED else ""
        own = " and the benchmark's own" if self.benchmark_parameters_taken(request) else ""
        return f"unknown parameter; this operation takes {listed}{more}{own}"
