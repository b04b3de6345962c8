"""The chart pages: validate the query, call a selector, render."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect, render

from benchmarks import inspector, parsers
from benchmarks.errors import DomainError
from benchmarks.forms import PricePerformanceForm
from benchmarks.models import InstanceType, Region, Run
from benchmarks.selectors import comparison as comparison_selector
from benchmarks.selectors import storage as storage_selector
from benchmarks.services import runs as run_services
from dashboard.forms import UploadForm
from dashboard.storage_forms import VolumesForm


def comparison(request):
    """`/`: throughput per dollar for one benchmark, Fargate, t2, c7g, c7a and c7i by default."""
    form = PricePerformanceForm(request.GET, optional=("benchmark", "region"))
    valid = form.is_valid()
    result = comparison_selector.comparison(form.query())
    if result.error:
        name, message = result.error
        form.add_error(name if name in form.fields else None, message)
    context = {
        "form": form,
        "comparison": result,
        "table": result.table,
        "errors": form.error_dict() if form.errors else {},
    }
    status = 200 if valid and not result.error else 400
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
    credit = inspector.credit_for([run.source, *(child.source for child in run.children.all())])
    return render(request, "dashboard/run.html", {"run": run, "credit": credit})


def volumes(request):
    """`/volumes/`: EBS volumes priced side by side, and the IOPS they deliver under a load."""
    regions = storage_selector.volume_priced_regions()
    form = VolumesForm(request.GET, default_region=regions[0] if regions else "us-east-1")
    context, status = {"form": form, "regions": regions}, 200
    if not form.is_valid():
        context["error"], status = form.error_text(), 400
    else:
        try:
            comparison = storage_selector.volume_comparison(**form.selector_arguments())
        except DomainError as error:
            context["error"], status = error.message, error.status_code
        else:
            context.update(comparison=comparison, chart_data=comparison.chart_data())
    return render(request, "dashboard/volumes.html", context, status=status)


AGENT_FILE = settings.BASE_DIR / "agent" / "pricebench_agent.py"


def agent_script(request):
    """`/agent.py`: the benchmark agent, byte for byte as kept in the repository."""
    return FileResponse(AGENT_FILE.open("rb"), content_type="text/x-python; charset=utf-8")


def agent(request):
    """`/agent/`: how to run the agent on EC2 and Fargate, and what it sends."""
    return render(request, "dashboard/agent.html", {"server": request.build_absolute_uri("/")[:-1]})
