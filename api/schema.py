"""The OpenAPI schema's AutoSchema: every operation documents the errors it can answer."""

from django import forms
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from api.negotiation import has_format_filter


class ErrorSerializer(serializers.Serializer):
    """DRF's error answer: one message."""

    detail = serializers.CharField()


# 400 and 413 name the fields at fault ({"file": ["..."]}) or say `detail`.
FIELD_ERRORS = OpenApiTypes.OBJECT

EVERY_OPERATION = {
    401: "The Authorization header's token is wrong or revoked",
    406: "No renderer for the Accept header",
    429: "Over the request rate; Retry-After says when to send again",
    503: "The database is unavailable; Retry-After says when to send again",
}
WRITES = {
    403: "Not allowed: neither the uploader nor staff, or a session without its CSRF token",
}
BODIES = {
    413: "The upload is over the size or row limit",
    415: "The request body's media type is not one the operation reads",
}


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's AutoSchema, plus the 4xx and 5xx answers the operation can give
    and, for a view with a `query_form`, the form's fields as its query parameters.

    Explicit `extend_schema(responses=...)` entries are kept as they are.
    """

    def get_override_parameters(self):
        form = getattr(self.view, "query_form", None)
        own = form_parameters(form) if form is not None else []
        return [*own, *super().get_override_parameters()]

    def _get_format_parameters(self):
        # Where `format` is a filter (runs/), the filter's own description stands.
        return [] if has_format_filter(self.view) else super()._get_format_parameters()

    def _get_parameters(self):
        parameters = super()._get_parameters()
        blank_is_absent = self._blank_is_absent()
        for parameter in parameters:
            if (
                parameter["in"] == "query"
                and not parameter.get("required")
                and parameter["name"] in blank_is_absent
            ):
                parameter["allowEmptyValue"] = True
        return parameters

    def _blank_is_absent(self) -> set[str]:
        """Parameters read by a FilterSet, a form, the paginator or the renderer choice,
        where `at=` is the same as no `at` (as an HTML form sends it)."""
        names = {"format", "limit", "offset", "page_size"}
        filterset = getattr(self.view, "filterset_class", None)
        if filterset is not None:
            names |= set(filterset.base_filters)
        form = getattr(self.view, "query_form", None)
        if form is not None:
            names |= set(form.base_fields)
        return names

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        for code, response in self._error_responses().items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(response, str(code))
        return responses

    def _error_responses(self) -> dict[int, OpenApiResponse]:
        errors = {code: _error(text) for code, text in EVERY_OPERATION.items()}
        # Every operation reads at least `format`; each parameter and body is validated.
        errors[400] = OpenApiResponse(
            FIELD_ERRORS, description="Invalid parameters: each names what is wrong"
        )
        if "{" in self.path:
            errors[404] = _error("No such object")
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            errors.update({code: _error(text) for code, text in WRITES.items()})
        if self.method in ("POST", "PUT", "PATCH"):
            errors[413] = OpenApiResponse(FIELD_ERRORS, description=BODIES[413])
            errors[415] = _error(BODIES[415])
        return errors


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


def form_parameters(form_class: type[forms.Form]) -> list[OpenApiParameter]:
    """A form's fields as OpenAPI query parameters: one description of the query."""
    parameters = []
    for name, field in form_class.base_fields.items():
        choices = getattr(field, "choices", None)
        parameters.append(
            OpenApiParameter(
                name,
                next(
                    (kind for form_field, kind in FIELD_TYPES if isinstance(field, form_field)),
                    OpenApiTypes.STR,
                ),
                required=field.required,
                description=str(field.help_text),
                enum=[value for value, _ in choices if value] if choices else None,
                default=field.initial,
            )
        )
    return parameters


# A form field's type in OpenAPI; any other field is a string.
FIELD_TYPES = ((forms.DateField, OpenApiTypes.DATE), (forms.IntegerField, OpenApiTypes.INT))


def benchmark_parameters(example: str) -> OpenApiParameter:
    """Every query parameter the form does not name is one of the benchmark's own: in
    OpenAPI, a free-form object sent as `name=value` pairs."""
    return OpenApiParameter(
        "params",
        OpenApiTypes.OBJECT,
        style="form",
        explode=True,
        description=f"Any other query parameter is one of the benchmark's own, {example}",
    )
