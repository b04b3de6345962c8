"""API views of EBS volumes: their prices, a volume's monthly cost, the gp2 burst model."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics

from api.query_parameters import KnownParameters
from api.question_views import QuestionView
from api.schema import ErrorSerializer
from api.subjects import storage_serializers as serializers
from api.subjects.storage_filters import VolumePriceFilter
from benchmarks.models import VolumePrice
from benchmarks.questions.volumes import Gp2BurstForm, VolumeCostForm
from benchmarks.selectors.subjects import storage as storage_selector
from benchmarks.storage import gp2
from benchmarks.storage.volumes import VOLUME_RULES


class VolumePriceList(KnownParameters, generics.ListAPIView):
    """EBS volume rates per GB-month, provisioned IOPS-month and MiB/s-month, with history."""

    queryset = VolumePrice.objects.select_related("region")
    serializer_class = serializers.VolumePriceSerializer
    filterset_class = VolumePriceFilter


def volume_rules_text() -> str:
    """What each volume type takes (benchmarks/storage/volumes.py), in the operation's
    description: OpenAPI cannot bound one query parameter by another."""
    lines = []
    for rules in VOLUME_RULES.values():
        line = f"- {rules.volume_type}: {rules.min_size_gb:,} to {rules.max_size_gb:,} GB"
        if rules.iops == "none":
            line += ", no iops"
        else:
            need = "needs" if rules.iops == "required" else "takes"
            line += (
                f", {need} iops {rules.min_iops:,} to {rules.max_iops:,}, at most "
                f"{rules.max_iops_per_gb:,} per GB"
            )
            if rules.included_iops:
                line += f" ({rules.included_iops:,} with any size)"
        if rules.throughput:
            line += (
                f", throughput {rules.min_throughput:,} to {rules.max_throughput:,} MiB/s, at "
                f"most {rules.max_throughput_per_iops} MiB/s per IOPS "
                f"({rules.included_throughput:,} with any IOPS)"
            )
        else:
            line += ", no throughput"
        lines.append(line)
    return "\n".join(lines)


class VolumeCostView(QuestionView):
    """What an EBS volume costs a month, part by part, with the prices in force on a day."""

    query_form = VolumeCostForm
    selector = staticmethod(storage_selector.volume_cost)
    serializer_class = serializers.VolumeCostSerializer

    @extend_schema(
        description=f"{__doc__}\n\nEach volume type bounds the other parameters (a 400 "
        f"names the one outside them):\n\n{volume_rules_text()}",
        responses={
            200: serializers.VolumeCostSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No price of a part is known"),
        },
    )
    def get(self, request):
        return super().get(request)


class Gp2BurstView(QuestionView):
    """The gp2 token bucket of study S4 under a constant load: baseline, burst, timeline."""

    query_form = Gp2BurstForm
    selector = staticmethod(gp2.gp2_burst)
    serializer_class = serializers.Gp2BurstSerializer
