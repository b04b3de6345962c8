"""How sure a price-performance answer is, as the schema declares it: the benchmark's noise
(quantiles, tie margin, calibration), the best family, and a row's 90% intervals."""

from rest_framework import serializers

# What a benchmark's noise was measured on; named in the schema apart from the answer's
# `basis` (sustained, burst, unlimited) by SPECTACULAR_SETTINGS' ENUM_NAME_OVERRIDES.
NOISE_BASES = ["repeats", "peers", "repeats and peers", "members"]


class IntervalSerializer(serializers.Serializer):
    low = serializers.FloatField()
    high = serializers.FloatField()
    level = serializers.FloatField(help_text="0.9: a second run lands inside 9 times in 10")


class QuantilesSerializer(serializers.Serializer):
    p50 = serializers.FloatField()
    p90 = serializers.FloatField()
    p95 = serializers.FloatField()
    p99 = serializers.FloatField()


class CalibrationSerializer(serializers.Serializer):
    pairs = serializers.IntegerField(help_text="Held-out pairs (the newer half, in time)")
    beyond_tie_margin = serializers.FloatField(
        allow_null=True, help_text="Share of held-out pairs whose difference is beyond the margin"
    )
    interval_coverage = serializers.FloatField(
        allow_null=True, help_text="Share of held-out second runs inside the interval"
    )
    level = serializers.FloatField()


class NoiseSerializer(serializers.Serializer):
    relative = serializers.FloatField(
        help_text="The typical difference of two runs of one machine (the median of max/min - 1)"
    )
    series = serializers.IntegerField(help_text="The series the pairs come from")
    method = serializers.CharField(help_text="How it was measured, in words")
    tie_margin = serializers.FloatField(
        required=False,
        help_text="Two figures differ only when their ratio is beyond 1 ± this: the 95% quantile",
    )
    quantiles = QuantilesSerializer(
        required=False, help_text="|ratio - 1| (max/min - 1) between two runs of one machine"
    )
    basis = serializers.ChoiceField(choices=NOISE_BASES, required=False)
    calibration = CalibrationSerializer(
        required=False,
        allow_null=True,
        help_text="Measured on pairs held out of the estimate (older runs estimate, newer test)",
    )
    pairs = serializers.IntegerField(required=False, help_text="Pairs the quantiles come from")
    groups = serializers.DictField(
        required=False,
        help_text="Per vendor and CPU allocation with enough pairs (`aws dedicated`, "
        "`dedicated`): pairs, quantiles and tie_margin; rows of a group use its margin",
    )


class BestFamilySerializer(serializers.Serializer):
    family = serializers.CharField(help_text="The winner's family")
    types = serializers.ListField(
        child=serializers.CharField(), help_text="Its types within noise of the winner"
    )
    lead = serializers.FloatField(
        allow_null=True,
        help_text="The winner's lead over the best type of any other family, as a fraction",
    )


def standing_fields() -> tuple[tuple[str, serializers.Field], ...]:
    """A price-performance row's fields of where it stands (selectors/answer/standing.py), in
    order."""
    return (
        (
            "rank",
            serializers.IntegerField(
                allow_null=True,
                help_text="1 = most per dollar on the basis asked; null without a price",
            ),
        ),
        (
            "rank_range",
            serializers.ListField(
                child=serializers.IntegerField(),
                allow_null=True,
                help_text="[best, worst]: the ranks the row could take, two rows differing only "
                "beyond the wider of their tie margins",
            ),
        ),
        (
            "spread",
            serializers.FloatField(
                allow_null=True,
                help_text="(max - min) / median of the row's own runs; null with one run",
            ),
        ),
        (
            "tie_margin",
            serializers.FloatField(
                allow_null=True,
                help_text="The lead another row must exceed to differ from this one: its "
                "vendor's and CPU allocation's tie margin (`noise.groups`, else the "
                "benchmark's), or max/min - 1 of its own runs where wider",
            ),
        ),
        (
            "interval",
            IntervalSerializer(
                allow_null=True,
                help_text="Where a second run lands 9 times in 10: the 90% quantile of the "
                "repeat distribution either side of `median`, widened to cover the row's own "
                "runs; null without a measured noise",
            ),
        ),
        (
            "per_dollar_interval",
            IntervalSerializer(
                allow_null=True, help_text="`interval` as what a dollar buys (`per_dollar`)"
            ),
        ),
    )
