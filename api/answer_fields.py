"""Fields that several answers declare alike, created in order where a serializer's body
unpacks them (`runs, median, min, max = run_statistics()`), so each answer keeps its order."""

from rest_framework import serializers


def run_statistics() -> tuple[serializers.Field, ...]:
    """A group of runs: how many, then the median, least and greatest value."""
    return (
        serializers.IntegerField(),
        serializers.FloatField(),
        serializers.FloatField(),
        serializers.FloatField(),
    )


def benchmark_fields() -> tuple[serializers.Field, ...]:
    """The benchmark an answer is about: its key, its unit and which way is better."""
    return (
        serializers.CharField(source="benchmark.key"),
        serializers.CharField(source="benchmark.unit"),
        serializers.BooleanField(source="benchmark.higher_is_better"),
    )


def price_period_fields() -> tuple[serializers.Field, ...]:
    """The period a price used is in force (its last day; null while in force) and its
    source."""
    return (
        serializers.DateField(),
        serializers.DateField(allow_null=True),
        serializers.CharField(),
    )
