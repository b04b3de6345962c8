"""The cheapest-regions question: where one instance type (or Fargate task size) costs
least, bought one way, on a day."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms

from benchmarks.questions.base import QuestionForm, date_field
from benchmarks.questions.purchase import Purchase, PurchaseFields


@dataclass(frozen=True)
class CheapestRegionsQuery:
    """One cheapest-regions question."""

    instance_type: str
    purchase: Purchase = Purchase()
    # None: today.
    at: datetime.date | None = None


class CheapestRegionsForm(QuestionForm, PurchaseFields):
    """`cheapest-regions/`: an instance type, a purchase option (with its commitment or spot
    zone), a day."""

    instance_type = forms.CharField(
        max_length=64, help_text="An EC2 type (c7g.large) or a Fargate task size"
    )
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")

    def query(self) -> CheapestRegionsQuery:
        """The validated question."""
        data = self.cleaned_data
        return CheapestRegionsQuery(
            instance_type=data["instance_type"], purchase=self.purchase(), at=data.get("at")
        )

    def selector_arguments(self) -> dict:
        """The keyword arguments of
        `benchmarks.selectors.costs.cheapest_regions.cheapest_regions`."""
        return {"query": self.query()}
