"""The pages that browse what pricebench knows: the finder table of instance types, the
comparison of a few chosen types, the benchmarks and the runs.

Thin, as every view: validate the query with its form, call one selector, render.
"""

from __future__ import annotations

import csv

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render

from benchmarks.errors import DomainError
from benchmarks.models import Architecture, Benchmark, PurchaseOption, Run
from benchmarks.profiles import PROFILES
from benchmarks.questions.compare import CompareForm
from benchmarks.questions.finder import BURSTABLE_CHOICES, COLUMNS, FinderForm, FinderQuery
from benchmarks.questions.price_performance import BASIS_LABELS
from benchmarks.questions.runs import RunListForm
from benchmarks.selectors.answer import raw_samples
from benchmarks.selectors.compare_types import compare as compare_selector
from benchmarks.selectors.compare_types import compare_regions
from benchmarks.selectors.costs import prices
from benchmarks.selectors.pages import catalogue
from benchmarks.selectors.pages import finder as finder_selector
from dashboard import charts


def finder(request):
    """`/instance-types/`: every type with its specifications and price, filtered and sorted
    by the query; per dollar of a benchmark when one is chosen; `format=csv` the same rows."""
    form = FinderForm(request.GET)
    valid = form.is_valid()
    table, error = None, None
    if valid:
        try:
            table = finder_selector.finder_table(form.query())
        except DomainError as refusal:
            error = refusal
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
    if form.wants_csv:
        if table is None:
            return JsonResponse(form.error_dict(), status=error.status_code if error else 400)
        return _csv(table)
    query = form.query() if valid else FinderQuery()
    context = {
        "form": form,
        "query": query,
        "table": table,
        "errors": form.error_dict() if form.errors else {},
        "profiles": PROFILES,
        "columns": _columns(request, table, query, form.hidden_columns()),
        "csv_url": _url(request, format="csv"),
        "benchmarks": Benchmark.objects.exclude(families=[]).order_by("key").only("key", "unit"),
        "regions": list(prices.price_menu()),
        "purchase_options": PurchaseOption.choices,
        "architectures": Architecture.choices,
        "burstable_choices": BURSTABLE_CHOICES,
        "basis_choices": list(BASIS_LABELS.items()),
    }
    status = 200 if table is not None else (error.status_code if error else 400)
    return render(request, "dashboard/finder.html", context, status=status)


def _url(request, **changes) -> str:
    """This page's URL with some parameters changed (None: removed)."""
    data = request.GET.copy()
    data.pop("format", None)
    for name, value in changes.items():
        data.pop(name, None)
        if value is not None:
            data[name] = value
    return f"{request.path}?{data.urlencode()}"


def _columns(request, table, query: FinderQuery, hidden: tuple[str, ...]) -> list[dict]:
    """The table's columns, each with its header's sort link and whether it is shown."""
    order = query.order
    columns = []
    for column in COLUMNS:
        if column.needs_benchmark and (table is None or not table.ranked):
            continue
        sorted_by = order.lstrip("-") == column.key
        columns.append(
            {
                "key": column.key,
                "label": column.label,
                "hidden": column.key in hidden,
                "url": _url(request, sort=finder_selector.next_sort(order, column.key)),
                "aria_sort": ("descending" if order.startswith("-") else "ascending")
                if sorted_by
                else "none",
            }
        )
    return columns


def _csv(table: finder_selector.FinderTable) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.csv_filename()}"'
    csv.writer(response).writerows(table.csv_rows())
    return response


def compare(request):
    """`/compare/?types=a,b,c[&baseline=a]`: 2 to 8 types side by side on every benchmark
    they share, as percentages of the baseline's figures and per dollar."""
    form = CompareForm(request.GET)
    comparison, status = None, 400
    if not request.GET:
        # Nothing asked yet: the form alone, how to choose.
        form, status = CompareForm(None), 200
    elif form.is_valid():
        try:
            comparison = compare_selector.compare_types(form.query())
            status = 200
        except DomainError as refusal:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
            status = refusal.status_code
    menu = prices.price_menu()
    context = {
        "form": form,
        "comparison": comparison,
        "errors": form.error_dict() if form.errors else {},
        "regions": list(menu),
        # With an answer, one menu per compared vendor: each type is priced in its own cloud.
        "region_choices": compare_regions.region_choices(comparison, menu.regions)
        if comparison
        else [],
        "purchase_options": PurchaseOption.choices,
        "basis_choices": list(BASIS_LABELS.items()),
        "chart_data": charts.compare_chart(comparison) if comparison else None,
    }
    return render(request, "dashboard/compare.html", context, status=status)


def benchmarks_index(request):
    """`/benchmarks/`: every benchmark by kind: what it measures, its unit, its coverage."""
    groups = catalogue.benchmark_index()
    samples = raw_samples.samples_by_group(groups)
    return render(request, "dashboard/benchmarks.html", {"groups": groups, "samples": samples})


def runs_index(request):
    """`/runs/`: recent runs, newest first, filterable by instance type, benchmark, status."""
    form = RunListForm(request.GET)
    page, status = None, 400
    if form.is_valid():
        try:
            page = catalogue.run_list(**form.selector_arguments())
            status = 200
        except DomainError as refusal:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
            status = refusal.status_code
    context = {
        "form": form,
        "page": page,
        "errors": form.error_dict() if form.errors else {},
        "statuses": Run.Status.choices,
        "page_url": _url(request, page=None),
    }
    return render(request, "dashboard/runs.html", context, status=status)
