"""The pages of network bandwidth (study S3) and databases (study S5): validate the query in
the form the API uses, call the same selector, render."""

from django.shortcuts import render

from benchmarks.errors import DomainError
from benchmarks.query_forms import DatabaseForm, NetworkScalingForm
from benchmarks.selectors import databases, network


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
    return render(request, "beyond/network.html", context, status=status)


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
    return render(request, "beyond/databases.html", context, status=status)


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
