"""API views of network bandwidth (study S3): Gbit/s against streams and processes."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.models import PurchaseOption
from benchmarks.selectors import network


class NetworkScalingQuerySerializer(serializers.Serializer):
    """`network-scaling/`: which bandwidth, which types, and where prices come from."""

    benchmark = serializers.CharField(default="iperf3:tcp", help_text="A bit/s benchmark")
    direction = serializers.ChoiceField(choices=network.DIRECTIONS, default="receive")
    instance_types = serializers.CharField(
        required=False, allow_blank=True, help_text="Comma-separated instance types"
    )
    region = serializers.CharField(
        required=False, help_text="Prices from this region: adds Gbit/s per dollar-hour"
    )
    purchase_option = serializers.ChoiceField(
        choices=PurchaseOption.values, default=PurchaseOption.ON_DEMAND
    )
    at = serializers.DateField(required=False, help_text="Prices in force that day")


class ScalingPointSerializer(serializers.Serializer):
    processes = serializers.IntegerField()
    streams = serializers.IntegerField(help_text="Streams (-P) of each process")
    runs = serializers.IntegerField()
    median_gbit_per_second = serializers.FloatField()
    min_gbit_per_second = serializers.FloatField()
    max_gbit_per_second = serializers.FloatField()
    gbit_per_second_per_usd_hour = serializers.FloatField(allow_null=True)


class ScalingCurveSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    advertised_bandwidth = serializers.CharField(allow_null=True)
    usd_per_hour = serializers.FloatField(allow_null=True)
    price_note = serializers.CharField(allow_null=True)
    points = ScalingPointSerializer(many=True)


class NetworkScalingSerializer(serializers.Serializer):
    benchmark = serializers.CharField(source="benchmark.key")
    unit = serializers.SerializerMethodField()
    direction = serializers.CharField()
    region = serializers.CharField(allow_null=True)
    purchase_option = serializers.CharField()
    at = serializers.DateField()
    results = ScalingCurveSerializer(many=True, source="curves")

    def get_unit(self, answer) -> str:
        return "Gbit/s"


class NetworkScalingView(APIView):
    """Bandwidth per instance type against processes and streams (a curve per type), with
    the type's advertised bandwidth; `format=csv` answers one row per point."""

    @extend_schema(parameters=[NetworkScalingQuerySerializer], responses=NetworkScalingSerializer)
    def get(self, request):
        query = NetworkScalingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        answer = network.network_scaling(
            benchmark_key=data["benchmark"],
            direction=data["direction"],
            instance_types=tuple(
                name.strip() for name in data.get("instance_types", "").split(",") if name.strip()
            ),
            region_code=data.get("region"),
            purchase_option=data["purchase_option"],
            at=data.get("at"),
        )
        if request.accepted_renderer.format == "csv":
            return Response({"results": answer.rows})
        return Response(NetworkScalingSerializer(answer).data)
