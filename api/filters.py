"""FilterSets: the query parameters of the list endpoints, validated in one place."""

import django_filters

from benchmarks.models import Benchmark, InstanceType, Price, Region, Run, in_family, in_force_on


class PriceFilter(django_filters.FilterSet):
    """`prices/?region=&instance_type=&purchase_option=&at=`: without `at`, every period."""

    region = django_filters.CharFilter(field_name="region__code")
    instance_type = django_filters.CharFilter(field_name="instance_type__name")
    purchase_option = django_filters.CharFilter()
    availability_zone = django_filters.CharFilter()
    at = django_filters.DateFilter(method="filter_at", label="Prices in force that day")

    class Meta:
        model = Price
        fields = ["region", "instance_type", "purchase_option", "availability_zone", "at"]

    def filter_at(self, queryset, name, value):
        return queryset.filter(in_force_on(value))


class InstanceTypeFilter(django_filters.FilterSet):
    family = django_filters.CharFilter(method="filter_family")

    class Meta:
        model = InstanceType
        fields = ["kind", "architecture", "burstable", "family"]

    def filter_family(self, queryset, name, value):
        return queryset.filter(in_family(value))


class RunFilter(django_filters.FilterSet):
    instance_type = django_filters.CharFilter(field_name="instance_type__name")
    region = django_filters.CharFilter(field_name="region__code")
    benchmark = django_filters.CharFilter(field_name="results__benchmark__key", distinct=True)

    class Meta:
        model = Run
        fields = ["instance_type", "region", "variant", "status", "format", "benchmark"]


class BenchmarkFilter(django_filters.FilterSet):
    tool = django_filters.CharFilter(method="filter_tool", label="The tool, e.g. openssl")

    class Meta:
        model = Benchmark
        fields = ["tool", "higher_is_better"]

    def filter_tool(self, queryset, name, value):
        return queryset.filter(key__startswith=f"{value}:")


class RegionFilter(django_filters.FilterSet):
    class Meta:
        model = Region
        fields = ["code"]
