"""FilterSets: the query parameters of the list endpoints, validated in one place.

Invalid values (an unknown region, a purchase option that does not exist, a malformed date,
a day the calendar does not have, a number not in ASCII digits) answer 400 naming the
parameter, never an empty list.
"""

import django_filters
from django import forms

from benchmarks.models import (
    Architecture,
    Benchmark,
    FargateRate,
    InstanceType,
    OfferingClass,
    Payment,
    Plan,
    Price,
    PurchaseOption,
    Region,
    Run,
    Term,
    Vendor,
    in_family,
)
from benchmarks.questions.base import DayField, non_ascii_numbers


class FilterForm(forms.Form):
    """A FilterSet's form: numbers and days in ASCII digits, as every question's."""

    def full_clean(self):
        super().full_clean()
        if self.is_bound:
            non_ascii_numbers(self)


class FilterSet(django_filters.FilterSet):
    """django-filter's FilterSet, its form a `FilterForm`."""

    def get_form_class(self):
        form = super().get_form_class()
        return type(form.__name__, (FilterForm, form), {})


class DayFilter(django_filters.DateFilter):
    """A day, YYYY-MM-DD: one that does not exist (`2017-02-30`) is refused saying so."""

    field_class = DayField


class StrictBooleanField(forms.NullBooleanField):
    """`true` or `false` (any case); anything else is an error, never "no filter"."""

    widget = forms.TextInput

    def to_python(self, value):
        if value in (None, ""):
            return None
        text = str(value).lower()
        if text not in ("true", "false"):
            raise forms.ValidationError("must be true or false", code="invalid")
        return text == "true"


class BooleanFilter(django_filters.BooleanFilter):
    """A boolean query parameter that refuses what is neither true nor false."""

    field_class = StrictBooleanField


class IntegerFilter(django_filters.NumberFilter):
    """A whole-number query parameter: `tier=0.5` is an error, not an empty list."""

    field_class = forms.IntegerField


class AtLeastFilter(django_filters.NumberFilter):
    """A lower bound (`vcpus_min=4`: 4 or more), a number from 0, as the finder page takes it."""

    def __init__(self, field_name: str, help_text: str):
        super().__init__(field_name=field_name, lookup_expr="gte", min_value=0, help_text=help_text)


class AtMostFilter(django_filters.NumberFilter):
    """An upper bound (`vcpus_max=8`: 8 or fewer), a number from 0."""

    def __init__(self, field_name: str, help_text: str):
        super().__init__(field_name=field_name, lookup_expr="lte", min_value=0, help_text=help_text)


def _region_filter(field_name: str = "region") -> django_filters.ModelChoiceFilter:
    return django_filters.ModelChoiceFilter(
        field_name=field_name,
        to_field_name="code",
        queryset=Region.objects.all(),
        help_text="Region code, e.g. us-east-1 (AWS), fsn1 (Hetzner)",
    )


class PriceFilter(FilterSet):
    """`prices/?region=&instance_type=&purchase_option=&at=`: without `at`, every period;
    `term`, `payment`, `offering_class` and `plan` narrow the commitments."""

    region = _region_filter()
    vendor = django_filters.ChoiceFilter(field_name="instance_type__vendor", choices=Vendor.choices)
    instance_type = django_filters.CharFilter(field_name="instance_type__name")
    purchase_option = django_filters.ChoiceFilter(choices=PurchaseOption.choices)
    availability_zone = django_filters.CharFilter()
    os = django_filters.CharFilter(help_text="linux (every AWS price pricebench reads)")
    term = django_filters.ChoiceFilter(choices=Term.choices)
    payment = django_filters.ChoiceFilter(choices=Payment.choices)
    offering_class = django_filters.ChoiceFilter(choices=OfferingClass.choices)
    plan = django_filters.ChoiceFilter(choices=Plan.choices)
    at = DayFilter(method="filter_at", label="Prices in force that day")

    class Meta:
        model = Price
        fields = [
            "region",
            "instance_type",
            "purchase_option",
            "availability_zone",
            "os",
            "term",
            "payment",
            "offering_class",
            "plan",
            "at",
        ]

    def filter_at(self, queryset, name, value):
        return queryset.in_force_on(value)


