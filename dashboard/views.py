"""The chart pages: validate the query, call a selector, render."""

from django.shortcuts import render

from benchmarks import selectors
from benchmarks.errors import DomainError
from benchmarks.models import PurchaseOption, Region
from dashboard.forms import ComparisonForm


def _chart_data(comparison: selectors.Comparison) -> dict:
    table = comparison.table
    return {
        "benchmark": table.benchmark.key,
        "unit": table.benchmark.unit,
        "higher_is_better": table.benchmark.higher_is_better,
        "rows": [
            {
                "label": row.instance_type + (f" ({row.variant})" if row.variant else ""),
                "family": row.family,
                "per_dollar": row.per_dollar,
                "values": row.values,
                "median": row.median,
                "cpu_models": row.cpu_models,
                "usd_per_hour": row.usd_per_hour,
            }
            for row in table.results
        ],
    }


def comparison(request):
    """`/`: throughput per dollar for one benchmark, Fargate, t2, c7g, c7a and c7i by default."""
    form = ComparisonForm(request.GET)
    context = {"form": form, "regions": Region.objects.filter(prices__isnull=False).distinct()}
    status = 200
    if form.is_valid():
        try:
            result = selectors.comparison(
                region_code=form.cleaned_data["region"] or "us-east-1",
                benchmark_key=form.cleaned_data["benchmark"] or None,
                purchase_option=form.cleaned_data["purchase_option"] or PurchaseOption.ON_DEMAND,
                at=form.cleaned_data["at"],
                params=form.cleaned_params(),
                families=form.cleaned_families(),
            )
        except DomainError as error:
            context["error"] = error.message
            status = 400
        else:
            context["comparison"] = result
            if result is not None:
                context["chart_data"] = _chart_data(result)
    else:
        context["error"] = "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in form.errors.items()
        )
        status = 400
    context["purchase_options"] = PurchaseOption.choices
    return render(request, "dashboard/comparison.html", context, status=status)
