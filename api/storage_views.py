"""API views of EBS volumes: their prices, a volume's monthly cost, the gp2 burst model."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics

from api import storage_serializers as serializers
from api.question_views import QuestionView
from api.schema import ErrorSerializer
from api.storage_filters import VolumePriceFilter
from benchmarks.models import VolumePrice
from benchmarks.questions import Gp2BurstForm, VolumeCostForm
from benchmarks.selectors import storage as storage_selector
from benchmarks.storage import gp2


class VolumePriceList(generics.ListAPIView):
    """EBS volume rates per GB-month, provisioned IOPS-month and MiB/s-month, with history."""

    queryset = VolumePrice.objects.select_related("region")
    serializer_class = serializers.VolumePriceSerializer
    filterset_class = VolumePriceFilter


class VolumeCostView(QuestionView):
    """What an EBS volume costs a month, part by part, with the prices in force on a day."""

    query_form = VolumeCostForm
    selector = staticmethod(storage_selector.volume_cost)
    serializer_class = serializers.VolumeCostSerializer

    @extend_schema(
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
