"""The query objects: one form validates each question (price-performance, network
bandwidth, databases, fio on volumes) for the API and the page, which call the same selector."""

from __future__ import annotations

from django import forms

from benchmarks.models import PurchaseOption
from benchmarks.selectors import databases, network
from benchmarks.selectors.price_performance import PricePerformanceQuery

# Query parameters that belong to the API's machinery, never to a benchmark.
RESERVED = frozenset({"format", "limit", "offset", "page_size", "csrfmiddlewaretoken"})
MAX_PARAMS = 20
INCLUDES = ("values", "quartiles")


def comma_list(value: str | None) -> tuple[str, ...]:
    """`a, b,,c` -> ("a", "b", "c")."""
    return tuple(item.strip() for item in (value or "").split(",") if item.strip())


class PricePerformanceForm(forms.Form):
    """`benchmark`, `region` and the options of a price-performance question.

    Every other query parameter is one of the benchmark's own (`block_size=8192`); whether the
    benchmark has it is the selector's check, which knows the benchmark.
    """

    benchmark = forms.CharField(max_length=120, help_text="Benchmark key, e.g. openssl:sha256")
    region = forms.CharField(max_length=32, help_text="Region whose prices apply, e.g. us-east-1")
    purchase_option = forms.ChoiceField(
        choices=PurchaseOption.choices,
        required=False,
        help_text="on_demand (default), spot, ...",
        error_messages={"invalid_choice": "%(value)s is not a valid choice."},
    )
    at = forms.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        help_text="Prices in force that day, YYYY-MM-DD (default today)",
        error_messages={"invalid": "Date has wrong format. Use YYYY-MM-DD."},
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    instance_types = forms.CharField(
        required=False, max_length=10_000, help_text="Comma-separated instance types"
    )
    families = forms.CharField(
        required=False, max_length=2_000, help_text="Comma-separated families, e.g. fargate,c7g"
    )
    baseline = forms.CharField(
        required=False, max_length=200, help_text="INSTANCE_TYPE or INSTANCE_TYPE:VARIANT"
    )
    measured_in = forms.CharField(
        required=False,
        max_length=32,
        help_text="Only results measured in this region (default: measured anywhere)",
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
        if hasattr(data, "getlist") and len(data.getlist("families")) > 1:
            # The page's family checkboxes send one value each (and an empty one, so that
            # none ticked means every family): one comma-separated list, as the API takes.
            data = data.copy()
            data.setlist("families", [",".join(v for v in data.getlist("families") if v)])
        super().__init__(data, *args, **kwargs)
        for name in optional:
            self.fields[name].required = False
        self.param_names = [
            name for name in data if name not in self.fields and name not in RESERVED
        ]

    def clean_include(self) -> tuple[str, ...]:
        extras = comma_list(self.cleaned_data["include"])
        unknown = sorted(set(extras) - set(INCLUDES))
        if unknown:
            raise forms.ValidationError(
                f"{', '.join(unknown)}: not a valid choice; choose from {', '.join(INCLUDES)}"
            )
        return extras

    def clean(self):
        cleaned = super().clean()
        if len(self.param_names) > MAX_PARAMS:
            raise forms.ValidationError(f"at most {MAX_PARAMS} benchmark parameters")
        params = {}
        for name in self.param_names:
            value = self.data.get(name, "")
            if len(name) > 100 or len(value) > 200:
                self.add_error(None, f"parameter {name[:100]!r} is too long")
            elif value != "":
                params[name] = value
        cleaned["params"] = params
        return cleaned

    def query(self, **defaults) -> PricePerformanceQuery:
        """The validated question; `defaults` fill what the caller left optional."""
        # An invalid form still gives the page a question: its valid fields, defaults else.
        data = self.cleaned_data
        return PricePerformanceQuery(
            benchmark=data.get("benchmark") or defaults.get("benchmark", ""),
            region=data.get("region") or defaults.get("region", ""),
            purchase_option=data.get("purchase_option") or PurchaseOption.ON_DEMAND,
            at=data.get("at"),
            params=data.get("params", {}),
            instance_types=comma_list(data.get("instance_types", "")),
            # The page compares its default families unless asked; `families=` means all.
            families=comma_list(data.get("families", ""))
            if "families" in self.data
            else defaults.get("families", ()),
            baseline=data.get("baseline") or None,
            measured_in=data.get("measured_in") or None,
            include_values="values" in data.get("include", ()),
            include_quartiles="quartiles" in data.get("include", ()),
        )

    def error_dict(self) -> dict[str, list[str]]:
        """The errors as the API answers them: {field: [message, ...]}."""
        return {
            ("detail" if name == "__all__" else name): [error["message"] for error in errors]
            for name, errors in self.errors.get_json_data().items()
        }


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
