"""How the prices of an answer are paid: a purchase option and, for a commitment, its term,
payment and Reserved class or Savings Plan; for spot, which zone's price. One declaration of
the parameters for every question that prices something (price-performance, unit prices,
prices, cheapest regions)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from benchmarks.models import (
    COMMITMENTS,
    OfferingClass,
    Payment,
    Plan,
    PurchaseOption,
    Term,
)
from benchmarks.questions.base import CHOICE_ERRORS

# `median` (the default): the median over the region's zones in force; `cheapest`: the
# cheapest zone's price.
SPOT_ZONES = ("median", "cheapest")


@dataclass(frozen=True)
class Purchase:
    """A purchase option with its commitment (defaults: 1 year, no upfront, standard, compute)."""

    option: str = PurchaseOption.ON_DEMAND.value
    term: str = Term.ONE_YEAR.value
    payment: str = Payment.NO_UPFRONT.value
    offering_class: str = OfferingClass.STANDARD.value
    plan: str = Plan.COMPUTE.value
    spot_zone: str = SPOT_ZONES[0]

    @classmethod
    def of(cls, purchase: Purchase | str) -> Purchase:
        """A purchase, from itself or from a bare purchase option (its defaults)."""
        return purchase if isinstance(purchase, Purchase) else cls(option=purchase)

    @property
    def is_commitment(self) -> bool:
        return self.option in COMMITMENTS

    def commitment(self) -> dict[str, str]:
        """The stored commitment fields of such a price, empty where they do not apply."""
        if self.option == PurchaseOption.RESERVED:
            return {
                "term": self.term,
                "payment": self.payment,
                "offering_class": self.offering_class,
                "plan": "",
            }
        if self.option == PurchaseOption.SAVINGS_PLAN:
            return {
                "term": self.term,
                "payment": self.payment,
                "offering_class": "",
                "plan": self.plan,
            }
        return {"term": "", "payment": "", "offering_class": "", "plan": ""}

    def price_fields(self) -> dict[str, str]:
        """The filter of an EC2 price bought this way (Linux)."""
        return {"purchase_option": self.option, "os": "linux", **self.commitment()}

    def fargate_fields(self) -> dict[str, str]:
        """The filter of a Fargate rate bought this way (a plan has no offering class)."""
        fields = {"purchase_option": self.option, **self.commitment()}
        fields.pop("offering_class")
        return fields

    def describe(self) -> str:
        """For notes and sentences: `reserved (3y, all_upfront, standard)`."""
        if self.option == PurchaseOption.RESERVED:
            return f"{self.option} ({self.term}, {self.payment}, {self.offering_class})"
        if self.option == PurchaseOption.SAVINGS_PLAN:
            return f"{self.option} ({self.plan}, {self.term}, {self.payment})"
        if self.option == PurchaseOption.SPOT and self.spot_zone != SPOT_ZONES[0]:
            return f"{self.option} ({self.spot_zone} zone)"
        return self.option

    def answer_fields(self) -> dict[str, str | None]:
        """What an answer says of how its prices are paid (null where it does not apply)."""
        commitment = self.commitment()
        return {
            "term": commitment["term"] or None,
            "payment": commitment["payment"] or None,
            "offering_class": commitment["offering_class"] or None,
            "plan": commitment["plan"] or None,
            "spot_zone": self.spot_zone if self.option == PurchaseOption.SPOT else None,
        }


def _choice(choices, help_text: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=choices, required=False, help_text=help_text, error_messages=CHOICE_ERRORS
    )


class PurchaseFields(forms.Form):
    """The purchase option's parameters, for a question's form to inherit."""

    purchase_option = _choice(
        PurchaseOption.choices,
        "on_demand (default), spot, reserved, savings_plan or fargate_spot",
    )
    term = _choice(Term.choices, "With reserved or savings_plan: 1y (default) or 3y")
    payment = _choice(
        Payment.choices,
        "With reserved or savings_plan: no_upfront (default), partial_upfront or all_upfront",
    )
    offering_class = _choice(
        OfferingClass.choices, "With reserved: standard (default) or convertible"
    )
    plan = _choice(Plan.choices, "With savings_plan: compute (default) or ec2_instance")
    spot_zone = _choice(
        [(zone, zone) for zone in SPOT_ZONES],
        "With spot: median (default, over the region's zones) or cheapest (the cheapest zone)",
    )

    def purchase(self) -> Purchase:
        """The purchase the valid fields ask, defaults for the rest."""
        data = getattr(self, "cleaned_data", {})
        default = Purchase()
        return Purchase(
            option=data.get("purchase_option") or default.option,
            term=data.get("term") or default.term,
            payment=data.get("payment") or default.payment,
            offering_class=data.get("offering_class") or default.offering_class,
            plan=data.get("plan") or default.plan,
            spot_zone=data.get("spot_zone") or default.spot_zone,
        )


# The page's controls for a commitment and a spot zone: (parameter, label, choices, the
# purchase options it applies to), shown beside the purchase option when it applies.
PURCHASE_CONTROLS = (
    ("term", "Term", Term.choices, COMMITMENTS),
    ("payment", "Payment", Payment.choices, COMMITMENTS),
    ("offering_class", "Reserved class", OfferingClass.choices, (PurchaseOption.RESERVED,)),
    ("plan", "Savings Plan", Plan.choices, (PurchaseOption.SAVINGS_PLAN,)),
    ("spot_zone", "Spot zone", [(zone, zone) for zone in SPOT_ZONES], (PurchaseOption.SPOT,)),
)


def purchase_controls(purchase: Purchase) -> list[tuple[str, str, list, str]]:
    """The page's controls that apply to the purchase option asked, with the value the question
    asked: (name, label, choices, value). Those of other options are left out: they were shown,
    and ignored, beside an on-demand question."""
    return [
        (name, label, list(choices), getattr(purchase, name))
        for name, label, choices, options in PURCHASE_CONTROLS
        if purchase.option in options
    ]
