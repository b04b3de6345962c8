"""Serializers of the EBS volume endpoints: what they answer."""

from rest_framework import serializers

from api.answer_fields import price_period_fields
from api.serializers import DatedPriceSerializer
from benchmarks.models import VolumePrice
from benchmarks.storage import volumes


class VolumePriceSerializer(DatedPriceSerializer):
    unit = serializers.SerializerMethodField()
    usd_per_unit_month = serializers.FloatField()

    class Meta:
        model = VolumePrice
        fields = [
            "region",
            "volume_type",
            "component",
            "tier",
            "unit",
            "usd_per_unit_month",
            *DatedPriceSerializer.PERIOD,
        ]

    def get_unit(self, price: VolumePrice) -> str:
        return volumes.UNITS[price.component]


class VolumeCostPartSerializer(serializers.Serializer):
    what = serializers.CharField(help_text="storage, iops or throughput")
    tier = serializers.IntegerField()
    quantity = serializers.IntegerField()
    unit = serializers.CharField()
    usd_per_unit_month = serializers.FloatField()
    usd_per_month = serializers.FloatField()
    effective_from, effective_to, source = price_period_fields()
    price_note = serializers.CharField(allow_null=True)


class VolumeCostSerializer(serializers.Serializer):
    region = serializers.CharField()
    volume_type = serializers.CharField()
    size_gb = serializers.IntegerField()
    iops = serializers.IntegerField(allow_null=True)
    throughput = serializers.IntegerField(allow_null=True)
    at = serializers.DateField()
    usd_per_month = serializers.FloatField()
    parts = VolumeCostPartSerializer(many=True)
    baseline_iops = serializers.IntegerField(allow_null=True)
    max_iops = serializers.IntegerField()
    baseline_throughput = serializers.FloatField(allow_null=True)
    max_throughput = serializers.FloatField(allow_null=True)


class Gp2BurstSerializer(serializers.Serializer):
    size_gb = serializers.IntegerField()
    iops = serializers.IntegerField(source="load_iops")
    seconds = serializers.IntegerField()
    baseline_iops = serializers.IntegerField()
    burst_iops = serializers.IntegerField()
    iops_while_credits_last = serializers.IntegerField()
    iops_once_credits_run_out = serializers.IntegerField()
    burst_seconds = serializers.IntegerField(
        allow_null=True, help_text="Null: the baseline meets the load; credits never run out."
    )
    credits_run_out = serializers.BooleanField()
    full_refill_seconds = serializers.IntegerField()
    timeline = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    )
