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


def purchase_fields(source: str = "") -> tuple[serializers.Field, ...]:
    """How an answer's prices are paid: term, payment, offering class, plan and spot zone,
    null where they do not apply (`Purchase.answer_fields` writes them). `source` is the
    dotted path to that method's answer on the object serialized, e.g.
    "purchase.answer_fields"; empty for an answer written as a dict with those keys."""

    def field(name: str, help_text: str) -> serializers.CharField:
        where = {"source": f"{source}.{name}"} if source else {}
        return serializers.CharField(allow_null=True, help_text=help_text, **where)

    return (
        field("term", "With a commitment: 1y or 3y"),
        field("payment", "With a commitment: no_upfront, partial_upfront, all_upfront"),
        field("offering_class", "With reserved: standard or convertible"),
        field("plan", "With savings_plan: compute or ec2_instance"),
        field("spot_zone", "With spot: median or cheapest"),
    )
