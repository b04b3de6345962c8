"""The chart pages: validate the query, call a selector, render."""

from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import redirect, render, resolve_url

from benchmarks import currency, family_presets, parsers
from benchmarks.errors import DomainError
from benchmarks.models import InstanceType, Region, Run
from benchmarks.per_dollar import HOURS_PER_MONTH
from benchmarks.profiles import PROFILES
from benchmarks.questions.base import QuestionForm
from benchmarks.questions.commitment_cost import CommitmentCostForm
from benchmarks.questions.price_performance import (
    BASIS_LABELS,
    DEFAULT_REGION,
    PRICE_DATES_LABELS,
    PricePerformanceForm,
)
from benchmarks.questions.profiles import CARRIED_FOR_BENCHMARKS, ProfileForm
from benchmarks.questions.purchase import purchase_controls
from benchmarks.questions.scaling import DatabaseForm, NetworkScalingForm
from benchmarks.questions.volumes import VolumesForm
from benchmarks.selectors.answer.shown_rows import shown_rows
from benchmarks.selectors.costs import commitment_cost as commitment_cost_selector
from benchmarks.selectors.pages import benchmark_pages as benchmark_selector
from benchmarks.selectors.pages import comparison as comparison_selector
from benchmarks.selectors.pages import (
    comparison_clouds,
    comparison_families,
    comparison_menus,
    family_facts,
    similar,
)
from benchmarks.selectors.pages import five_families as five_families_selector
from benchmarks.selectors.pages import instance_types as instance_type_selector
from benchmarks.selectors.pages import runs as run_selector
from benchmarks.selectors.subjects import cpu_scaling, databases, long_run, memory_curves, network
from benchmarks.selectors.subjects import profile_comparison as profile_comparison_selector
from benchmarks.selectors.subjects import storage as storage_selector
from benchmarks.services import runs as run_services
from dashboard import charts, health
from dashboard.forms import ShownRowsForm, UploadForm


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
    """`/`: throughput per dollar for one benchmark, Fargate, t2, c7g, c7a and c7i by default;
    with `profile=KEY`, for a workload profile. The menu names a profile `profile:KEY` in the
    benchmark's place: such a choice is sent on to `?profile=KEY`."""
    chosen = request.GET.get("benchmark", "")
    if chosen.startswith(profile_comparison_selector.MENU_PREFIX):
        question = request.GET.copy()
        question.pop("benchmark")
        question["profile"] = chosen.removeprefix(profile_comparison_selector.MENU_PREFIX)
        return redirect(f"{request.path}?{question.urlencode()}")
    refused = {}
    if request.GET.get("profile"):
        asked = request.GET.copy()
        asked.setdefault("region", DEFAULT_REGION)
        # As for a benchmark: the five families unless asked (`families=` means all).
        asked.setdefault("families", ",".join(comparison_selector.DEFAULT_FAMILIES))
        profile_form = ProfileForm(asked)
        if profile_form.is_valid():
            return _profile_comparison(request, profile_form)
        # Said beside the menu (`profile`) and each control, over the page's default benchmark.
        refused = profile_form.error_dict()
    question = request.GET.copy()
    question.pop("profile", None)
    form = PricePerformanceForm(question, optional=("benchmark", "region"))
    valid = form.is_valid() and not refused
    # Without `families`, the question's vendor's default families (`families=` means all).
    result = comparison_selector.comparison(form.query(), families_asked="families" in question)
    if result.error:
        name, message = result.error
        form.add_error(name if name in form.fields else None, message)
    rows_form = ShownRowsForm(request.GET)
    shown = shown_rows(result, everything=rows_form.everything())
    context = {
        "form": form,
        "comparison": result,
        "table": result.table,
        "shown": shown,
        "chart_data": charts.comparison_chart(result, rows=shown.charted),
        "basis_choices": list(BASIS_LABELS.items()),
        "purchase_controls": purchase_controls(result.query.purchase),
        "price_dates_choices": list(PRICE_DATES_LABELS.items()),
        "errors": {
            **(form.error_dict() if form.errors else {}),
            **{name: list(messages) for name, messages in rows_form.errors.items()},
            **refused,
        },
        "five_families": _five_families(result),
        "family_picker": _family_picker(result),
        "clouds": comparison_clouds.cloud_controls(result, family_facts.arm_regions),
        "currencies": currency.menu(),
        "profiles": PROFILES,
        **comparison_menus.busy_menu(result.asked or result.query),
    }
    status = 200 if valid and rows_form.is_valid() and not result.error else 400
    return render(request, "dashboard/comparison.html", context, status=status)


