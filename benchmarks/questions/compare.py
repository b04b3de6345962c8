"""The compare question: 2 to 8 chosen instance types side by side on every benchmark they
share, against a baseline among them, with what a dollar buys on each."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.questions.base import CHOICE_ERRORS, QuestionForm, comma_list, date_field
from benchmarks.questions.price_performance import BASES, DEFAULT_REGION

MIN_TYPES, MAX_TYPES = 2, 8


@dataclass(frozen=True)
class CompareQuery:
    """One comparison: the types in the order asked, the baseline (default the first)."""

    types: tuple[str, ...]
    baseline: str
    region: str = DEFAULT_REGION
    purchase_option: str = PurchaseOption.ON_DEMAND
    at: datetime.date | None = None
    basis: str = BASES[0]


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
        required=False, max_length=32, help_text=f"Prices of this region (default {DEFAULT_REGION})"
    )
    purchase_option = forms.ChoiceField(
        choices=PurchaseOption.choices, required=False, error_messages=CHOICE_ERRORS
    )
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")
    basis = forms.ChoiceField(
        choices=[(basis, basis) for basis in BASES], required=False, error_messages=CHOICE_ERRORS
    )

    def __init__(self, data, *args, **kwargs):
        if hasattr(data, "getlist") and len(data.getlist("types")) > 1:
            data = data.copy()
            data.setlist("types", [",".join(v for v in data.getlist("types") if v)])
        super().__init__(data, *args, **kwargs)

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
            purchase_option=data.get("purchase_option") or PurchaseOption.ON_DEMAND,
            at=data.get("at"),
            basis=data.get("basis") or BASES[0],
        )
