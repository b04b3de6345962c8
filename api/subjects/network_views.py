"""API views of network bandwidth (study S3): Gbit/s against streams and processes."""

from rest_framework import serializers

from api.answer_fields import run_statistics
from api.question_views import QuestionView
from benchmarks.questions.scaling import NetworkScalingForm
from benchmarks.selectors.subjects import network


class ScalingPointSerializer(serializers.Serializer):
    processes = serializers.IntegerField()
    streams = serializers.IntegerField(help_text="Streams (-P) of each process")
    runs, median_gbit_per_second, min_gbit_per_second, max_gbit_per_second = run_statistics()
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
    summary = serializers.CharField(
        allow_null=True,
        help_text="Before any bandwidth is measured: what the answer needs and how to upload it",
    )

    def get_unit(self, answer) -> str:
        return "Gbit/s"


class NetworkScalingView(QuestionView):
    """Bandwidth per instance type against processes and streams (a curve per type), with
    the type's advertised bandwidth; `format=csv` answers one row per point."""

    query_form = NetworkScalingForm
    selector = staticmethod(network.network_scaling)
    schema_names = {"benchmark": network.bandwidth_benchmarks}
    serializer_class = NetworkScalingSerializer

    def answer_data(self, request, answer):
        if request.accepted_renderer.format == "csv":
            return {"results": answer.rows}
        return super().answer_data(request, answer)
