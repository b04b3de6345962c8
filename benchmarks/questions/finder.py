"""The finder question: which instance types match what a buyer filters on (vCPUs, memory,
architecture, burstable, family, CPU model, price), sorted by any column, with what a dollar
buys of one benchmark when one is chosen.

The table's columns are declared once (`COLUMNS`): the page's headers, its column picker,
the `sort` choices and the CSV export all read them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django import forms

from benchmarks.models import Architecture, PurchaseOption
from benchmarks.questions.base import (
    CHOICE_ERRORS,
    QueryForm,
    choice_field,
    comma_list,
    date_field,
    family_names,
)
from benchmarks.questions.price_performance import BASES, DEFAULT_REGION, PricePerformanceForm
from benchmarks.questions.profiles import profile_field

MAX_FAMILIES = 50
BURSTABLE_CHOICES = (("", "any"), ("true", "burstable only"), ("false", "not burstable"))
FORMATS = (("", "page"), ("csv", "csv"))


class Column(NamedTuple):
    """One column of the finder table."""

    key: str
    label: str
    # Shown until the column picker hides it.
    shown: bool = True
    # Only with a benchmark chosen.
    needs_benchmark: bool = False


COLUMNS = (
    Column("name", "Instance type"),
    Column("family", "Family", shown=False),
    Column("vcpus", "vCPUs"),
    Column("memory_gib", "Memory (GiB)"),
    Column("architecture", "Architecture"),
    Column("cpu_model", "CPU model"),
    Column("burstable", "Burstable"),
    Column("network_gbps", "Network (Gbit/s)", shown=False),
    Column("usd_per_hour", "Price per hour"),
    Column("usd_per_month", "Price per month"),
    Column("usd_per_year", "Price per year", shown=False),
    Column("median", "Benchmark result", needs_benchmark=True),
    Column("per_dollar", "Per dollar", needs_benchmark=True),
)
COLUMN_KEYS = tuple(column.key for column in COLUMNS)
# The CSV's columns (CONTRACT.md, "Pages"), in this order.
CSV_COLUMNS = (
    "name",
    "vcpus",
    "memory_gib",
    "architecture",
    "burstable",
    "usd_per_hour",
    "per_dollar",
)
SORTS = tuple(f"{sign}{key}" for key in COLUMN_KEYS for sign in ("", "-"))


@dataclass(frozen=True)
class FinderQuery:
    """One finder question: the filters, the sort, and the benchmark (if any) to rank by."""

    region: str = DEFAULT_REGION
    purchase_option: str = PurchaseOption.ON_DEMAND
    at: datetime.date | None = None
    benchmark: str = ""
    # Or a workload profile's key (benchmarks/profiles.py) to rank by.
    profile: str = ""
    # The benchmark's own parameters, as the comparison page takes them (`block_size=8192`).
    params: dict[str, str] = field(default_factory=dict)
    basis: str = BASES[0]
    # A benchmark run at several worker counts, each type at this share of its vCPUs busy.
    busy: Decimal | None = None
    architecture: str = ""
    vcpus_min: Decimal | None = None
    vcpus_max: Decimal | None = None
    memory_min: Decimal | None = None
    memory_max: Decimal | None = None
    # None: either.
    burstable: bool | None = None
    families: tuple[str, ...] = ()
    cpu_model: str = ""
    usd_per_hour_min: Decimal | None = None
    usd_per_hour_max: Decimal | None = None
    # Only types with a result for the benchmark.
    measured: bool = False
    # Only types with a verified run (its cloud identity proof named the type), ranked by
    # their verified runs' figures (`verified=only`).
    verified_only: bool = False
    # A column key, `-` first for descending; "" for the default (best per dollar first with
    # a benchmark, cheapest first without).
    sort: str = ""

    @property
    def order(self) -> str:
        """The sort in force."""
        if self.sort:
            return self.sort
        return "-per_dollar" if self.benchmark or self.profile else "usd_per_hour"


def _number(help_text: str) -> forms.DecimalField:
    return forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=12,
        decimal_places=4,
        help_text=help_text,
        error_messages={"invalid": "Enter a number."},
    )


class FinderForm(QueryForm):
    """`/instance-types/`: its filters, sort and benchmark; other parameters are the
    benchmark's own (`block_size=8192`)."""

    region = forms.CharField(
        required=False, max_length=32, help_text=f"Prices of this region (default {DEFAULT_REGION})"
    )
    purchase_option = forms.ChoiceField(
        choices=PurchaseOption.choices, required=False, error_messages=CHOICE_ERRORS
    )
    at = date_field("Prices in force that day, YYYY-MM-DD (default today)")
    benchmark = forms.CharField(
        required=False, max_length=120, help_text="Rank by what a dollar buys of this benchmark"
    )
    profile = profile_field(required=False)
    busy = PricePerformanceForm.base_fields["busy"]
    basis = choice_field(BASES)
    architecture = forms.ChoiceField(
        choices=[("", "any"), *Architecture.choices], required=False, error_messages=CHOICE_ERRORS
    )
    vcpus_min = _number("At least this many vCPUs")
    vcpus_max = _number("At most this many vCPUs")
    memory_min = _number("At least this much memory, GiB")
    memory_max = _number("At most this much memory, GiB")
    burstable = forms.ChoiceField(
        choices=BURSTABLE_CHOICES, required=False, error_messages=CHOICE_ERRORS
    )
    family = forms.CharField(
        required=False, max_length=2_000, help_text="Comma-separated families, e.g. c7g,c7a,c7i"
    )
    cpu_model = forms.CharField(
        required=False, max_length=100, help_text="Part of the CPU model's name, e.g. Neoverse"
    )
    usd_per_hour_min = _number("At least this price per hour, USD")
    usd_per_hour_max = _number("At most this price per hour, USD")
    measured = forms.BooleanField(required=False, help_text="Only types with benchmark results")
    verified = PricePerformanceForm.base_fields["verified"]
    sort = forms.ChoiceField(
        choices=[("", "default"), *((sort, sort) for sort in SORTS)],
        required=False,
        error_messages=CHOICE_ERRORS,
    )
    # The column picker's choice, kept in the URL so that a link shows the same columns.
    columns = forms.CharField(required=False, max_length=500)
    format = forms.ChoiceField(choices=FORMATS, required=False, error_messages=CHOICE_ERRORS)

    def __init__(self, data, *args, **kwargs):
        if hasattr(data, "getlist") and len(data.getlist("family")) > 1:
            # Several `family=` values (a multi-select) mean one comma-separated list.
            data = data.copy()
            data.setlist("family", [",".join(v for v in data.getlist("family") if v)])
        super().__init__(data, *args, **kwargs)

    def clean_family(self) -> tuple[str, ...]:
        return family_names(self.cleaned_data["family"], most=MAX_FAMILIES)

    def clean_columns(self) -> tuple[str, ...]:
        # Unknown names are ignored: an old link keeps working when a column is renamed.
        return tuple(key for key in comma_list(self.cleaned_data["columns"]) if key in COLUMN_KEYS)

    def clean(self):
        cleaned = super().clean()
        for low, high in (
            ("vcpus_min", "vcpus_max"),
            ("memory_min", "memory_max"),
            ("usd_per_hour_min", "usd_per_hour_max"),
        ):
            if cleaned.get(low) is not None and cleaned.get(high) is not None:
                if cleaned[low] > cleaned[high]:
                    self.add_error(high, f"{high} is below {low} ({cleaned[low]})")
        if cleaned.get("profile") and cleaned.get("benchmark"):
            self.add_error("profile", "rank by a benchmark or a profile, not both")
        return cleaned

    @property
    def wants_csv(self) -> bool:
        return self.data.get("format") == "csv"

    def query(self) -> FinderQuery:
        """The validated question (call after `is_valid()`)."""
        data = self.cleaned_data
        burstable = {"true": True, "false": False}.get(data.get("burstable") or "")
        return FinderQuery(
            region=data.get("region") or DEFAULT_REGION,
            purchase_option=data.get("purchase_option") or PurchaseOption.ON_DEMAND,
            at=data.get("at"),
            benchmark=data.get("benchmark") or "",
            profile=data.get("profile") or "",
            params=dict(self.params),
            basis=data.get("basis") or BASES[0],
            busy=data.get("busy"),
            architecture=data.get("architecture") or "",
            vcpus_min=data.get("vcpus_min"),
            vcpus_max=data.get("vcpus_max"),
            memory_min=data.get("memory_min"),
            memory_max=data.get("memory_max"),
            burstable=burstable,
            families=data.get("family") or (),
            cpu_model=(data.get("cpu_model") or "").strip(),
            usd_per_hour_min=data.get("usd_per_hour_min"),
            usd_per_hour_max=data.get("usd_per_hour_max"),
            measured=bool(data.get("measured")),
            verified_only=data.get("verified") == "only",
            sort=data.get("sort") or "",
        )

    def hidden_columns(self) -> tuple[str, ...]:
        """The columns the picker hides: as the URL says, else those hidden by default."""
        if self.is_valid() and "columns" in self.data:
            shown = set(self.cleaned_data["columns"])
            return tuple(key for key in COLUMN_KEYS if key not in shown)
        return tuple(column.key for column in COLUMNS if not column.shown)
