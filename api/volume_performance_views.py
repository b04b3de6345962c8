"""API view of fio on EBS volumes: IOPS and MB/s per dollar-month, burst and sustained."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.forms import RESERVED
from benchmarks.selectors import volume_performance


class VolumePerformanceQuerySerializer(serializers.Serializer):
    """`volume-performance/`: a fio IOPS benchmark and where the volumes are priced."""

    region = serializers.CharField(help_text="Region whose EBS prices apply")
    benchmark = serializers.CharField(default="fio:randread", help_text="fio:<rw>, in op/s")
    at = serializers.DateField(required=False, help_text="Prices in force that day")


class VolumeRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField(help_text="The instance the volume was attached to")
    volume = serializers.CharField(help_text="The run's variant, e.g. gp2-100gb")
    volume_type = serializers.CharField()
    size_gb = serializers.IntegerField()
    params = serializers.DictField()
    runs = serializers.IntegerField()
    iops = serializers.FloatField(help_text="Measured (burst) IOPS, the median")
    mb_per_second = serializers.FloatField(allow_null=True, help_text="10^6 bytes per second")
    usd_per_month = serializers.FloatField()
    iops_per_usd_month = serializers.FloatField()
    mb_per_second_per_usd_month = serializers.FloatField(allow_null=True)
    sustained_iops = serializers.FloatField()
    sustained_iops_per_usd_month = serializers.FloatField()
    sustained_mb_per_second_per_usd_month = serializers.FloatField(allow_null=True)
    burst_seconds = serializers.IntegerField(allow_null=True)
    price_note = serializers.CharField(allow_null=True)


class VolumePerformanceSerializer(serializers.Serializer):
    benchmark = serializers.CharField(source="benchmark.key")
    region = serializers.CharField()
    at = serializers.DateField()
    params = serializers.DictField()
    results = VolumeRowSerializer(many=True)
    unpriced = serializers.ListField(child=serializers.DictField())


class VolumePerformanceView(APIView):
    """Volumes measured with fio (the run's variant names the volume: gp2-100gb), priced a
    month in a region: IOPS and MB/s per dollar-month while bursting and sustained."""

    @extend_schema(
        parameters=[
            VolumePerformanceQuerySerializer,
            OpenApiParameter("<param>", str, description="A fio parameter, e.g. direction=read"),
        ],
        responses=VolumePerformanceSerializer,
    )
    def get(self, request):
        query = VolumePerformanceQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        params = {
            name: value
            for name, value in request.query_params.items()
            if name not in query.fields and name not in RESERVED and value
        }
        answer = volume_performance.volume_performance(
            region_code=data["region"],
            benchmark_key=data["benchmark"],
            at=data.get("at"),
            params=params,
        )
        return Response(VolumePerformanceSerializer(answer).data)
