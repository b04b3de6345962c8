"""`POST fleets/`: a fleet file (plain CSV or FOCUS 1.2 export) re-bought at equal work.
The question's parameters, the answer's shape and the view; the work is benchmarks.fleet's."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.query_parameters import KnownParameters
from api.schema import benchmark_parameters
from api.throttles import UploadRateThrottle
from benchmarks.fleet.answer import answer_fleet, csv_rows
from benchmarks.fleet.rebuy import FleetAnswer
from benchmarks.questions.fleet import FleetForm


class FleetUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="instance_type,region,count,hours[,purchase_option] (hours a month), or a "
        "FOCUS 1.2 cost and usage export"
    )


class RangeSerializer(serializers.Serializer):
    low = serializers.FloatField()
    mid = serializers.FloatField()
    high = serializers.FloatField()


class ReplacementSerializer(serializers.Serializer):
    instance_type = serializers.CharField(help_text="The line's own type when it is cheapest")
    region = serializers.CharField()
    purchase_option = serializers.CharField()
    usd_per_month = serializers.FloatField(help_text="What the line's work costs on it")
    work_ratio = RangeSerializer(help_text="Its work an hour over the line's type's")
    saving_usd_per_month = RangeSerializer()
    beyond_noise = serializers.BooleanField(help_text="False when the saving's range holds 0")
    estimated = serializers.BooleanField(
        help_text="The work ratio rests on an estimated figure (a Fargate size no task "
        "measured), the replacement's or the line's own; a measured type is chosen instead "
        "where the estimate leads it only within the noise"
    )
    kept = serializers.BooleanField(help_text="The line's type already costs least")


class FleetLineSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    region = serializers.CharField()
    hours = serializers.FloatField()
    purchase_option = serializers.CharField(help_text="The way to buy it was compared at")
    usd_per_month = serializers.FloatField(help_text="What was paid, or list price x hours")
    paid = serializers.BooleanField(help_text="usd_per_month is what the bill says was paid")
    replacement = ReplacementSerializer()
    note = serializers.CharField()


class SkippedSerializer(serializers.Serializer):
    row = serializers.IntegerField(
        help_text="The file's data row (1 is the first after the header)"
    )
    reason = serializers.CharField()


class FleetTotalSerializer(serializers.Serializer):
    usd_per_month = serializers.FloatField()
    saving_usd_per_month = RangeSerializer()


class FleetAnswerSerializer(serializers.Serializer):
    format = serializers.CharField(
        source="file.format", help_text="csv or focus: how the file was read"
    )
    lines = FleetLineSerializer(many=True)
    total = serializers.SerializerMethodField()
    skipped = SkippedSerializer(source="file.skipped", many=True)
    skipped_count = serializers.IntegerField(
        source="file.skipped_count", help_text="Compute rows or lines not used"
    )
    other_rows = serializers.IntegerField(
        source="file.other_rows", help_text="Rows that are not compute (counted only)"
    )
    summary = serializers.CharField()

    @extend_schema_field(FleetTotalSerializer)
    def get_total(self, answer: FleetAnswer) -> dict:
        return {
            "usd_per_month": answer.total_usd_per_month,
            "saving_usd_per_month": answer.total_saving.as_dict(),
        }


class FleetView(KnownParameters, APIView):
    """Your fleet, re-bought: upload a fleet file (`file`, multipart) and get, per instance type
    and region, the type that does the same work for least money, and what that saves a month.

    The file is a CSV with columns `instance_type,region,count,hours` (hours a month; optional
    `purchase_option`) or a FOCUS 1.2 cost and usage export (compute rows: the type from
    `SkuPriceDetails`' `InstanceType`, hours from `ConsumedQuantity`, what was paid from
    `EffectiveCost`, the way to buy from `PricingCategory`, the region from `RegionId`).
    Give `benchmark` (with its own parameters) or `profile`, exactly one; a benchmark measured
    with several values of a parameter needs one chosen. A file that is not CSV, a FOCUS
    export without the compute columns or negative hours is a 400 naming it; a file over the
    upload limit a 413. Nothing is stored. `?format=csv`: the lines with FOCUS column names
    and `x_` columns.
    """

    permission_classes = [AllowAny]
    parser_classes = [MultiPartParser]
    # The question's fields; any other name is a benchmark's own, which the answer checks.
    query_form = FleetForm
    takes_benchmark_parameters = True
    throttle_classes = [*APIView.throttle_classes, UploadRateThrottle]

    @extend_schema(
        parameters=[
            benchmark_parameters("e.g. block_size=8192"),
            OpenApiParameter(
                "format", str, enum=["json", "csv"], description="csv: FOCUS-named lines"
            ),
        ],
        request={"multipart/form-data": FleetUploadSerializer},
        # 400 and 413 (fields named) are every upload's (api/schema.py).
        responses={200: FleetAnswerSerializer},
    )
    def post(self, request):
        question = FleetForm(request.query_params)
        if not question.is_valid():
            raise ValidationError(question.error_dict())
        upload = FleetUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        answer = answer_fleet(upload.validated_data["file"], question.question())
        if getattr(request.accepted_renderer, "format", "") == "csv":
            return Response(csv_rows(answer))
        return Response(FleetAnswerSerializer(answer).data)
