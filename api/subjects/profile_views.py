"""Workload profiles in the API: `GET profiles/`, and `price-performance/?profile=KEY`'s
answer (the price-performance view hands a question naming a profile to `profile_answer`)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from api.answer_fields import purchase_fields
from api.price_performance_serializers import BestFamilySerializer, NoiseSerializer
from api.query_parameters import KnownParameters
from benchmarks.profiles import PROFILES
from benchmarks.questions.price_performance import BASES
from benchmarks.questions.profiles import ProfileForm
from benchmarks.selectors.answer import answer_sentence
from benchmarks.selectors.subjects import profiles


class MemberSerializer(serializers.Serializer):
    benchmark = serializers.CharField()
    params = serializers.DictField()
    weight = serializers.FloatField(help_text="Its share of the profile's weights")
    label = serializers.CharField(help_text="How the answer's components name it")


class ProfileSerializer(serializers.Serializer):
    key = serializers.SlugField(help_text="Used as profile=KEY")
    name = serializers.CharField()
    description = serializers.CharField()
    benchmarks = MemberSerializer(many=True, source="members")


class ProfileRowSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    family = serializers.CharField()
    vcpus = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(
        help_text="Weighted geometric mean of the components; 1 = the median type"
    )
    components = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Each benchmark's kept median divided by its median across types",
    )
    usd_per_hour = serializers.FloatField()
    per_dollar = serializers.FloatField(
        allow_null=True,
        help_text="Hours of the median type's work a dollar buys (score / USD per hour), on basis",
    )
    price_effective_from = serializers.DateField(allow_null=True)
    cpu_allocation = serializers.CharField()
    burstable = serializers.BooleanField()
    baseline_share = serializers.FloatField(allow_null=True)
    burst_per_dollar = serializers.FloatField(allow_null=True)
    sustained_per_dollar = serializers.FloatField(allow_null=True)
    rank = serializers.IntegerField(
        allow_null=True, help_text="1 = most per dollar on the basis asked"
    )
    rank_range = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="[best, worst]: the ranks the row could take within the profile's noise",
    )
    estimated = serializers.BooleanField(
        help_text="True for a Fargate size no task measured, estimated (docs/fargate.md)"
    )
    estimate = serializers.DictField(
        allow_null=True,
        help_text="Estimated rows: processor, from (the EC2 types), observed, observations, "
        "validated_error, sustains, scaled; null for a measured row",
    )


class LackingSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    lacks = serializers.ListField(child=serializers.CharField())


class UnpricedScoreSerializer(serializers.Serializer):
    instance_type = serializers.CharField()
    variant = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    score = serializers.FloatField()


class ProfileAnswerSerializer(serializers.Serializer):
    profile = ProfileSerializer()
    region = serializers.CharField(source="region.code")
    purchase_option = serializers.CharField(source="purchase.option")
    term, payment, offering_class, plan, spot_zone = purchase_fields("purchase.answer_fields")
    at = serializers.DateField()
    basis = serializers.ChoiceField(choices=BASES)
    summary = serializers.SerializerMethodField(
        help_text="One sentence answering the question, as the page says it"
    )
    noise = NoiseSerializer(
        source="standing.noise",
        allow_null=True,
        help_text="The score's noise, from its members' (null when one is not measured)",
    )
    best_family = BestFamilySerializer(source="standing.best_family", allow_null=True)
    tied = serializers.BooleanField(source="standing.tied")
    medians = serializers.DictField(
        child=serializers.FloatField(), help_text="Each benchmark's median across types"
    )
    results = ProfileRowSerializer(many=True)
    lacking = LackingSerializer(many=True, help_text="Types left out, with what they lack")
    unpriced = UnpricedScoreSerializer(many=True)

    def get_summary(self, table: profiles.ProfileTable) -> str:
        return answer_sentence.profile_summary(table)


class ProfileListSerializer(serializers.Serializer):
    results = ProfileSerializer(many=True)


class ProfilesView(KnownParameters, APIView):
    """Workload profiles: each a weighted geometric mean of benchmarks normalised to their
    medians, ranked per dollar by `price-performance/?profile=KEY`."""

    @extend_schema(responses=ProfileListSerializer)
    def get(self, request):
        return Response({"results": ProfileSerializer(PROFILES, many=True).data})


def profile_answer(request) -> Response:
    """`price-performance/?profile=KEY&region=R`: the profile's ranking per dollar."""
    form = ProfileForm(request.query_params)
    if not form.is_valid():
        raise ValidationError(form.error_dict())
    table = profiles.profile_table(form.query())
    return Response(ProfileAnswerSerializer(table).data)
