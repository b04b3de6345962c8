"""The commitment-cost question: what 1 month, 1 year and 3 years of one instance type cost in
one region under every way of paying it that has a price, on a day, for some hours of use a
month."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms

from benchmarks.per_dollar import HOURS_PER_MONTH
from benchmarks.questions.base import QuestionForm, date_field, integer_field


@dataclass(frozen=True)
class CommitmentCostQuery:
    """One commitment-cost question."""

    instance_type: str
    region: str
    # None: today.
    at: datetime.date | None = None
    # The hours the type runs each month: on demand and spot bill those, a commitment every
    # hour of its term.
    hours_per_month: int = HOURS_PER_MONTH


class CommitmentCostForm(QuestionForm):
    """`commitment-cost/`: an EC2 instance type, a region, a day."""

    instance_type = forms.CharField(max_length=64, help_text="An EC2 instance type (m5.large)")
    region = forms.CharField(max_length=32, help_text="An AWS region code (us-east-1)")
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")
    hours_per_month = integer_field(
        f"Hours of use a month, 1 to {HOURS_PER_MONTH} (default: always on)",
        required=False,
        min_value=1,
        max_value=HOURS_PER_MONTH,
    )

    def query(self) -> CommitmentCostQuery:
        """The validated question."""
        data = self.cleaned_data
        return CommitmentCostQuery(
            instance_type=data["instance_type"],
            region=data["region"],
            at=data.get("at"),
            hours_per_month=data.get("hours_per_month") or HOURS_PER_MONTH,
        )

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.costs.commitment_cost.commitment_cost`."""
        return {"query": self.query()}
