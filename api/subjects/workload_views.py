"""`POST /api/v1/workloads/predict/`: a buyer's figures on a few types, predicted on every type
(benchmarks/selectors/subjects/workload.py). Thin: the serializer validates, the selector
answers."""

from __future__ import annotations

import math

from django import forms
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.query_parameters import KnownParameters
from api.subjects.noise_serializers import IntervalSerializer
from benchmarks.currency import USD, currencies
from benchmarks.models import PurchaseOption
from benchmarks.questions.base import region_pairs
from benchmarks.questions.price_performance import DEFAULT_REGION, MAX_REGIONS
from benchmarks.selectors.answer.lookups import vendor_and_name
from benchmarks.selectors.subjects.workload import WorkloadQuestion, predict_workload
from benchmarks.workload.model import METHODS

MAX_FIGURES = 200


class FigureSerializer(serializers.Serializer):
    instance_type = serializers.CharField(max_length=80, help_text="c7g.xlarge, or vendor:name")
    value = serializers.FloatField(help_text="Your workload's figure on it: a positive number")


class WorkloadQuestionSerializer(serializers.Serializer):
    figures = FigureSerializer(
        many=True, min_length=2, max_length=MAX_FIGURES, help_text="At least two types' figures"
    )
    higher_is_better = serializers.BooleanField(default=True)
    unit = serializers.CharField(max_length=40, required=False, default="", allow_blank=True)
    # Blank is absent, as for price-performance's query parameters.
    region = serializers.CharField(
        max_length=50, required=False, allow_blank=True, help_text="e.g. us-east-1 (default)"
    )
    regions = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="vendor:region,... instead of `region`",
    )
    purchase_option = serializers.ChoiceField(
        choices=PurchaseOption.choices, default=PurchaseOption.ON_DEMAND
    )
    currency = serializers.CharField(max_length=3, default=USD)
    basis = serializers.ChoiceField(
        choices=["sustained", "burst", "unlimited"],
        default="sustained",
        help_text="How burstable types are ranked, as price-performance's basis",
    )
    at = serializers.DateField(required=False, help_text="Prices in force that day")
    exclude_benchmarks = serializers.ListField(
        child=serializers.CharField(max_length=120),
        required=False,
        default=list,
        help_text="Benchmark keys or tools the model may not learn from",
    )

    def validate_figures(self, figures):
        for index, figure in enumerate(figures):
            if not math.isfinite(figure["value"]) or figure["value"] <= 0:
                raise serializers.ValidationError(
                    f"figures[{index}].value ({figure['instance_type']}): a positive finite number"
                )
        return figures

    def validate_currency(self, value):
        # US dollars need no rate: the ECB history (most of a second to load) is not read for
        # the default, as price-performance's question does not read it.
        if value.upper() != USD and value.upper() not in currencies():
            raise serializers.ValidationError("an ECB reference currency, e.g. USD or EUR")
        return value.upper()

    def validate(self, data):
        if data.get("regions"):
            # Each vendor's types are priced in its one region.
            try:
                pairs = region_pairs(data["regions"], most=MAX_REGIONS, one_per_vendor=True)
            except forms.ValidationError as error:
                raise serializers.ValidationError({"regions": error.messages}) from None
        else:
            vendor, code = vendor_and_name(data.get("region") or DEFAULT_REGION)
            pairs = [(vendor or "aws", code)]
        data["region_pairs"] = pairs
        return data

    def question(self) -> WorkloadQuestion:
        data = self.validated_data
        return WorkloadQuestion(
            figures=[(f["instance_type"], f["value"]) for f in data["figures"]],
            higher_is_better=data["higher_is_better"],
            unit=data["unit"],
            regions=data["region_pairs"],
            purchase_option=data["purchase_option"],
            currency=data["currency"],
            at=data.get("at"),
            exclude_benchmarks=data["exclude_benchmarks"],
            basis=data["basis"],
        )


class WorkloadRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    vendor = serializers.CharField()
    predicted = serializers.FloatField()
    interval = IntervalSerializer()
    measured = serializers.BooleanField()
    usd_per_hour = serializers.FloatField()
    price_per_hour = serializers.FloatField()
    currency = serializers.CharField()
    per_dollar = serializers.FloatField()
    per_dollar_interval = IntervalSerializer()
    baseline_share = serializers.FloatField(
        allow_null=True, help_text="A burstable type's sustained share of each vCPU"
    )
    from_benchmarks = serializers.ListField(child=serializers.CharField())
    rank = serializers.IntegerField()
    rank_range = serializers.ListField(child=serializers.IntegerField())


class NotPredictedSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    reason = serializers.CharField()


class ModelBenchmarkSerializer(serializers.Serializer):
    benchmark = serializers.CharField()
    params = serializers.DictField()
    weight = serializers.FloatField()


class WorkloadModelSerializer(serializers.Serializer):
    benchmarks = ModelBenchmarkSerializer(many=True)
    method = serializers.ChoiceField(choices=METHODS)
    intercept = serializers.FloatField()
    methods_compared = serializers.DictField(child=serializers.FloatField(allow_null=True))


class HeldOutSerializer(serializers.Serializer):
    cases = serializers.IntegerField()
    median_error = serializers.FloatField(allow_null=True)
    interval_coverage = serializers.FloatField(allow_null=True)
    level = serializers.FloatField()


class WorkloadValidationSerializer(HeldOutSerializer):
    held_out_benchmarks = HeldOutSerializer()


class WorkloadAnswerSerializer(serializers.Serializer):
    results = WorkloadRowSerializer(many=True)
    not_predicted = NotPredictedSerializer(many=True)
    model = WorkloadModelSerializer()
    validation = WorkloadValidationSerializer()
    unit = serializers.CharField()
    higher_is_better = serializers.BooleanField()
    summary = serializers.CharField()


class WorkloadPredictView(KnownParameters, APIView):
    """Your workload predicted: give your own figures on at least two instance types; the
    answer learns which stored benchmarks move like them (leave-one-out), predicts every
    type with a 90% interval, and ranks them per dollar in the region asked. Nothing stored.

    Rules no schema states (each a 400 naming it): every figure names a stored instance type
    with benchmark figures (`vendor:name` for another cloud's); two figures for one type agree
    within 10%; `exclude_benchmarks` names stored benchmarks or tools; `region` (or each of
    `regions`, vendor:code) is one its vendor has."""

    # A question, not a write: anyone may ask, and no session means no CSRF token to send.
    authentication_classes: list = []
    permission_classes = [AllowAny]
    # A list of figures is JSON's to carry (a form's nested lists are not): others get 415.
    parser_classes = [JSONParser]

    @extend_schema(request=WorkloadQuestionSerializer, responses=WorkloadAnswerSerializer)
    def post(self, request):
        serializer = WorkloadQuestionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(predict_workload(serializer.question()))
