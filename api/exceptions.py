"""One place where domain errors become HTTP answers."""

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from benchmarks.errors import DomainError


def exception_handler(exc, context):
    """DRF's handler, plus DomainError -> its 4xx status with the message."""
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status_code)
    return drf_exception_handler(exc, context)
