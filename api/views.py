"""API views: declarations around selectors and services."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from api import filters, serializers
from benchmarks import selectors
from benchmarks.models import Benchmark, InstanceType, Price, Region, Run
from benchmarks.services import runs as run_services


class RegionViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Region.objects.all()
    serializer_class = serializers.RegionSerializer
    filterset_class = filters.RegionFilter
    lookup_field = "code"


class InstanceTypeViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = InstanceType.objects.all()
    serializer_class = serializers.InstanceTypeSerializer
    filterset_class = filters.InstanceTypeFilter
    lookup_field = "name"
    lookup_value_regex = r"[^/]+"


class PriceViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Price.objects.select_related("instance_type", "region")
    serializer_class = serializers.PriceSerializer
    filterset_class = filters.PriceFilter


class BenchmarkViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = Benchmark.objects.all()
    serializer_class = serializers.BenchmarkSerializer

    def get_serializer_class(self):
        if self.action == "retrieve":
            return serializers.BenchmarkDetailSerializer
        return serializers.BenchmarkSerializer

    filterset_class = filters.BenchmarkFilter
    lookup_field = "key"
    lookup_value_regex = r"[^/]+"


class RunViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Runs; `POST` uploads a raw output or a table of results (token auth)."""

    queryset = Run.objects.select_related("instance_type", "region")
    filterset_class = filters.RunFilter

    def get_serializer_class(self):
        if self.action == "create":
            return serializers.RunUploadSerializer
        if self.action == "retrieve":
            return serializers.RunDetailSerializer
        return serializers.RunSerializer

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "retrieve":
            return queryset.prefetch_related(
                "results__benchmark", "children__instance_type", "children__region"
            )
        return queryset

    @extend_schema(responses={202: serializers.RunSerializer, 200: serializers.RunSerializer})
    def create(self, request, *args, **kwargs):
        upload = serializers.RunUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        data = upload.validated_data
        run, created = run_services.upload_run(
            file=data["file"],
            instance_type_name=data.get("instance_type") or None,
            region_code=data.get("region") or None,
            variant=data.get("variant", ""),
            measured_at=data.get("measured_at"),
            format=data.get("format", "auto"),
            source=data.get("source", ""),
            licence=data.get("licence", ""),
            uploaded_by=request.user,
        )
        body = serializers.RunSerializer(run, context={"request": request}).data
        body["status_url"] = reverse("api:run-detail", args=[run.pk], request=request)
        body["created"] = created
        return Response(body, status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class PricePerformanceView(APIView):
    """Throughput per dollar of every instance type measured with one benchmark in a region."""

    @extend_schema(
        parameters=[
            serializers.PricePerformanceQuerySerializer,
            OpenApiParameter(
                "<param>",
                str,
                description="Any parameter of the benchmark, e.g. block_size=8192&processes=1",
            ),
        ],
        responses=serializers.PricePerformanceSerializer,
    )
    def get(self, request):
        query = serializers.PricePerformanceQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        table = selectors.price_performance_table(
            benchmark_key=data["benchmark"],
            region_code=data["region"],
            purchase_option=data["purchase_option"],
            at=data.get("at"),
            params=data["params"],
            instance_type_names=data.get("instance_types"),
            families=data.get("families"),
            baseline=data.get("baseline"),
        )
        return Response(serializers.PricePerformanceSerializer(table).data)
