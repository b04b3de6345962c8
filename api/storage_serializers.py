"""Serializers of the EBS volume endpoints: the queries they validate and what they answer."""

from rest_framework import serializers
from rest_framework.settings import api_settings

from api.answer_fields import price_period_fields
from benchmarks.errors import DomainError
from benchmarks.models import VolumePrice
from benchmarks.storage import gp2, volumes


def _domain_check(check, *args, **kwargs):
    """Run a pure check; its DomainError becomes a 400 naming the field."""
    try:
        return check(*args, **kwargs)
    except DomainError as error:
        raise serializers.ValidationError(
            {error.field or api_settings.NON_FIELD_ERRORS_KEY: [error.message]}
        ) from None


class VolumePriceSerializer(serializers.ModelSerializer):
    region = serializers.CharField(source="region.code")
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
            "effective_from",
            "effective_to",
            "source",
        ]

    def get_unit(self, price: VolumePrice) -> str:
        return volumes.UNITS[price.component]


class VolumeCostQuerySerializer(serializers.Serializer):
    """`volume-cost/`: a volume AWS would create, in a region, on a day (default today)."""

    region = serializers.CharField()
    volume_type = serializers.ChoiceField(choices=volumes.VOLUME_TYPES)
    size_gb = serializers.IntegerField(help_text="Size in GB (GiB, as AWS sizes volumes).")
    iops = serializers.IntegerField(
        required=False, help_text="Provisioned IOPS: required for io1 and io2; gp3 from 3,000."
    )
    throughput = serializers.IntegerField(
        required=False, help_text="gp3's provisioned throughput in MiB/s (from 125)."
    )
    at = serializers.DateField(required=False, help_text="Prices in force that day.")

    def validate(self, attrs):
        _domain_check(
            volumes.volume,
            attrs["volume_type"],
            attrs["size_gb"],
            iops=attrs.get("iops"),
            throughput=attrs.get("throughput"),
        )
        return attrs


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


class Gp2BurstQuerySerializer(serializers.Serializer):
    """`gp2-burst/`: a gp2 volume's size, the constant load on it and the time to show."""

    size_gb = serializers.IntegerField()
    iops = serializers.IntegerField(
        required=False, default=gp2.DEFAULT_LOAD_IOPS, help_text="The constant load, IOPS."
    )
    seconds = serializers.IntegerField(
        required=False, default=gp2.DEFAULT_SECONDS, help_text="How long the timeline runs."
    )

    def validate(self, attrs):
        attrs["burst"] = _domain_check(
            gp2.gp2_burst, attrs["size_gb"], iops=attrs["iops"], seconds=attrs["seconds"]
        )
        return attrs


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
