"""The workload-profile question: what a dollar buys of one profile's work on each type
(`price-performance/?profile=KEY`, and the finder's `profile=`)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django import forms

from benchmarks.profiles import BY_KEY
from benchmarks.questions.base import QuestionForm, comma_list, joined_lists
from benchmarks.questions.price_performance import BASES, PricePerformanceForm
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
    # Whether estimated Fargate rows are listed (price_performance.ESTIMATES).
    estimates: str = "include"

    @property
    def purchase_option(self) -> str:
        return self.purchase.option


def profile_field(*, required: bool = True) -> forms.ChoiceField:
    """A workload profile's key, refused naming the valid ones (also the finder's)."""
    return forms.ChoiceField(
        choices=[*([] if required else [("", "none")]), *((key, key) for key in BY_KEY)],
        required=required,
        help_text="A workload profile's key (GET profiles/), e.g. crypto",
        error_messages={
            "invalid_choice": f"%(value)s is not a profile; choose from {', '.join(BY_KEY)}"
        },
    )


# The fields a profile's question shares with a benchmark's, declared there.
_SHARED = PricePerformanceForm.base_fields


class ProfileForm(QuestionForm, PurchaseFields):
    """`profile`, `region` and the options a profile's question shares with a benchmark's."""

    profile = profile_field()
    region = _SHARED["region"]
    at = _SHARED["at"]
    instance_types = _SHARED["instance_types"]
    families = _SHARED["families"]
    basis = _SHARED["basis"]
    estimates = _SHARED["estimates"]

    def __init__(self, data, *args, **kwargs):
        super().__init__(joined_lists(data), *args, **kwargs)

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
            estimates=data.get("estimates") or "include",
        )


# A benchmark's question's parameters a profile's does not take (`currency`, `busy`,
# `regions`, ...): the page keeps them in its form and address for the next benchmark chosen.
# Not the benchmark itself, one of its rows (`baseline`), nor the API's extras (`include`).
CARRIED_FOR_BENCHMARKS = tuple(
    name
    for name in _SHARED
    if name not in ProfileForm.base_fields and name not in ("benchmark", "baseline", "include")
)
