"""Content negotiation that lets `format` be a filter where an endpoint has one."""

from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation


def has_format_filter(view) -> bool:
    """Whether the view's FilterSet reads `format` (runs/?format=openssl) as a filter."""
    filterset = getattr(view, "filterset_class", None)
    return filterset is not None and "format" in filterset.base_filters


class FormatOrFilterNegotiation(DefaultContentNegotiation):
    """`?format=csv` picks the CSV renderer; `runs/?format=openssl` is the runs' filter.

    DRF reads `format` as a renderer's name and answers 404 when none has it. Where the
    endpoint filters by `format`, such a value is left to the filter and the renderer is chosen
    from the Accept header; elsewhere it is a 400 naming the formats there are.
    """

    format_is_a_filter = False

    def select_renderer(self, request, renderers, format_suffix=None):
        context = getattr(request, "parser_context", None) or {}
        self.format_is_a_filter = has_format_filter(context.get("view"))
        return super().select_renderer(request, renderers, format_suffix)

    def filter_renderers(self, renderers, format):  # noqa: A002 (DRF's signature)
        matching = [renderer for renderer in renderers if renderer.format == format]
        if matching or self.format_is_a_filter:
            return matching or renderers
        names = ", ".join(renderer.format for renderer in renderers)
        raise ValidationError({"format": [f"{format[:40]!r} is not a format; choose from {names}"]})
