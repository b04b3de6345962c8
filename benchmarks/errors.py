"""The one exception type for domain errors; the API maps it to a 4xx answer."""

from __future__ import annotations


class DomainError(Exception):
    """Input the domain refuses: says what is wrong, and which field when there is one."""

    status_code = 400

    def __init__(self, message: str, *, field: str | None = None, status_code: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        if status_code is not None:
            self.status_code = status_code

    def as_dict(self) -> dict:
        if self.field:
            return {self.field: [self.message]}
        return {"detail": self.message}


class AmbiguousParameter(DomainError):
    """Results for one row were measured with several values of a parameter left open."""

    def __init__(self, message: str, *, name: str):
        super().__init__(message, field=name)
        self.name = name
