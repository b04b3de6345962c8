"""The workload-profile question: what a dollar buys of one profile's work on each type
(`price-performance/?profile=KEY`, and the finder's `profile=`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django import forms

from benchmarks.profiles import BY_KEY
from benchmarks.questions.base import CHOICE_ERRORS, QuestionForm, comma_list, date_field
from benchmarks.questions.price_performance import BASES
from benchmarks.questions.purchase import Purchase, PurchaseFields


@dataclass(frozen=True)
class ProfileQuery:
    profile: str
    region: str
    purchase: Purchase = field(default_factory=Purchase)
    at: datetime.date | None = None
    basis: str = "sustained"
    instance_types: tuple[str, ...] = ()
    families: tuple[str, ...] = ()

    @property
    def purchase_option(self) -> str:
        return self.purchase.option


class ProfileForm(QuestionForm, PurchaseFields):
    """`profile`, `region` and the options a profile's question shares with a benchmark's."""

    profile = forms.ChoiceField(
        choices=[(key, key) for key in BY_KEY],
        help_text="A workload profile's key (GET profiles/), e.g. crypto",
        error_messages={
            "invalid_choice": f"%(value)s is not a profile; choose from {', '.join(BY_KEY)}"
        },
    )
    region = forms.CharField(max_length=32, help_text="Region whose prices apply, e.g. us-east-1")
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated instance types"
    )
    families = forms.CharField(
        required=False, max_length=2_000, help_text="Comma-separated families, e.g. c7g,c7a"
    )
    basis = forms.ChoiceField(
        choices=[(basis, basis) for basis in BASES],
        required=False,
        help_text="How burstable types are ranked: sustained (default), burst or unlimited",
        error_messages=CHOICE_ERRORS,
    )

    def clean(self):
        cleaned = super().clean()
        if self.data.get("benchmark"):
            raise forms.ValidationError("give a benchmark or a profile, not both")
        return cleaned

    def query(self) -> ProfileQuery:
        data = self.cleaned_data
        return ProfileQuery(
            profile=data["profile"],
            region=data["region"],
            purchase=self.purchase(),
            at=data.get("at"),
            basis=data.get("basis") or BASES[0],
            instance_types=comma_list(data.get("instance_types", "")),
            families=comma_list(data.get("families", "")),
        )
