"""The one shape of an API read that answers a question: validate the query with the
subject's form, ask its selector, answer with its serializer (STYLE.md, habits 1 and 12)."""

from collections.abc import Callable
from typing import Any

from django import forms
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from api.query_parameters import KnownParameters


class QuestionView(KnownParameters, APIView):
    """GET: `query_form` validates the query parameters (a 400 names each one at fault, and
    each one the operation does not take: api/query_parameters.py),
    `selector` is called with the form's `selector_arguments()`, and `serializer_class`
    writes the answer. The OpenAPI schema reads the same three: the form's fields are the
    parameters (api/schema.py), the serializer the answer."""

    query_form: type[forms.Form]
    serializer_class: type[serializers.Serializer]
    # A selector of benchmarks.selectors, as `staticmethod(module.function)`.
    selector: Callable[..., Any]

    def get(self, request):
        form = self.query_form(request.query_params)
        if not form.is_valid():
            raise ValidationError(form.error_dict())
        answer = self.selector(**form.selector_arguments())
        return Response(self.answer_data(request, answer))

    def answer_data(self, request, answer) -> Any:
        """What the response carries: the serializer's data."""
        return self.serializer_class(answer).data