def _profile_comparison(request, form: ProfileForm):
    """`/?profile=KEY`: a workload profile's answer, in the page's question bar."""
    query = form.query()
    result = profile_comparison_selector.profile_comparison(query)
    carried = {name: request.GET[name] for name in CARRIED_FOR_BENCHMARKS if request.GET.get(name)}
    if result.resolved:
        result.resolved.update(carried)
    context = {
        "form": form,
        "comparison": result,
        "profile_answer": result,
        "table": result.table,
        "chart_data": charts.profile_chart(result),
        "basis_choices": list(BASIS_LABELS.items()),
        "purchase_controls": purchase_controls(query.purchase),
        "errors": {result.error[0] or "detail": [result.error[1]]} if result.error else {},
        "family_picker": _family_picker(result),
        "profiles": PROFILES,
        "carried": carried,
    }
    status = 400 if result.error else 200
    return render(request, "dashboard/comparison.html", context, status=status)


def _family_picker(result) -> dict:
    """The family picker: a box per family (the question's vendors' defaults, those asked,
    measured and shown; the question's vendors' first), each with what its search matches
    (vendors, processors), ticked as the question asks (`all`: every family), and the
    presets."""
    # A profile's page lists no benchmarks: its regions' stamp alone.
    stamp = family_facts.data_stamp(result.price_menu, getattr(result, "benchmarks", []))
    facts = family_facts.family_facts(stamp=stamp)
    region = result.price_menu.regions.get(result.query.region)
    # A profile's question names one region, without `regions`.
    asked = [vendor for vendor, _ in getattr(result.query, "regions", ())]
    vendors = asked or ([region.vendor] if region else [])
    families_asked = getattr(result, "families_asked", result.query.families)
    listed = comparison_families.picker_families(
        families_asked, result.families, result.families_shown, vendors, facts
    )
    return {
        "families": [
            {
                "name": family,
                "search": facts[family].search_text if family in facts else "",
                "checked": not families_asked or family in families_asked,
            }
            for family in listed
        ],
        "all": not families_asked,
        "ticked": len(families_asked),
        "presets": _family_presets(result, facts, vendors),
    }


def _family_presets(result, facts, vendors) -> list[dict]:
    """The family picker's presets, each a link to the same question with its families (so
    that they work without scripts), then "All" (`families=`); the baseline is left out, as it
    may not be among them."""
    if not result.resolved or not result.families:
        return []
    question = {name: value for name, value in result.resolved.items() if name != "baseline"}
    return [
        {
            "key": preset.key,
            "label": preset.label,
            "families": preset.families,
            "href": "?" + urlencode({**question, "families": ",".join(preset.families)}),
        }
        for preset in [
            *family_presets.presets(result.families, facts, vendors),
            family_presets.Preset("all", "All", ()),
        ]
    ]


def _five_families(result) -> dict | None:
    """The comparison page's section on the five families, and its chart's data."""
    section = five_families_selector.for_comparison(result)
    if section is None:
        return None
    return {
        "answer": section,
        "chart_data": charts.unit_price_chart(section),
        "options_data": charts.family_options_chart(section),
    }


def upload(request):
    """`/upload/`: how to send results (tokens, the CLI, the agent) to anyone; the form to send
    a file to a logged-in user (the run is parsed by a Celery worker)."""
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect_to_login(request.get_full_path())
        return render(request, "dashboard/upload.html", _upload_help(request))
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
        **_upload_help(request),
        "form": form,
        "instance_types": InstanceType.objects.values_list("name", flat=True),
        "regions": Region.objects.values_list("code", flat=True),
    }
    return render(request, "dashboard/upload.html", context, status=status)


def _upload_help(request) -> dict:
    """What the upload page says to everyone: the server's address and where to log in."""
    return {
        "server": request.build_absolute_uri("/")[:-1],
        "login_url": f"{resolve_url(settings.LOGIN_URL)}?next={request.path}",
    }


def run_detail(request, run_id: int):
    """`/runs/<id>/`: a run's status, flags, figures, raw output, and the comparisons it feeds."""
    try:
        page = run_selector.run_page(run_id)
    except Run.DoesNotExist:
        raise Http404(f"no run {run_id}") from None
    return render(request, "dashboard/run.html", {"page": page, "run": page.run})


def instance_type_detail(request, name: str):
    """`/instance-types/<name>/`: specifications, prices over time, ranks in each benchmark
    (each benchmark's main parameter set ranked; every set with `?ranks=all`)."""
    every_rank = request.GET.get("ranks") == "all"
    try:
        page = instance_type_selector.instance_type_page(name, every_rank=every_rank)
    except DomainError as error:
        raise Http404(error.message) from None
    asked = request.GET.copy()
    asked["ranks"] = "all"
    # The region the first screen prices (asked, else us-east-1, else the cheapest): the
    # similar types are priced there too, so that another cloud's type meets its own peers.
    now = page.price_now(request.GET.get("region"))
    return render(
        request,
        "dashboard/instance_type.html",
        {
            "page": page,
            "every_rank_url": f"?{asked.urlencode()}#ranks-table",
            "price_now": now,
            "chart_data": charts.price_history_chart(page),
            "scaling": charts.cpu_scaling_chart(cpu_scaling.cpu_scaling(page)),
            "memory": charts.memory_chart(memory_curves.memory_curves(page)),
            "long_run": charts.long_run_chart(long_run.long_run(page)),
            "similar": similar.similar_types(
                page.instance_type, **({"region": now.region} if now else {})
            ),
            **_cost_over_a_period(request, page),
        },
    )


