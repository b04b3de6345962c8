"""The LLM-serving question: what a million generated tokens of one model cost on each type,
at the best load it was measured at whose latency the users accept (vLLM, Spare Cores)."""

from __future__ import annotations

import copy
import datetime
from dataclasses import dataclass
from decimal import Decimal

from django import forms

from benchmarks.currency import USD
from benchmarks.questions.base import QuestionForm, choice_field
from benchmarks.questions.price_performance import PricePerformanceForm
from benchmarks.questions.purchase import Purchase, PurchaseFields

# What GuideLLM drove vLLM with: short chats, retrieval-augmented prompts, long generations.
WORKLOADS = ("chat", "rag", "long")
# The latency percentiles the targets hold at (`mean` is measured too, but is no target).
PERCENTILES = ("p50", "p95", "p99")
MODES = ("cpu", "gpu")


def _price_field(name: str, **changes) -> forms.Field:
    """Price-performance's own field `name` (the region, currency and vendor a question is
    priced by), so that both questions take them alike."""
    field = copy.deepcopy(PricePerformanceForm.base_fields[name])
    for attribute, value in changes.items():
        setattr(field, attribute, value)
    return field


def _target_field(help_text: str) -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=Decimal("0.001"),
        max_digits=12,
        decimal_places=3,
        help_text=help_text,
    )


@dataclass(frozen=True)
class LlmServingQuery:
    """One LLM-serving question, as the API and the page ask it."""

    model: str
    workload: str
    region: str = ""
    # Several vendors' regions ranked together, as (vendor, region code) pairs; empty: `region`.
    regions: tuple[tuple[str, str], ...] = ()
    vendor: str = ""
    purchase: Purchase = Purchase()
    currency: str = USD
    # None: today.
    at: datetime.date | None = None
    # The latency targets, in milliseconds at `percentile`; None: no target.
    max_ttft_ms: float | None = None
    max_tpot_ms: float | None = None
    percentile: str = "p95"
    # Only CPU or only GPU serving; "": both.
    mode: str = ""

    @property
    def has_targets(self) -> bool:
        return self.max_ttft_ms is not None or self.max_tpot_ms is not None


class LlmServingForm(QuestionForm, PurchaseFields):
    """`llm-serving/`: a model and workload, where and how it is priced, the latency targets."""

    model = forms.CharField(
        max_length=100, help_text="The model served, as Spare Cores names it, e.g. llama-8b"
    )
    workload = choice_field(WORKLOADS, "chat, rag or long", required=True)
    region = _price_field(
        "region",
        help_text="Region whose prices apply, e.g. eastus2, or vendor:region (azure:eastus2); "
        "or `regions`",
    )
    regions = _price_field("regions")
    vendor = _price_field("vendor")
    currency = _price_field(
        "currency",
        help_text="The currency of each row's price_per_hour and price_per_million_output_"
        "tokens, e.g. EUR (default USD), at the European Central Bank's reference rate",
    )
    at = _price_field("at")
    max_ttft_ms = _target_field(
        "The longest time to first token accepted, in ms at `percentile` (default: none)"
    )
    max_tpot_ms = _target_field(
        "The longest time per output token accepted, in ms at `percentile` (default: none)"
    )
    percentile = choice_field(PERCENTILES, "The percentile the targets hold at (default p95)")
    mode = choice_field(MODES, "Only types serving on their cpu or their gpu (default both)")

    clean_regions = PricePerformanceForm.clean_regions
    clean_currency = PricePerformanceForm.clean_currency

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        # Required (the schema says so), unless `regions` names several.
        if data.get("regions"):
            self.fields["region"].required = False

    def query(self) -> LlmServingQuery:
        """The validated question."""
        data = self.cleaned_data
        return LlmServingQuery(
            model=data["model"],
            workload=data["workload"],
            region=data.get("region") or "",
            regions=data.get("regions") or (),
            vendor=data.get("vendor") or "",
            purchase=self.purchase(),
            currency=data.get("currency") or USD,
            at=data.get("at"),
            max_ttft_ms=_float_or_none(data.get("max_ttft_ms")),
            max_tpot_ms=_float_or_none(data.get("max_tpot_ms")),
            percentile=data.get("percentile") or PERCENTILES[1],
            mode=data.get("mode") or "",
        )

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.subjects.llm_serving.llm_serving`."""
        return {"query": self.query()}


class LlmModelsForm(QuestionForm):
    """`llm-serving/models/`: no parameter but the workload, optional."""

    workload = choice_field(WORKLOADS, "Only types measured with this workload (default any)")

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.subjects.llm_serving.llm_models`."""
        return {"workload": self.cleaned_data.get("workload") or ""}


def _float_or_none(value: Decimal | None) -> float | None:
    return None if value is None else float(value)
