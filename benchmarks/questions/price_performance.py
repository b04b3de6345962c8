"""The price-performance question: what a dollar buys of one benchmark on each type."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from django import forms

from benchmarks.currency import USD, currencies
from benchmarks.models import PurchaseOption, Vendor
from benchmarks.questions.base import (
    CHOICE_ERRORS,
    QueryForm,
    choice_field,
    comma_list,
    date_field,
    joined_lists,
    region_pairs,
)
from benchmarks.questions.parameters import measured_params
from benchmarks.questions.purchase import Purchase, PurchaseFields

INCLUDES = ("values", "quartiles")
# What a burstable type is ranked by: what it sustains once its CPU credits are spent (the
# default), its burst figure, or its burst figure at the price of running flat out in
# unlimited mode (surplus credits at the published rate).
BASES = ("sustained", "burst", "unlimited")
# How the rows are ranked: most per dollar first, or cheapest first (`order=price`).
ORDERS = ("per_dollar", "price")
BASIS_LABELS = {
    "sustained": "what they sustain (credits spent)",
    "burst": "their burst figure",
    "unlimited": "unlimited mode, surplus credits paid",
}
# `exact`: a row whose price was not in force on the day asked is left out (listed with the
# reason) instead of priced with the nearest price known.
PRICE_DATES = ("any", "exact")
PRICE_DATES_LABELS = {"any": "the nearest price known", "exact": "only prices in force that day"}
# Fargate sizes no task ran the benchmark on, estimated from EC2 types with the processor the
# task runs on (selectors/answer/fargate_estimates.py): listed, labelled, unless
# `estimates=exclude`.
ESTIMATES = ("include", "exclude")
# The shares of vCPUs busy the page offers (`busy`); any other from 0.01 to 1 is asked by URL.
BUSY_SHARES = (Decimal("0.25"), Decimal("0.5"), Decimal("0.75"), Decimal("1"))
# What the page asks when the question leaves it open.
DEFAULT_FAMILIES = ("fargate", "t2", "c7g", "c7a", "c7i")
# The same for a question about another cloud's region: a few of its own families, burstable,
# Arm, AMD and Intel as AWS's five are (Hetzner's four are all it sells).
VENDOR_DEFAULT_FAMILIES = {
    Vendor.AWS: DEFAULT_FAMILIES,
    Vendor.AZURE: ("Bsv2", "Dpsv6", "Dasv6", "Dsv6"),
    Vendor.GCP: ("e2", "t2a", "c4a", "t2d", "n2d", "n2"),
    Vendor.HCLOUD: ("cx", "cpx", "cax", "ccx"),
}
DEFAULT_REGION = "us-east-1"
# The benchmark the page opens on whenever it has results, whatever else is loaded (CONTRACT,
# "The default question"); its block_size is parameters.PAGE_DEFAULTS'.
DEFAULT_BENCHMARK = "openssl:aes-256-cbc"
# Regions one cross-cloud question may rank together (each is its own few queries).
MAX_REGIONS = 6


@dataclass(frozen=True)
class PricePerformanceQuery:
    """One price-performance question, as the page, the API and its CSV ask it."""

    benchmark: str
    region: str
    purchase_option: str = PurchaseOption.ON_DEMAND
    at: datetime.date | None = None
    # The benchmark's own parameters, by name, as the query gave them.
    params: dict[str, str] = field(default_factory=dict)
    instance_types: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    baseline: str | None = None
    # Only results measured in this region; None: wherever they were measured.
    measured_in: str | None = None
    # Only runs whose identity proof named their type (`verified=only`).
    verified_only: bool = False
    include_values: bool = False
    include_quartiles: bool = False
    basis: str = "sustained"
    price_dates: str = "any"
    # The currency of the rows' `price_per_hour` (benchmarks.currency: ECB reference rates).
    currency: str = USD
    # Several vendors' regions ranked together, as (vendor, region code) pairs (`regions=
    # aws:eu-central-1,hcloud:fsn1`); empty: the one `region`.
    regions: tuple[tuple[str, str], ...] = ()
    # Only this vendor's types (and, with `regions`, regions); "" for any.
    vendor: str = ""
    # Only types of this shape (`vcpus=2&memory_gib=4`); None: any.
    vcpus: Decimal | None = None
    memory_gib: Decimal | None = None
    order: str = ORDERS[0]
    # Whether estimated Fargate rows are listed (ESTIMATES).
    estimates: str = ESTIMATES[0]
    # A benchmark run at several worker counts (stress-ng:cpu's `workers`): each type's
    # figure at this share of its vCPUs busy (selectors/answer/busy.py); None: as the params say.
    busy: Decimal | None = None
    # The purchase option's commitment and spot zone (`purchase`).
    term: str = Purchase.term
    payment: str = Purchase.payment
    offering_class: str = Purchase.offering_class
    plan: str = Purchase.plan
    spot_zone: str = Purchase.spot_zone

    @property
    def purchase(self) -> Purchase:
        """How the prices are paid."""
        return Purchase(
            option=self.purchase_option,
            term=self.term,
            payment=self.payment,
            offering_class=self.offering_class,
            plan=self.plan,
            spot_zone=self.spot_zone,
        )


class PricePerformanceForm(QueryForm, PurchaseFields):
    """`benchmark`, `region` and the options of a price-performance question.

    Every other query parameter is one of the benchmark's own (`block_size=8192`); whether the
    benchmark has it is checked against the benchmark (`parameters.benchmark_params`).
    """

    benchmark = forms.CharField(max_length=120, help_text="Benchmark key, e.g. openssl:sha256")
    region = forms.CharField(
        max_length=50,
        help_text="Region whose prices apply, e.g. us-east-1, or vendor:region (hcloud:fsn1)",
    )
    at = date_field(
        "Prices in force that day, YYYY-MM-DD (default today)",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    instance_types = forms.CharField(
        required=False,
        max_length=10_000,
        help_text="Comma-separated instance types, bare or vendor:name (hcloud:cax11)",
    )
    families = forms.CharField(
        required=False, max_length=2_000, help_text="Comma-separated families, e.g. fargate,c7g"
    )
    baseline = forms.CharField(
        required=False,
        max_length=200,
        help_text="INSTANCE_TYPE or INSTANCE_TYPE:VARIANT (vendor:name for another cloud's type)",
    )
    measured_in = forms.CharField(
        required=False,
        max_length=32,
        help_text="Only results measured in this region (default: measured anywhere)",
    )
    verified = forms.ChoiceField(
        choices=[("only", "only")],
        required=False,
        help_text="only: count only verified runs, whose cloud identity proof named their "
        "instance type (default: every run)",
        error_messages=CHOICE_ERRORS,
    )
    basis = choice_field(
        BASES, "How burstable types are ranked: sustained (default), burst or unlimited"
    )
    price_dates = choice_field(
        PRICE_DATES,
        "any (default): the nearest price known when none was in force on `at`; exact: such "
        "rows are left out, with the reason",
    )
    regions = forms.CharField(
        required=False,
        max_length=500,
        help_text="Several vendors' regions ranked together, instead of `region`: "
        "vendor:region,... e.g. aws:eu-central-1,hcloud:fsn1 (at most "
        f"{MAX_REGIONS})",
    )
    vendor = choice_field(
        Vendor.values,
        "Only this vendor's types: aws, azure, gcp or hcloud (with `regions`, only its regions)",
    )
    currency = forms.CharField(
        required=False,
        max_length=3,
        help_text="The currency of each row's price_per_hour, e.g. EUR (default USD), at the "
        "European Central Bank's reference rate of the day asked",
    )
    vcpus = forms.DecimalField(
        required=False,
        min_value=Decimal("0.01"),
        max_digits=8,
        decimal_places=2,
        help_text="Only types with this many vCPUs, e.g. 2",
    )
    memory_gib = forms.DecimalField(
        required=False,
        min_value=Decimal("0.001"),
        max_digits=10,
        decimal_places=3,
        help_text="Only types with this much memory in GiB, e.g. 4",
    )
    order = choice_field(
        ORDERS, "per_dollar (default): most per dollar first; price: cheapest first"
    )
    busy = forms.DecimalField(
        required=False,
        min_value=Decimal("0.01"),
        max_value=Decimal("1"),
        max_digits=3,
        decimal_places=2,
        help_text="For a benchmark run at several worker counts (stress-ng:cpu): each type's "
        "figure at this share of its vCPUs busy, e.g. 0.5 (workers = vCPUs x 0.5, at least 1)",
    )
    estimates = choice_field(
        ESTIMATES,
        "include (default): Fargate sizes no task measured, estimated from EC2 types with the "
        "processor the task runs on, each labelled `estimated`; exclude: measured rows only",
    )
    include = forms.CharField(
        required=False,
        max_length=100,
        help_text=(
            "Comma-separated extras: values (each row's single values, capped; values_cut "
            "says when cut), quartiles"
        ),
    )

    def __init__(self, data, *args, optional: tuple[str, ...] = (), **kwargs):
        data = joined_lists(data)
        super().__init__(data, *args, **kwargs)
        for name in optional:
            self.fields[name].required = False
        if data.get("regions"):
            self.fields["region"].required = False

    def clean_include(self) -> tuple[str, ...]:
        extras = comma_list(self.cleaned_data["include"])
        unknown = sorted(set(extras) - set(INCLUDES))
        if unknown:
            raise forms.ValidationError(
                f"{', '.join(unknown)}: not a valid choice; choose from {', '.join(INCLUDES)}"
            )
        return extras

    def clean_regions(self) -> tuple[tuple[str, str], ...]:
        return region_pairs(self.cleaned_data["regions"], most=MAX_REGIONS)

    def clean_currency(self) -> str:
        code = self.cleaned_data["currency"].upper() or USD
        if code != USD and code not in currencies():
            raise forms.ValidationError(
                f"unknown currency {code!r}; choose from {', '.join(currencies())}"
            )
        return code

    def clean(self):
        cleaned = super().clean()
        cleaned["params"] = self.checked_params()
        return cleaned

    def query(self, **defaults) -> PricePerformanceQuery:
        """The validated question; `defaults` fill what the caller left optional."""
        # An invalid form still gives the page a question: its valid fields, defaults else.
        data = self.cleaned_data
        purchase = self.purchase()
        return PricePerformanceQuery(
            benchmark=data.get("benchmark") or defaults.get("benchmark", ""),
            region=data.get("region") or defaults.get("region", ""),
            purchase_option=purchase.option,
            term=purchase.term,
            payment=purchase.payment,
            offering_class=purchase.offering_class,
            plan=purchase.plan,
            spot_zone=purchase.spot_zone,
            at=data.get("at"),
            params=data.get("params", {}),
            instance_types=comma_list(data.get("instance_types", "")),
            # The page compares its default families unless asked; `families=` means all. Each
            # once: the page's hidden list and its boxes may both name one.
            families=tuple(dict.fromkeys(comma_list(data.get("families", ""))))
            if "families" in self.data
            else defaults.get("families", ()),
            baseline=data.get("baseline") or None,
            measured_in=data.get("measured_in") or None,
            verified_only=data.get("verified") == "only",
            include_values="values" in data.get("include", ()),
            include_quartiles="quartiles" in data.get("include", ()),
            basis=data.get("basis") or BASES[0],
            price_dates=data.get("price_dates") or PRICE_DATES[0],
            currency=data.get("currency") or USD,
            regions=data.get("regions") or (),
            vendor=data.get("vendor") or "",
            vcpus=data.get("vcpus"),
            memory_gib=data.get("memory_gib"),
            order=data.get("order") or ORDERS[0],
            estimates=data.get("estimates") or ESTIMATES[0],
            busy=data.get("busy"),
        )


def lenient_query(
    query: PricePerformanceQuery,
    benchmark,
    menu: dict[str, list[str]],
    notes: list[str],
) -> PricePerformanceQuery:
    """The page's question with what cannot apply dropped, each change noted.

    `benchmark`: the question's benchmark (None when its key is unknown: the answer names the
    closest ones); `menu`: the regions with prices, each with its purchase options.
    """
    changes: dict[str, Any] = {}
    region = query.region or DEFAULT_REGION
    if region not in menu and menu:
        fallback = DEFAULT_REGION if DEFAULT_REGION in menu else next(iter(menu))
        if query.region:
            notes.append(f"No prices are known in {region}: prices of {fallback} are shown.")
        region = fallback
    changes["region"] = region
    options = menu.get(region, [])
    if options and query.purchase_option not in options:
        notes.append(
            f"No {query.purchase_option} prices are known in {region}: "
            f"{options[0]} prices are shown."
        )
        changes["purchase_option"] = options[0]
    if benchmark is None:
        return replace(query, **changes)
    changes["benchmark"] = benchmark.key
    changes["params"] = measured_params(benchmark, query.params, notes)
    if query.families and not set(query.families) & set(benchmark.families):
        notes.append(
            f"None of {', '.join(query.families)} has results for {benchmark.key}: "
            "every family measured is shown."
        )
        changes["families"] = ()
    return replace(query, **changes)
