"""API views of unit prices (a vCPU-hour and a GiB-hour on each type of a few families) and
of the cheapest regions for one type."""

from rest_framework import serializers

from api.answer_fields import purchase_fields
from api.question_views import QuestionView
from benchmarks.questions.cheapest_regions import CheapestRegionsForm
from benchmarks.questions.unit_prices import UnitPricesForm
from benchmarks.selectors.costs import cheapest_regions, unit_prices


class UnitPriceRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField(help_text="An EC2 type or a Fargate task size")
    family = serializers.CharField()
    architecture = serializers.CharField(allow_null=True)
    vcpus = serializers.FloatField(allow_null=True)
    memory_gib = serializers.FloatField(allow_null=True)
    usd_per_hour = serializers.FloatField()
    usd_per_vcpu_hour = serializers.FloatField(
        allow_null=True, help_text="usd_per_hour / vcpus (null: vCPUs unknown)"
    )
    usd_per_gib_hour = serializers.FloatField(
        allow_null=True, help_text="usd_per_hour / memory_gib (null: memory unknown)"
    )
    price_effective_from = serializers.DateField(help_text="The day the price used came into force")
    price_note = serializers.CharField(
        allow_null=True, help_text="Why this price, when it is not simply the one in force"
    )
    upfront_usd = serializers.FloatField(
        allow_null=True, help_text="With a commitment: its upfront fee (null otherwise)"
    )
    hourly_usd = serializers.FloatField(
        allow_null=True, help_text="With a commitment: its hourly fee (null otherwise)"
    )
    usd_per_sustained_vcpu_hour = serializers.FloatField(
        allow_null=True,
        help_text="Burstable types: usd_per_vcpu_hour / baseline_share, a vCPU-hour at what the "
        "type sustains once its CPU credits are spent (null otherwise)",
    )


class FamilySummarySerializer(serializers.Serializer):
    family = serializers.CharField()
    architecture = serializers.CharField(allow_null=True)
    instance_types = serializers.IntegerField(help_text="Types (task sizes) priced")
    usd_per_vcpu_hour = serializers.FloatField(allow_null=True, help_text="The cheapest")
    vcpu_hour_instance_type = serializers.CharField(allow_null=True)
    usd_per_gib_hour = serializers.FloatField(allow_null=True, help_text="The cheapest")
    gib_hour_instance_type = serializers.CharField(allow_null=True)


class MissingSerializer(serializers.Serializer):
    family = serializers.CharField()
    instance_type = serializers.CharField(allow_null=True)
    reason = serializers.CharField()


class FargateRatesSerializer(serializers.Serializer):
    architecture = serializers.CharField()
    usd_per_vcpu_hour = serializers.FloatField()
    usd_per_gb_hour = serializers.FloatField()
    effective_from = serializers.DateField()
    price_note = serializers.CharField(allow_null=True)


class UnitPricesSerializer(serializers.Serializer):
    region = serializers.CharField(source="region.code")
    families = serializers.ListField(child=serializers.CharField())
    purchase_option = serializers.CharField()
    term, payment, offering_class, plan, spot_zone = purchase_fields("purchase.answer_fields")
    at = serializers.DateField()
    results = UnitPriceRowSerializer(many=True)
    summary = FamilySummarySerializer(many=True)
    missing = MissingSerializer(many=True)
    fargate_rates = FargateRatesSerializer(many=True)


class UnitPricesView(QuestionView):
    """What a vCPU-hour and a GiB-hour cost on each type of the families asked (Fargate, t2,
    c7g, c7a and c7i by default), with each family's cheapest per architecture; what cannot
    be priced is listed under `missing` with the reason. `format=csv` answers the rows."""

    query_form = UnitPricesForm
    selector = staticmethod(unit_prices.unit_prices)
    serializer_class = UnitPricesSerializer


class RegionPriceSerializer(serializers.Serializer):
    region = serializers.CharField()
    usd_per_hour = serializers.FloatField(help_text="With a commitment: the effective hourly price")
    price_effective_from = serializers.DateField(allow_null=True)
    price_note = serializers.CharField(allow_null=True)
    upfront_usd = serializers.FloatField(allow_null=True)
    hourly_usd = serializers.FloatField(allow_null=True)


class CheapestRegionsSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    purchase_option = serializers.CharField()
    term, payment, offering_class, plan, spot_zone = purchase_fields("purchase.answer_fields")
    at = serializers.DateField()
    results = RegionPriceSerializer(many=True)


class CheapestRegionsView(QuestionView):
    """Every region with a price for one instance type (or Fargate task size), bought the way
    asked, cheapest first; an empty list when no region has such a price."""

    query_form = CheapestRegionsForm
    selector = staticmethod(cheapest_regions.cheapest_regions)
    serializer_class = CheapestRegionsSerializer
