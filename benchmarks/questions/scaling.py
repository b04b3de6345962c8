"""The questions of the study pages: network bandwidth against processes (S3), databases
side by side (S5) and fio on volumes per dollar-month (S4)."""

from __future__ import annotations

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.questions.base import QueryForm, comma_list, date_field
from benchmarks.reference import DATABASE_ENGINES, DEPLOYMENT_OPTIONS

# Which side of an iperf3 transfer a figure measures.
DIRECTIONS = ("receive", "send")


class NetworkScalingForm(QueryForm):
    """`network-scaling/` and `/network/`: a bandwidth benchmark, types, where prices come from."""

    benchmark = forms.CharField(required=False, max_length=120, help_text="default iperf3:tcp")
    direction = forms.ChoiceField(
        required=False, choices=[(d, d) for d in DIRECTIONS], help_text="default receive"
    )
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated instance types"
    )
    region = forms.CharField(
        required=False, max_length=32, help_text="Prices from this region: Gbit/s per dollar-hour"
    )
    purchase_option = forms.ChoiceField(required=False, choices=PurchaseOption.choices)
    at = date_field()

    def selector_arguments(self) -> dict:
        """The validated question as `network.network_scaling`'s keywords."""
        data = self.cleaned_data
        return {
            "benchmark_key": data.get("benchmark") or "iperf3:tcp",
            "direction": data.get("direction") or "receive",
            "instance_types": comma_list(data.get("instance_types", "")),
            "region_code": data.get("region") or None,
            "purchase_option": data.get("purchase_option") or PurchaseOption.ON_DEMAND,
            "at": data.get("at"),
        }


def engines_field() -> forms.CharField:
    """Comma-separated engines, by their keys; `pattern` says so in the OpenAPI schema (the
    selector refuses any other engine)."""
    field = forms.CharField(
        required=False,
        max_length=200,
        help_text=f"Comma-separated engines ({', '.join(DATABASE_ENGINES)}); default all",
    )
    name = "|".join(DATABASE_ENGINES)  # keys of [a-z-]: no character to escape
    field.pattern = rf"^ *(?:{name})(?: *, *(?:{name}))* *$"
    return field


class DatabaseForm(QueryForm):
    """`database-price-performance/` and `/databases/`: RDS and Aurora side by side."""

    benchmark = forms.CharField(max_length=120, help_text="e.g. sysbench:oltp_read_write:queries")
    region = forms.CharField(max_length=32, help_text="Region whose prices apply")
    engine = engines_field()
    deployment_option = forms.ChoiceField(
        required=False,
        choices=[(option, option) for option in DEPLOYMENT_OPTIONS],
        help_text="Single-AZ (default) or Multi-AZ",
    )
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated DB instance classes"
    )
    at = date_field()

    def selector_arguments(self) -> dict:
        """The validated question as `databases.database_price_performance`'s keywords."""
        data = self.cleaned_data
        return {
            "benchmark_key": data["benchmark"],
            "region_code": data["region"],
            "engines": comma_list(data.get("engine", "")),
            "deployment_option": data.get("deployment_option") or "Single-AZ",
            "at": data.get("at"),
            "params": self.params,
            "instance_types": comma_list(data.get("instance_types", "")),
        }


class VolumePerformanceForm(QueryForm):
    """`volume-performance/`: a fio IOPS benchmark and where the volumes are priced."""

    region = forms.CharField(max_length=32, help_text="Region whose EBS prices apply")
    benchmark = forms.CharField(required=False, max_length=120, help_text="default fio:randread")
    at = date_field()

    def selector_arguments(self) -> dict:
        """The validated question as `volume_performance.volume_performance`'s keywords."""
        data = self.cleaned_data
        return {
            "region_code": data["region"],
            "benchmark_key": data.get("benchmark") or "fio:randread",
            "at": data.get("at"),
            "params": self.params,
        }
