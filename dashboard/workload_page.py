"""`/workload/`: a buyer's own figures, predicted on every type (the page posts them to
`POST /api/v1/workloads/predict/` and draws the answer; its GET parameters reproduce it)."""

from django import forms
from django.shortcuts import render

from benchmarks.models import PurchaseOption


class WorkloadPageForm(forms.Form):
    """What the page's link carries: the figures (one `type value` a line) and the pricing."""

    figures = forms.CharField(required=False, max_length=20_000, widget=forms.Textarea)
    unit = forms.CharField(required=False, max_length=40)
    higher_is_better = forms.ChoiceField(
        required=False, choices=[("true", "higher is better"), ("false", "lower is better")]
    )
    region = forms.CharField(required=False, max_length=50)
    purchase_option = forms.ChoiceField(required=False, choices=PurchaseOption.choices)
    exclude_benchmarks = forms.CharField(required=False, max_length=2_000)


def workload_page(request):
    """The form, filled from the link's parameters; the answer is drawn by workload.js."""
    form = WorkloadPageForm(request.GET or None)
    values = form.cleaned_data if form.is_bound and form.is_valid() else {}
    return render(
        request,
        "dashboard/workload.html",
        {
            "form": form,
            "values": {
                "figures": values.get("figures", ""),
                "unit": values.get("unit", ""),
                "higher_is_better": values.get("higher_is_better") or "true",
                "region": values.get("region") or "us-east-1",
                "purchase_option": values.get("purchase_option") or PurchaseOption.ON_DEMAND,
                "exclude_benchmarks": values.get("exclude_benchmarks", ""),
            },
            "purchase_options": PurchaseOption.choices,
        },
    )
