"""The unit-prices question: what a vCPU-hour and a GiB-hour cost on each type of a few
families (by default the region's vendor's: Fargate, t2, c7g, c7a and c7i in an AWS region), in
a region, on a day."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.questions.base import QuestionForm, date_field, families_field, family_names
from benchmarks.questions.price_performance import DEFAULT_FAMILIES, VENDOR_DEFAULT_FAMILIES
from benchmarks.questions.purchase import Purchase, PurchaseFields
from benchmarks.selectors.answer import lookups

MAX_FAMILIES = 20


@dataclass(frozen=True)
class UnitPricesQuery:
    """One unit-prices question, as the API, its CSV and the landing page ask it."""

    region: str
    families: tuple[str, ...] = DEFAULT_FAMILIES
    purchase_option: str = PurchaseOption.ON_DEMAND
    # None: today.
    at: datetime.date | None = None
    # How the prices are paid, with the purchase option: its commitment or spot zone.
    purchase: Purchase | None = None

    def __post_init__(self):
        if self.purchase is None:
            object.__setattr__(self, "purchase", Purchase(option=self.purchase_option))


class UnitPricesForm(QuestionForm, PurchaseFields):
    """`unit-prices/`: a region, the families (default its vendor's, as the landing opens on
    them), a purchase option (with its commitment or spot zone), a day."""

    region = forms.CharField(
        max_length=32,
        help_text="Region whose prices apply, e.g. us-east-1, or vendor:region (hcloud:fsn1)",
    )
    families = families_field(
        MAX_FAMILIES,
        "Comma-separated families, each as its vendor writes it (c7g, Dpsv6, n2, cax); default "
        f"the region's vendor's ({','.join(DEFAULT_FAMILIES)} in an AWS region)",
    )
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")

    def clean_families(self) -> tuple[str, ...]:
        return family_names(self.cleaned_data["families"], most=MAX_FAMILIES)

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("families") and "region" in cleaned:
            vendor = lookups.region_vendor(self.data["region"])
            cleaned["families"] = VENDOR_DEFAULT_FAMILIES.get(vendor, ())
        return cleaned

    def query(self) -> UnitPricesQuery:
        """The validated question."""
        data = self.cleaned_data
        purchase = self.purchase()
        return UnitPricesQuery(
            region=data["region"],
            families=data["families"],
            purchase_option=purchase.option,
            at=data.get("at"),
            purchase=purchase,
        )

    def selector_arguments(self) -> dict:
        """The keyword arguments of `benchmarks.selectors.costs.unit_prices.unit_prices`."""
        return {"query": self.query()}
