"""API views of EBS volumes: their prices, a volume's monthly cost, the gp2 burst model."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from api import storage_serializers as serializers
from api.schema import ErrorSerializer
from api.storage_filters import VolumePriceFilter
from benchmarks.models import VolumePrice
from benchmarks.selectors import storage as storage_selector


class VolumePriceList(generics.ListAPIView):
    """EBS volume rates per GB-month, provisioned IOPS-month and MiB/s-month, with history."""

    queryset = VolumePrice.objects.select_related("region")
    serializer_class = serializers.VolumePriceSerializer
    filterset_class = VolumePriceFilter


class VolumeCostView(APIView):
    """What an EBS volume costs a month, part by part, with the prices in force on a day."""

    @extend_schema(
        parameters=[serializers.VolumeCostQuerySerializer],
        responses={
            200: serializers.VolumeCostSerializer,
            404: OpenApiResponse(ErrorSerializer, description="No price of a part is known"),
        },
    )
    def get(self, request):
        query = serializers.VolumeCostQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        cost = storage_selector.volume_cost(
            region_code=data["region"],
            volume_type=data["volume_type"],
            size_gb=data["size_gb"],
            iops=data.get("iops"),
            throughput=data.get("throughput"),
            at=data.get("at"),
        )
        return Response(serializers.VolumeCostSerializer(cost).data)


class Gp2BurstView(APIView):
    """The gp2 token bucket of study S4 under a constant load: baseline, burst, timeline."""

    @extend_schema(
        parameters=[serializers.Gp2BurstQuerySerializer],
        responses=serializers.Gp2BurstSerializer,
    )
    def get(self, request):
        query = serializers.Gp2BurstQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return Response(serializers.Gp2BurstSerializer(query.validated_data["burst"]).data)
