"""API view of what one instance type costs over 1 month, 1 year and 3 years of use (always on,
or some hours a month), every way it can be paid in one region."""

from rest_framework import serializers

from api.question_views import QuestionView
from benchmarks.questions.commitment_cost import CommitmentCostForm
from benchmarks.selectors.costs import commitment_cost


class PeriodCostSerializer(serializers.Serializer):
    period = serializers.CharField(help_text="1m (730 hours), 1y (8,760) or 3y (26,280)")
    hours = serializers.IntegerField(help_text="The period's hours")
    hours_used = serializers.IntegerField(
        help_text="The hours of use in it: hours_per_month a month (on demand and spot bill these)"
    )
    upfront_usd = serializers.FloatField(help_text="The upfront fee of each term started")
    hourly_usd = serializers.FloatField(
        help_text="The hourly fee times the hours used (on demand, spot) or billed (a commitment: "
        "every hour of the period)"
    )
    total_usd = serializers.FloatField(help_text="upfront_usd + hourly_usd")
    committed_usd = serializers.FloatField(
        help_text="What the terms started bind the buyer to pay, the hours used or not"
    )
    cheapest = serializers.BooleanField(
        help_text="The lowest total_usd of every option for this period (ties: each)"
    )


class OptionCostSerializer(serializers.Serializer):
    purchase_option = serializers.CharField()
    term = serializers.CharField(allow_null=True)
    payment = serializers.CharField(allow_null=True)
    offering_class = serializers.CharField(allow_null=True)
    plan = serializers.CharField(allow_null=True)
    spot_zone = serializers.CharField(allow_null=True, help_text="With spot: median")
    usd_per_hour = serializers.FloatField(help_text="With a commitment: the effective hourly price")
    upfront_usd = serializers.FloatField(allow_null=True)
    hourly_usd = serializers.FloatField(allow_null=True)
    price_effective_from = serializers.DateField(allow_null=True)
    price_note = serializers.CharField(allow_null=True)
    break_even_month = serializers.IntegerField(
        allow_null=True,
        help_text="A commitment's first month whose cumulative cost is at or below on demand's "
        "for the hours used (null: not a commitment, no on-demand price, or never within the term)",
    )
    costs = PeriodCostSerializer(many=True)


class CommitmentCostSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    region = serializers.CharField()
    at = serializers.DateField()
    hours_per_month = serializers.IntegerField(
        help_text="The hours of use a month the costs are for (730, AWS's month: always on)"
    )
    results = OptionCostSerializer(many=True)
    note = serializers.CharField(allow_null=True, help_text="Why some or all of it is missing")


class CommitmentCostView(QuestionView):
    """What 1 month, 1 year and 3 years of one instance type cost in one region: on demand,
    spot (the median zone), each Reserved term and Savings Plan with a price, each split into
    upfront and hourly parts, with each commitment's break-even month against on demand."""

    query_form = CommitmentCostForm
    selector = staticmethod(commitment_cost.commitment_cost)
    serializer_class = CommitmentCostSerializer
