"""The chart pages: validate the query, call a selector, render."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render

from benchmarks import parsers, selectors
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, PurchaseOption, Region, Run
from benchmarks.services import runs as run_services
from dashboard.forms import ComparisonForm, UploadForm


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
                "sustained_per_dollar": row.sustained_per_dollar,
                "samples": row.samples,
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
    context = {"form": form, "regions": selectors.priced_regions()}
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
                baseline=form.cleaned_data["baseline"] or None,
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


@login_required
def upload(request):
    """`/upload/`: send a file; the run is parsed by a Celery worker."""
    form = UploadForm(request.POST or None, request.FILES or None, formats=list(parsers.FORMATS))
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            run, _ = run_services.upload_run(
                file=form.cleaned_data["file"],
                instance_type_name=form.cleaned_data["instance_type"] or None,
                region_code=form.cleaned_data["region"] or None,
                variant=form.cleaned_data["variant"],
                measured_at=form.cleaned_data["measured_at"],
                format=form.cleaned_data["format"],
                uploaded_by=request.user,
            )
        except DomainError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
            status = error.status_code
        else:
            return redirect("run", run_id=run.pk)
    elif request.method == "POST":
        status = 400
    context = {
        "form": form,
        "instance_types": InstanceType.objects.values_list("name", flat=True),
        "regions": Region.objects.values_list("code", flat=True),
    }
    return render(request, "dashboard/upload.html", context, status=status)


def run_detail(request, run_id: int):
    """`/runs/<id>/`: a run's status, warnings or error, and its results."""
    run = get_object_or_404(
        Run.objects.select_related("instance_type", "region").prefetch_related(
            "results__benchmark", "children__results__benchmark", "children__instance_type"
        ),
        pk=run_id,
    )
    return render(request, "dashboard/run.html", {"run": run})


AGENT_FILE = settings.BASE_DIR / "agent" / "pricebench_agent.py"


def agent_script(request):
    """`/agent.py`: the benchmark agent, byte for byte as kept in the repository."""
    return FileResponse(AGENT_FILE.open("rb"), content_type="text/x-python; charset=utf-8")


def agent(request):
    """`/agent/`: how to run the agent on EC2 and Fargate, and what it sends."""
    return render(request, "dashboard/agent.html", {"server": request.build_absolute_uri("/")[:-1]})
