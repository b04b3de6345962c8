"""The OpenAPI schema's AutoSchema: every operation documents the errors it can answer."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.db import DatabaseError
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from api.negotiation import has_format_filter
from benchmarks.models import Benchmark, InstanceType, Region
from benchmarks.questions.base import MAX_PARAMS


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
        fields = self._validating_fields()
        names = self._names()
        for parameter in parameters:
            if parameter["in"] != "query":
                continue
            name = parameter["name"]
            if not parameter.get("required") and name in blank_is_absent:
                parameter["allowEmptyValue"] = True
            if name in fields:
                parameter["schema"] = {**parameter["schema"], **field_schema(fields[name])}
            if name in names:
                parameter["schema"] = self._names_component(names[name]) or parameter["schema"]
        return parameters

    def _validating_fields(self) -> dict[str, forms.Field]:
        """The form field that validates each query parameter: the view's form's, or its
        FilterSet's filters'."""
        fields = {}
        filterset = getattr(self.view, "filterset_class", None)
        if filterset is not None:
            fields.update({name: item.field for name, item in filterset.base_filters.items()})
        form = getattr(self.view, "query_form", None)
        if form is not None:
            fields.update(form.base_fields)
        return fields

    def _names_component(self, listed: Callable[[], list[str]]) -> dict | None:
        """A reference to the list of names, one component however many parameters name
        them (`region_codes` -> RegionCodes); None while the list is empty."""
        name = "".join(word.title() for word in listed.__name__.split("_"))
        component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name)
        if component not in self.registry:
            values = _listed_or_none(listed)
            if not values:
                return None
            component.schema = {"type": "string", "enum": values, "description": listed.__doc__}
            self.registry.register_on_missing(component)
        return component.ref

    def _names(self) -> dict[str, Callable[[], list[str]]]:
        """A question's parameters that name what the database holds, each with its list (a
        view's `schema_names` narrows or adds to them)."""
        if getattr(self.view, "query_form", None) is None:
            return {}
        form_fields = self.view.query_form.base_fields
        names = {name: listed for name, listed in NAMES.items() if name in form_fields}
        return {**names, **getattr(self.view, "schema_names", {})}

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
        for code, response in list(responses.items()):
            if int(code) >= 400 and not response.get("content"):
                # An error declared by its description alone still sends DRF's JSON body.
                responses[code] = self._get_response_for_code(_error(response["description"]), code)
        for code, response in self._error_responses().items():
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(response, str(code))
        for code, response in responses.items():
            content = response.get("content") or {}
            if code == "503":
                # The database-away answer is the middleware's, JSON only.
                response["content"] = {"application/json": content["application/json"]}
            elif "text/csv" in content:
                # `format=csv` (or Accept: text/csv): the answer's rows, or its errors, as CSV.
                content["text/csv"] = {"schema": {"type": "string"}}
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


def _listed_or_none(listed: Callable[[], Any]) -> list | None:
    """The names the database holds, or None where it cannot be read (the schema generated
    by `manage.py check --deploy` before any migration): the parameter is then a plain text."""
    try:
        return list(listed())
    except DatabaseError:
        return None


def region_codes() -> list[str]:
    """Every region's code (`us-east-1`, `fsn1`): what `region=` may name."""
    return sorted(set(Region.objects.values_list("code", flat=True)))


def benchmark_keys() -> list[str]:
    """Every benchmark's key: what `benchmark=` may name."""
    return list(Benchmark.objects.order_by("key").values_list("key", flat=True))


def instance_type_names() -> list[str]:
    """Every instance type's name (a bare name is AWS's type, else the one vendor's that has
    it): what `instance_type=` may name."""
    return list(InstanceType.objects.order_by("name").values_list("name", flat=True).distinct())


# The questions' parameters that name what the database holds: enumerated as the schema is
# served, so that a client offers, and a fuzzer sends, only names there are. The selectors
# refuse any other (a 400 naming the closest).
NAMES = {
    "region": region_codes,
    "measured_in": region_codes,
    "benchmark": benchmark_keys,
    "instance_type": instance_type_names,
}
# Django's text fields refuse NUL and take surrounding spaces off: a required one needs a
# character that is not a space.
NO_NUL = r"^[^\u0000]*$"
NOT_BLANK = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"
DAY = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


def field_schema(field: forms.Field) -> dict:
    """What a form field accepts, in OpenAPI's words: the bounds of a number, the length and
    characters of a text, a day's shape, the values of a model choice."""
    schema: dict = {}
    if isinstance(field, forms.ModelChoiceField):
        to_field = field.to_field_name or "pk"
        values = _listed_or_none(
            lambda: field.queryset.order_by(to_field).values_list(to_field, flat=True).distinct()
        )
        schema["enum"] = [str(value) for value in values or ()] or None
    elif isinstance(field, forms.DecimalField):
        schema["type"] = "number"
        if field.decimal_places is not None:
            schema["multipleOf"] = float(10**-field.decimal_places)
            if field.max_digits is not None:
                whole = field.max_digits - field.decimal_places
                schema["maximum"] = float(10**whole - 10**-field.decimal_places)
    elif isinstance(field, forms.DateField):
        schema["pattern"] = DAY
    elif isinstance(field, forms.CharField):
        if field.max_length is not None:
            schema["maxLength"] = field.max_length
        schema["pattern"] = getattr(field, "pattern", NOT_BLANK if field.required else NO_NUL)
        if field.required:
            schema["minLength"] = 1
    if isinstance(field, forms.IntegerField):  # DecimalField is one too
        for bound, key in ((field.min_value, "minimum"), (field.max_value, "maximum")):
            if bound is not None:
                schema[key] = bound if isinstance(bound, int) else float(bound)
    return {key: value for key, value in schema.items() if value is not None}


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
FIELD_TYPES = (
    (forms.DateField, OpenApiTypes.DATE),
    (forms.DecimalField, OpenApiTypes.NUMBER),
    (forms.IntegerField, OpenApiTypes.INT),
)


def benchmark_parameters(example: str) -> OpenApiParameter:
    """Every query parameter the form does not name is one of the benchmark's own: in
    OpenAPI, a free-form object sent as `name=value` pairs."""
    return OpenApiParameter(
        "params",
        {
            "type": "object",
            "maxProperties": MAX_PARAMS,
            "additionalProperties": {"type": "string", "pattern": NO_NUL},
        },
        style="form",
        explode=True,
        description=f"Any other query parameter is one of the benchmark's own, {example}",
    )
