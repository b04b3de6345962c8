"""API views of network bandwidth (study S3): Gbit/s against streams and processes."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from benchmarks.questions import NetworkScalingForm
from benchmarks.selectors import network


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

    query_form = NetworkScalingForm

    @extend_schema(responses=NetworkScalingSerializer)
    def get(self, request):
        form = NetworkScalingForm(request.query_params)
        if not form.is_valid():
            raise ValidationError(form.error_dict())
        answer = network.network_scaling(**form.selector_arguments())
        if request.accepted_renderer.format == "csv":
            return Response({"results": answer.rows})
        return Response(NetworkScalingSerializer(answer).data)
