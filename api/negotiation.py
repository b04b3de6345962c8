"""Content negotiation that lets `format` be a filter when it names no renderer."""

from rest_framework.negotiation import DefaultContentNegotiation


class FormatOrFilterNegotiation(DefaultContentNegotiation):
    """`?format=csv` picks the CSV renderer; `runs/?format=openssl` is the runs' filter.

    DRF reads `format` as a renderer's name and answers 404 when none has it; here such a value
    is left to the endpoint's filters and the renderer is chosen from the Accept header.
    """

    def filter_renderers(self, renderers, format):  # noqa: A002 (DRF's signature)
        matching = [renderer for renderer in renderers if renderer.format == format]
        return matching or renderers
