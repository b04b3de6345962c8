"""The compare question: 2 to 8 chosen instance types side by side on every benchmark they
share, against a baseline among them, with what a dollar buys on each, each type priced in
its own cloud: the region asked for its vendor, else the type's cheapest region."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.questions.base import (
    CHOICE_ERRORS,
    QuestionForm,
    choice_field,
    comma_list,
    date_field,
    joined_lists,
    region_pairs,
)
from benchmarks.questions.price_performance import BASES, DEFAULT_REGION, ESTIMATES

MIN_TYPES, MAX_TYPES = 2, 8
# `regions=azure:cheapest`: each of that vendor's types at its own cheapest region.
CHEAPEST = "cheapest"


@dataclass(frozen=True)
class CompareQuery:
    """One comparison: the types in the order asked, the baseline (default the first).

    Each type is priced in its vendor's region: `regions`' (vendor, code) for its vendor
    (code CHEAPEST: the type's cheapest region), else `region` when it is its vendor's, else
    the type's cheapest region."""

    types: tuple[str, ...]
    baseline: str
    region: str = DEFAULT_REGION
    regions: tuple[tuple[str, str], ...] = ()
    purchase_option: str = PurchaseOption.ON_DEMAND
    at: datetime.date | None = None
    basis: str = BASES[0]
    # include: a compared Fargate size no task measured is estimated (labelled so).
    estimates: str = ESTIMATES[0]


class CompareForm(QuestionForm):
    """`/compare/?types=a,b,c[&baseline=a]`; `types` may also come as one value per type."""

    types = forms.CharField(
        max_length=1_000,
        help_text=f"{MIN_TYPES} to {MAX_TYPES} comma-separated instance types",
        error_messages={
            "required": f"choose {MIN_TYPES} to {MAX_TYPES} instance types: types=a,b,c"
        },
    )
    baseline = forms.CharField(
        required=False, max_length=64, help_text="One of the types (default: the first)"
    )
    region = forms.CharField(
        required=False,
        max_length=40,
        help_text=f"Prices of this region for its vendor's types (default {DEFAULT_REGION})",
    )
    regions = forms.CharField(
        required=False,
        max_length=500,
        help_text="A region per vendor, vendor:region,... e.g. aws:eu-central-1,hcloud:fsn1; "
        f"vendor:{CHEAPEST} prices each of its types in its cheapest region (a vendor not "
        "named: its types' cheapest regions, AWS's the `region`)",
    )
    purchase_option = forms.ChoiceField(
        choices=PurchaseOption.choices, required=False, error_messages=CHOICE_ERRORS
    )
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")
    basis = choice_field(BASES)
    estimates = choice_field(
        ESTIMATES,
        "include (default): a Fargate size no task measured on a benchmark is estimated from "
        "EC2 types with the processor the task runs on, labelled so; exclude: measured figures "
        "only",
    )

    def __init__(self, data, *args, **kwargs):
        # The finder's ticks send one `types` each, the page's vendor menus one `regions` each.
        super().__init__(joined_lists(data, ("types", "regions")), *args, **kwargs)

    def clean_regions(self) -> tuple[tuple[str, str], ...]:
        return region_pairs(
            self.cleaned_data["regions"], one_per_vendor=True, also=f", or azure:{CHEAPEST}"
        )

    def clean_types(self) -> tuple[str, ...]:
        types = tuple(dict.fromkeys(comma_list(self.cleaned_data["types"])))
        if not MIN_TYPES <= len(types) <= MAX_TYPES:
            raise forms.ValidationError(
                f"choose {MIN_TYPES} to {MAX_TYPES} different instance types ({len(types)} given)"
            )
        return types

    def clean(self):
        cleaned = super().clean()
        types, baseline = cleaned.get("types"), cleaned.get("baseline")
        if types and baseline and baseline not in types:
            self.add_error(
                "baseline", f"the baseline {baseline} is not among the types ({', '.join(types)})"
            )
        return cleaned

    def query(self) -> CompareQuery:
        """The validated question (call after `is_valid()`)."""
        data = self.cleaned_data
        return CompareQuery(
            types=data["types"],
            baseline=data.get("baseline") or data["types"][0],
            region=data.get("region") or DEFAULT_REGION,
            regions=data.get("regions") or (),
            purchase_option=data.get("purchase_option") or PurchaseOption.ON_DEMAND,
            at=data.get("at"),
            basis=data.get("basis") or BASES[0],
            estimates=data.get("estimates") or ESTIMATES[0],
        )
