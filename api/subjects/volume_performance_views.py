"""API view of fio on EBS volumes: IOPS and MB/s per dollar-month, burst and sustained."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from api.question_views import QuestionView
from api.schema import benchmark_parameters
from benchmarks.questions.scaling import VolumePerformanceForm
from benchmarks.selectors.subjects import volume_performance


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
    summary = serializers.CharField(
        allow_null=True,
        help_text="Before any volume is measured: what the answer needs and how to upload it",
    )


@extend_schema(parameters=[benchmark_parameters("e.g. direction=read")])
class VolumePerformanceView(QuestionView):
    """Volumes measured with fio (the run's variant names the volume: gp2-100gb), priced a
    month in a region: IOPS and MB/s per dollar-month while bursting and sustained. The
    benchmark's own parameters (`params`) are the ones it was measured with: any other is a
    400 naming them (before any volume is measured, every one)."""

    query_form = VolumePerformanceForm
    takes_benchmark_parameters = True
    selector = staticmethod(volume_performance.volume_performance)
    schema_names = {"benchmark": volume_performance.volume_benchmarks}
    serializer_class = VolumePerformanceSerializer
