"""The query objects of network bandwidth, databases and fio on volumes: one form each
validates the question for the API and the page, which call the same selector."""

from __future__ import annotations

from django import forms

from benchmarks.forms import RESERVED
from benchmarks.models import PurchaseOption
from benchmarks.selectors import databases, network


def comma_list(value: str) -> tuple[str, ...]:
    """`a, b,,c` -> ("a", "b", "c")."""
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


class QueryForm(forms.Form):
    """A form whose unknown query parameters are the benchmark's own (`threads=16`)."""

    date_error = {"invalid": "Date has wrong format. Use YYYY-MM-DD."}

    def __init__(self, data, *args, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.params = {
            name: data.get(name)
            for name in data
            if name not in self.fields and name not in RESERVED and data.get(name)
        }

    def error_dict(self) -> dict[str, list[str]]:
        """The errors as the API answers them: {field: [message, ...]}."""
        return {
            ("detail" if name == "__all__" else name): [error["message"] for error in errors]
            for name, errors in self.errors.get_json_data().items()
        }

    def error_text(self) -> str:
        """The errors in one line, for a page."""
        return "; ".join(
            f"{name}: {' '.join(messages)}" for name, messages in self.error_dict().items()
        )


class NetworkScalingForm(QueryForm):
    """`network-scaling/` and `/network/`: a bandwidth benchmark, types, where prices come from."""

    benchmark = forms.CharField(required=False, max_length=120, help_text="default iperf3:tcp")
    direction = forms.ChoiceField(
        required=False, choices=[(d, d) for d in network.DIRECTIONS], help_text="default receive"
    )
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated instance types"
    )
    region = forms.CharField(
        required=False, max_length=32, help_text="Prices from this region: Gbit/s per dollar-hour"
    )
    purchase_option = forms.ChoiceField(required=False, choices=PurchaseOption.choices)
    at = forms.DateField(
        required=False, input_formats=["%Y-%m-%d"], error_messages=QueryForm.date_error
    )

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


class DatabaseForm(QueryForm):
    """`database-price-performance/` and `/databases/`: RDS and Aurora side by side."""

    benchmark = forms.CharField(max_length=120, help_text="e.g. sysbench:oltp_read_write:queries")
    region = forms.CharField(max_length=32, help_text="Region whose prices apply")
    engine = forms.CharField(
        required=False,
        max_length=200,
        help_text=f"Comma-separated engines ({', '.join(databases.ENGINES)}); default all",
    )
    deployment_option = forms.ChoiceField(
        required=False,
        choices=[(option, option) for option in databases.DEPLOYMENT_OPTIONS],
        help_text="Single-AZ (default) or Multi-AZ",
    )
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated DB instance classes"
    )
    at = forms.DateField(
        required=False, input_formats=["%Y-%m-%d"], error_messages=QueryForm.date_error
    )

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
    at = forms.DateField(
        required=False, input_formats=["%Y-%m-%d"], error_messages=QueryForm.date_error
    )

    def selector_arguments(self) -> dict:
        """The validated question as `volume_performance.volume_performance`'s keywords."""
        data = self.cleaned_data
        return {
            "region_code": data["region"],
            "benchmark_key": data.get("benchmark") or "fio:randread",
            "at": data.get("at"),
            "params": self.params,
        }