def _cost_over_a_period(request, page) -> dict:
    """The page's "Cost over a period" calculator: the commitment-cost question for one of
    the regions the type has prices in (`?region=`, default the first screen's: us-east-1,
    else the cheapest on demand) and some hours of use a month (`?hours_per_month=`, default
    always on)."""
    regions = sorted({line.region for line in page.lines})
    if not regions or page.instance_type.kind == InstanceType.Kind.FARGATE:
        return {}
    # The region the page's first screen prices (us-east-1, else the cheapest on demand).
    now = page.price_now()
    default = now.region if now else regions[0]
    form = CommitmentCostForm(
        {
            "instance_type": page.instance_type.name,
            "region": request.GET.get("region") or default,
            "at": request.GET.get("at", ""),
            "hours_per_month": request.GET.get("hours_per_month", ""),
        }
    )
    context = {
        "cost_regions": regions,
        "cost_region": form.data["region"],
        "cost_hours": form.data["hours_per_month"] or HOURS_PER_MONTH,
    }
    if not form.is_valid():
        return {**context, "cost_error": form.error_text()}
    try:
        cost = commitment_cost_selector.commitment_cost(
            **form.selector_arguments(), instance_type=page.instance_type
        )
    except DomainError as error:
        return {**context, "cost_error": error.message}
    return {**context, "cost": cost, "options_chart": charts.options_chart(cost)}


def benchmark_detail(request, key: str):
    """`/benchmarks/<key>/`: what a benchmark measures, its unit, and what it covers."""
    try:
        page = benchmark_selector.benchmark_page(key)
    except DomainError as error:
        raise Http404(error.message) from None
    return render(request, "dashboard/benchmark.html", {"page": page})


def study_page(
    request, template: str, form: QuestionForm, ask, chart, *, answer_name: str, **context
):
    """A study page: the form's question answered by `ask(**arguments)`, shown as
    `answer_name` with its chart data, or the form's errors (400) or the selector's refusal
    beside the form."""
    status = 200
    context["form"] = form
    if not form.is_valid():
        context["error"], status = form.error_text(), 400
    else:
        try:
            answer = ask(**form.selector_arguments())
        except DomainError as error:
            context["error"], status = error.message, error.status_code
        else:
            context.update({answer_name: answer, "chart_data": chart(answer)})
    return render(request, template, context, status=status)


def volumes(request):
    """`/volumes/`: EBS volumes priced side by side, and the IOPS they deliver under a load."""
    regions = storage_selector.volume_priced_regions()
    form = VolumesForm(request.GET, default_region=regions[0] if regions else "us-east-1")
    return study_page(
        request,
        "dashboard/volumes.html",
        form,
        storage_selector.volume_comparison,
        charts.volumes_chart,
        answer_name="comparison",
        regions=regions,
    )


AGENT_FILE = settings.BASE_DIR / "agent" / "pricebench_agent.py"


def agent_script(request):
    """`/agent.py`: the benchmark agent, byte for byte as kept in the repository."""
    return FileResponse(AGENT_FILE.open("rb"), content_type="text/x-python; charset=utf-8")


def agent(request):
    """`/agent/`: how to run the agent on EC2 and Fargate, and what it sends."""
    return render(request, "dashboard/agent.html", {"server": request.build_absolute_uri("/")[:-1]})


def network_page(request):
    """`/network/`: Gbit/s against processes and streams per instance type, with AWS's
    advertised bandwidth and Gbit/s per dollar-hour; before any is measured, how to upload."""
    return study_page(
        request,
        "dashboard/network.html",
        NetworkScalingForm(request.GET),
        network.network_scaling,
        charts.network_chart,
        answer_name="answer",
        server=request.build_absolute_uri("/")[:-1],
    )


def databases_page(request):
    """`/databases/`: RDS and Aurora engines per DB instance class, side by side per dollar;
    before any class is measured, how to upload."""
    choices = databases.database_benchmarks()
    data = request.GET.copy()
    data.setdefault("benchmark", choices[0] if choices else "sysbench:oltp_read_write:queries")
    data.setdefault("region", "us-east-1")
    return study_page(
        request,
        "dashboard/databases.html",
        DatabaseForm(data),
        databases.database_price_performance,
        charts.database_chart,
        answer_name="table",
        benchmarks=choices,
        server=request.build_absolute_uri("/")[:-1],
    )