class FargateRateFilter(FilterSet):
    """`fargate-rates/?region=&architecture=&at=`: without `at`, every period."""

    region = _region_filter()
    architecture = django_filters.ChoiceFilter(choices=Architecture.choices)
    component = django_filters.ChoiceFilter(choices=FargateRate.Component.choices)
    purchase_option = django_filters.ChoiceFilter(
        choices=[
            (option, label)
            for option, label in PurchaseOption.choices
            if option in ("on_demand", "fargate_spot", "savings_plan")
        ]
    )
    term = django_filters.ChoiceFilter(choices=Term.choices)
    payment = django_filters.ChoiceFilter(choices=Payment.choices)
    plan = django_filters.ChoiceFilter(choices=Plan.choices)
    at = DayFilter(method="filter_at", label="Rates in force that day")

    class Meta:
        model = FargateRate
        fields = [
            "region",
            "architecture",
            "component",
            "purchase_option",
            "term",
            "payment",
            "plan",
            "at",
        ]

    def filter_at(self, queryset, name, value):
        return queryset.in_force_on(value)


class InstanceTypeFilter(FilterSet):
    """`instance-types/`: the finder page's filters (`vcpus_min`, `vcpus_max`, `memory_min`,
    `memory_max`, `architecture`, `burstable`, `family`, `cpu_model`), plus `vendor` and
    `kind`; a minimum above its maximum is a 400 naming both."""

    vendor = django_filters.ChoiceFilter(choices=Vendor.choices)
    kind = django_filters.ChoiceFilter(choices=InstanceType.Kind.choices)
    architecture = django_filters.ChoiceFilter(choices=Architecture.choices)
    family = django_filters.CharFilter(method="filter_family")
    burstable = BooleanFilter()
    vcpus_min = AtLeastFilter("vcpus", "At least this many vCPUs")
    vcpus_max = AtMostFilter("vcpus", "At most this many vCPUs")
    memory_min = AtLeastFilter("memory_gib", "At least this much memory, GiB")
    memory_max = AtMostFilter("memory_gib", "At most this much memory, GiB")
    cpu_model = django_filters.CharFilter(
        lookup_expr="icontains", help_text="Part of the CPU model's name, e.g. Neoverse"
    )

    # (lower bound, upper bound): the one may not be above the other.
    RANGES = (("vcpus_min", "vcpus_max"), ("memory_min", "memory_max"))

    class Meta:
        model = InstanceType
        fields = ["vendor", "kind", "architecture", "burstable", "family", "cpu_model"]

    def filter_family(self, queryset, name, value):
        return queryset.filter(in_family(value))

    def is_valid(self):
        valid = super().is_valid()
        if valid:
            data = self.form.cleaned_data
            for low, high in self.RANGES:
                if data.get(low) is not None and data.get(high) is not None:
                    if data[low] > data[high]:
                        self.form.add_error(high, f"{high} is below {low} ({data[low]})")
        return self.is_bound and self.form.is_valid()


class RunFilter(FilterSet):
    """`format` (or `output_format`) filters by the tool whose output a run holds."""

    instance_type = django_filters.CharFilter(field_name="instance_type__name")
    region = _region_filter()
    status = django_filters.ChoiceFilter(choices=Run.Status.choices)
    output_format = django_filters.CharFilter(
        field_name="format", help_text="The parsed format, e.g. openssl (alias: format)"
    )
    format = django_filters.CharFilter(
        field_name="format", help_text="Same as output_format, unless csv or json (the renderers)"
    )
    benchmark = django_filters.CharFilter(field_name="results__benchmark__key", distinct=True)

    class Meta:
        model = Run
        fields = ["instance_type", "region", "variant", "status", "output_format", "benchmark"]


class BenchmarkFilter(FilterSet):
    tool = django_filters.CharFilter(method="filter_tool", label="The tool, e.g. openssl")
    higher_is_better = BooleanFilter()

    class Meta:
        model = Benchmark
        fields = ["tool", "group", "higher_is_better"]

    def filter_tool(self, queryset, name, value):
        return queryset.filter(key__startswith=f"{value}:")


class RegionFilter(FilterSet):
    vendor = django_filters.ChoiceFilter(choices=Vendor.choices)

    class Meta:
        model = Region
        fields = ["code", "vendor"]
