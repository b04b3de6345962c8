"""`/llm-serving/`: the price of a million generated tokens of one model on each type at the
latency its users accept, its answer sentence, a chart of cost against TTFT, and the table."""

from __future__ import annotations

from django.shortcuts import render

from benchmarks.currency import menu as currency_menu
from benchmarks.questions.llm_serving import MODES, PERCENTILES, WORKLOADS, LlmServingForm
from benchmarks.selectors.costs import prices
from benchmarks.selectors.subjects import llm_serving
from dashboard.views import study_page

# The page's question when it names no region: one large region of each cloud Spare Cores
# served models on, those with prices here.
DEFAULT_REGIONS = ("aws:us-east-1", "azure:eastus2", "gcp:us-central1")
DEFAULT_MODEL = "llama-8b"
DEFAULT_TARGET_MS = "2000"


def llm_serving_chart(answer: llm_serving.LlmServing) -> dict:
    """The chart's points: each ranked row's TTFT against its price per million output
    tokens (in the currency asked), CPU and GPU types apart."""
    points = {mode: [] for mode in MODES}
    for row in answer.results:
        if row.ttft_ms is None or row.price_per_million_output_tokens is None:
            continue
        points.setdefault(row.mode, []).append(
            {
                "x": row.ttft_ms,
                "y": row.price_per_million_output_tokens,
                "label": f"{row.instance_type} ({row.region})",
                "tokens": row.output_tokens_per_second,
                "concurrency": row.concurrency,
            }
        )
    return {
        "percentile": answer.percentile,
        "currency": answer.exchange_rate.currency,
        "target": answer.max_ttft_ms,
        "series": [
            {"mode": mode, "label": f"{mode.upper()} serving", "points": found}
            for mode, found in points.items()
            if found
        ],
    }


def llm_serving_page(request):
    """`/llm-serving/`: the question asked (by default llama-8b chat within 2 s p95 TTFT in
    a region of each cloud), or, before any model is measured, what the page needs."""
    models = llm_serving.llm_models()
    if not models:
        return render(request, "dashboard/llm_serving.html", {"models": [], "form": None})
    names = [found["model"] for found in models]
    data = request.GET.copy()
    data.setdefault("model", DEFAULT_MODEL if DEFAULT_MODEL in names else names[0])
    data.setdefault("workload", WORKLOADS[0])
    if not data.get("region") and not data.get("regions"):
        priced = {f"{region.vendor}:{region.code}" for region in prices.priced_regions()}
        data["regions"] = ",".join(code for code in DEFAULT_REGIONS if code in priced)
    if "max_ttft_ms" not in request.GET:
        data["max_ttft_ms"] = DEFAULT_TARGET_MS
    return study_page(
        request,
        "dashboard/llm_serving.html",
        LlmServingForm(data),
        llm_serving.llm_serving,
        llm_serving_chart,
        answer_name="answer",
        models=models,
        workloads=WORKLOADS,
        percentiles=PERCENTILES,
        modes=MODES,
        currencies=currency_menu(),
    )
