"""The FilterSet of `volume-prices/`."""

import django_filters

from api.filters import DayFilter, FilterSet, IntegerFilter
from benchmarks.models import VolumePrice, in_force_on


class VolumePriceFilter(FilterSet):
    """`volume-prices/?region=&volume_type=&component=&at=`: without `at`, every period."""

    region = django_filters.CharFilter(field_name="region__code")
    tier = IntegerFilter()
    at = DayFilter(method="filter_at", label="Prices in force that day")

    class Meta:
        model = VolumePrice
        fields = ["region", "volume_type", "component", "tier", "at"]

    def filter_at(self, queryset, name, value):
        return queryset.filter(in_force_on(value))
