"""The runs list's question: which runs to show (`/runs/`)."""

from __future__ import annotations

from django import forms

from benchmarks.models import Run
from benchmarks.questions.base import CHOICE_ERRORS, QuestionForm


class RunListForm(QuestionForm):
    """`/runs/?instance_type=T&benchmark=KEY&status=S&page=N`."""

    instance_type = forms.CharField(required=False, max_length=64)
    benchmark = forms.CharField(required=False, max_length=120)
    status = forms.ChoiceField(
        choices=[("", "any"), *Run.Status.choices], required=False, error_messages=CHOICE_ERRORS
    )
    page = forms.IntegerField(
        required=False, min_value=1, error_messages={"invalid": "A valid integer is required."}
    )

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.pages.catalogue.run_list`."""
        data = self.cleaned_data
        return {
            "instance_type": data.get("instance_type", "").strip(),
            "benchmark": data.get("benchmark", "").strip(),
            "status": data.get("status") or "",
            "page": data.get("page") or 1,
        }
