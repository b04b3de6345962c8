"""The chart pages: validate the query, call a selector, render."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import redirect, render

from benchmarks import parsers
from benchmarks.errors import DomainError
from benchmarks.forms import DatabaseForm, NetworkScalingForm, PricePerformanceForm
from benchmarks.models import InstanceType, Region, Run
from benchmarks.selectors import benchmark_pages as benchmark_selector
from benchmarks.selectors import comparison as comparison_selector
from benchmarks.selectors import databases, network
from benchmarks.selectors import instance_types as instance_type_selector
from benchmarks.selectors import runs as run_selector
from benchmarks.selectors import storage as storage_selector
from benchmarks.services import runs as run_services
from dashboard import health
from dashboard.forms import UploadForm
from dashboard.storage_forms import VolumesForm


def healthz(request):
    """`/healthz`: the process answers; touches no database."""
    return JsonResponse({"status": "ok"})


def readyz(request):
    """`/readyz`: database and broker reachable, and the age of the last price refresh."""
    ready, report = health.readiness()
    return JsonResponse(
        {"status": "ready" if ready else "unavailable", **report}, status=200 if ready else 503
    )


def comparison(request):
    """`/`: throughput per dollar for one benchmark, Fargate, t2, c7g, c7a and c7i by default."""
    form = PricePerformanceForm(request.GET, optional=("benchmark", "region"))
    valid = form.is_valid()
    result = comparison_selector.comparison(
        form.query(families=comparison_selector.DEFAULT_FAMILIES)
    )
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
                file=form.cleaned_data["file"], fields=form.cleaned_data, uploaded_by=request.user
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
    """`/runs/<id>/`: a run's status, flags, figures, raw output, and the comparisons it feeds."""
    try:
        page = run_selector.run_page(run_id)
    except Run.DoesNotExist:
        raise Http404(f"no run {run_id}") from None
    return render(request, "dashboard/run.html", {"page": page, "run": page.run})


def instance_type_detail(request, name: str):
    """`/instance-types/<name>/`: specifications, prices over time, ranks in each benchmark."""
    try:
        page = instance_type_selector.instance_type_page(name)
    except DomainError as error:
        raise Http404(error.message) from None
    return render(request, "dashboard/instance_type.html", {"page": page})


def benchmark_detail(request, key: str):
    """`/benchmarks/<key>/`: what a benchmark measures, its unit, and what it covers."""
    try:
        page = benchmark_selector.benchmark_page(key)
    except DomainError as error:
        raise Http404(error.message) from None
    return render(request, "dashboard/benchmark.html", {"page": page})


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


def network_page(request):
    """`/network/`: Gbit/s against processes and streams per instance type, with AWS's
    advertised bandwidth and Gbit/s per dollar-hour."""
    form = NetworkScalingForm(request.GET)
    context, status = {"form": form}, 200
    if not form.is_valid():
        context["error"], status = form.error_text(), 400
    else:
        try:
            answer = network.network_scaling(**form.selector_arguments())
        except DomainError as error:
            context["error"], status = error.message, error.status_code
        else:
            context.update(answer=answer, chart_data=_network_chart(answer))
    return render(request, "dashboard/network.html", context, status=status)


def _network_chart(answer: network.NetworkScaling) -> dict:
    """One line per instance type and streams per process: median Gbit/s by process count."""
    lines = []
    for curve in answer.curves:
        by_streams: dict[int, list] = {}
        for point in curve.points:
            by_streams.setdefault(point.streams, []).append(
                [point.processes, point.median_gbit_per_second]
            )
        for streams, points in sorted(by_streams.items()):
            lines.append(
                {
                    "label": f"{curve.instance_type} ({streams} stream{'s' if streams > 1 else ''}"
                    " per process)",
                    "points": points,
                }
            )
        one_process = [
            [point.streams, point.median_gbit_per_second]
            for point in curve.points
            if point.processes == 1
        ]
        if one_process:
            lines.append({"label": f"{curve.instance_type} (one process)", "streams": one_process})
    return {"lines": lines}


def databases_page(request):
    """`/databases/`: RDS and Aurora engines per DB instance class, side by side per dollar."""
    choices = databases.database_benchmarks()
    data = request.GET.copy()
    data.setdefault("benchmark", choices[0] if choices else "sysbench:oltp_read_write:queries")
    data.setdefault("region", "us-east-1")
    form = DatabaseForm(data)
    context, status = {"form": form, "benchmarks": choices}, 200
    if not form.is_valid():
        context["error"], status = form.error_text(), 400
    else:
        try:
            table = databases.database_price_performance(**form.selector_arguments())
        except DomainError as error:
            context["error"], status = error.message, error.status_code
        else:
            context.update(table=table, chart_data=_database_chart(table))
    return render(request, "dashboard/databases.html", context, status=status)


def _database_chart(table: databases.DatabaseTable) -> dict:
    """Bars per DB instance class, one dataset per engine: per dollar-hour, or the median of
    a lower-is-better benchmark (response time)."""
    classes = sorted({row.instance_type for row in table.results})
    engines = sorted({row.engine for row in table.results})
    figure = "per_usd_hour" if table.benchmark.higher_is_better else "median"
    values = {(row.instance_type, row.engine): getattr(row, figure) for row in table.results}
    return {
        "classes": classes,
        "axis": (
            f"{table.benchmark.unit} per dollar-hour"
            if table.benchmark.higher_is_better
            else f"{table.benchmark.unit} (lower is better)"
        ),
        "engines": [
            {"label": engine, "values": [values.get((name, engine)) for name in classes]}
            for engine in engines
        ],
    }
