"""The fleet question: what work a fleet file is re-bought on, and where replacements may be
(`POST fleets/`'s query; the file itself is read by benchmarks.fleet)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django import forms

from benchmarks.questions.base import CHOICE_ERRORS, QueryForm
from benchmarks.questions.price_performance import PricePerformanceForm
from benchmarks.questions.profiles import profile_field

# same: a replacement in the line's own region; any: in any region of its cloud.
REGIONS = ("same", "any")


@dataclass(frozen=True)
class FleetQuestion:
    """What the fleet is re-bought on: a benchmark (with its parameters) or a profile."""

    benchmark: str = ""
    params: dict[str, str] = field(default_factory=dict)
    profile: str = ""
    regions: str = "same"
    at: datetime.date | None = None

    @property
    def work(self) -> str:
        return f"{self.profile} profile" if self.profile else self.benchmark


class FleetForm(QueryForm):
    """`benchmark` (with its own parameters) or `profile`, exactly one; `regions`; `at`."""

    benchmark = forms.CharField(
        required=False, max_length=120, help_text="Benchmark key, e.g. passmark:cpu-mark"
    )
    profile = profile_field(required=False)
    regions = forms.ChoiceField(
        choices=[(choice, choice) for choice in REGIONS],
        required=False,
        help_text="same (default): replacements in the line's region; any: in any region of "
        "its cloud",
        error_messages=CHOICE_ERRORS,
    )
    at = PricePerformanceForm.base_fields["at"]

    def clean(self):
        cleaned = super().clean()
        refused = "benchmark" in self.errors or "profile" in self.errors
        if not refused and bool(cleaned.get("benchmark")) == bool(cleaned.get("profile")):
            self.add_error("benchmark", "give a benchmark or a profile, exactly one")
        cleaned["params"] = self.checked_params()
        if cleaned["params"] and cleaned.get("profile"):
            self.add_error(None, "a profile takes no benchmark parameters")
        return cleaned

    def question(self) -> FleetQuestion:
        data = self.cleaned_data
        return FleetQuestion(
            benchmark=data.get("benchmark") or "",
            params=data["params"],
            profile=data.get("profile") or "",
            regions=data.get("regions") or REGIONS[0],
            at=data.get("at"),
        )
