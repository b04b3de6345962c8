"""`/fleet/`: upload what you run (a fleet CSV or a FOCUS bill) and see it re-bought; the page
asks `POST /api/v1/fleets/` from the browser (static/dashboard/fleet.js)."""

from django.conf import settings
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from benchmarks.models import Benchmark
from benchmarks.profiles import PROFILES
from benchmarks.questions.fleet import REGIONS

# What a fleet is matched on unless the page is asked otherwise: PassMark's CPU mark, the
# broadest CPU figure the demo measures on every cloud.
DEFAULT_BENCHMARK = "passmark:cpu-mark"


@ensure_csrf_cookie
def fleet_page(request):
    """The upload form; the answer is drawn by the page's script."""
    return render(
        request,
        "dashboard/fleet.html",
        {
            "benchmarks": Benchmark.objects.order_by("key").values_list("key", flat=True),
            "profiles": PROFILES,
            "regions": REGIONS,
            "default_benchmark": request.GET.get("benchmark", DEFAULT_BENCHMARK)[:120],
            "max_upload_bytes": settings.PRICEBENCH_MAX_UPLOAD_BYTES,
        },
    )
