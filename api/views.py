"""API views: declarations around selectors and services."""

from django.conf import settings
from django.http import JsonResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView
from rest_framework.views import APIView

from api import conditional, filters, price_performance_serializers, serializers
from api.permissions import HasUploadToken, IsRunsUploadToken, IsUploaderOrStaffOrReadOnly
from api.query_parameters import KnownParameters
from api.schema import benchmark_parameters
from api.subjects import profile_views
from api.throttles import UploadRateThrottle
from benchmarks.models import Benchmark, FargateRate, InstanceType, Price, Region, Run
from benchmarks.profiles import BY_KEY as PROFILE_KEYS
from benchmarks.questions.price_performance import PricePerformanceForm
from benchmarks.questions.profiles import ProfileForm
from benchmarks.selectors.answer import cross_cloud, lookups, price_performance
from benchmarks.services import runs as run_services
from benchmarks.services.identified_runs import upload_identified_run
from benchmarks.services.identity_nonces import issue_nonce
from benchmarks.services.withdraw import withdraw_run


class RootView(KnownParameters, APIRootView):
    """What a dollar buys of each benchmark on each instance type, and the prices and results
    it is worked out from.

    Each link below is an endpoint: `price-performance/` ranks instance types per dollar for a
    benchmark in a region; `profiles/`, `unit-prices/`, `cheapest-regions/` and
    `commitment-cost/` answer the other questions; `runs/` takes uploads (with a token).
    `schema/` is the OpenAPI schema and `docs/` its Swagger UI; the repository's docs/api.md
    describes every field.
    """

    name = "pricebench API"


class RegionViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    queryset = Region.objects.all()
    serializer_class = serializers.RegionSerializer
    filterset_class = filters.RegionFilter
    lookup_field = "code"


class InstanceTypeViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    """Instance types and Fargate task sizes with their specifications. The list filters as the
    finder page does (`vcpus_min`, `vcpus_max`, `memory_min`, `memory_max`, `architecture`,
    `burstable`, `family`, `cpu_model`); a minimum above its maximum is a 400 naming both."""

    queryset = InstanceType.objects.all()
    serializer_class = serializers.InstanceTypeSerializer
    filterset_class = filters.InstanceTypeFilter
    lookup_field = "name"
    lookup_value_regex = r"[^/]+"

    def get_object(self):
        """The type the path names: `c7g.large` (AWS's first), or `hcloud:cax11`."""
        found = lookups.named_types(self.kwargs["name"]).first()
        if found is None:
            raise NotFound(f"no instance type {self.kwargs['name']!r}")
        self.check_object_permissions(self.request, found)
        return found


class PriceViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    queryset = Price.objects.select_related("instance_type", "region")
    serializer_class = serializers.PriceSerializer
    filterset_class = filters.PriceFilter


class FargateRateViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    """Fargate's rates per vCPU-hour and per GB-hour, by period, like `prices/`."""

    queryset = FargateRate.objects.select_related("region")
    serializer_class = serializers.FargateRateSerializer
    filterset_class = filters.FargateRateFilter


class BenchmarkViewSet(KnownParameters, viewsets.ReadOnlyModelViewSet):
    queryset = Benchmark.objects.all()
    filterset_class = filters.BenchmarkFilter
    lookup_field = "key"
    lookup_value_regex = r"[^/]+"

    def get_serializer_class(self):
        if self.action == "retrieve":
            return serializers.BenchmarkDetailSerializer
        return serializers.BenchmarkSerializer

    def get_queryset(self):
        # Only the columns the answer shows: a benchmark's kept noise (80 kB on average, a
        # megabyte for some) is for the questions, and reading it took a list of 153
        # benchmarks 100 ms at 10M results (docs/performance.md).
        return super().get_queryset().only("pk", *self.get_serializer_class().Meta.fields)


class RunViewSet(
    KnownParameters,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Runs; `POST` uploads a raw output or a table of results (token auth); `DELETE` by
    the uploader or staff removes a run, its results and their share of the statistics;
    `GET mine/` lists the runs the request's token uploaded, `POST ID/withdraw/` withdraws
    one of them (docs/api.md, "Your runs"); `POST nonce/` issues a nonce for an Azure
    identity proof (docs/api.md, "Verified runs")."""

    queryset = Run.objects.select_related("instance_type", "region")
    filterset_class = filters.RunFilter
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsUploaderOrStaffOrReadOnly]
    # An upload carries a file: multipart only (a JSON body cannot), anything else is a 415.
    parser_classes = [MultiPartParser]

    def get_throttles(self):
        if self.action == "create":
            return [*super().get_throttles(), UploadRateThrottle()]
        return super().get_throttles()

    def get_serializer_class(self):
        if self.action == "create":
            return serializers.RunUploadSerializer
        if self.action == "retrieve":
            return serializers.RunDetailSerializer
        return serializers.RunSerializer

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "mine":
            return queryset.filter(upload_token=self.request.auth)
        if self.action == "retrieve":
            return queryset.prefetch_related(
                "results__benchmark", "children__instance_type", "children__region"
            )
        return queryset

    @extend_schema(
        responses={
            202: OpenApiResponse(serializers.RunUploadedSerializer, description="Stored, queued"),
            200: OpenApiResponse(serializers.RunUploadedSerializer, description="Sent before"),
        }
    )
    def create(self, request, *args, **kwargs):
        upload = serializers.RunUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        # Several `file` parts: iperf3 processes run at once, one measurement (docs/api.md).
        files = request.data.getlist("file") if hasattr(request.data, "getlist") else []
        files = files or [upload.validated_data["file"]]
        run, created = upload_identified_run(
            file=files[0],
            more_files=files[1:],
            fields=upload.validated_data,
            identity=upload.validated_data["identity"],
            audience=settings.PRICEBENCH_IDENTITY_AUDIENCE
            or request.build_absolute_uri("/").rstrip("/"),
            uploaded_by=request.user,
            upload_token=request.auth,
        )
        body = serializers.RunSerializer(run, context={"request": request}).data
        body["status_url"] = reverse("api:run-detail", args=[run.pk], request=request)
        body["created"] = created
        return Response(body, status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)

    @extend_schema(
        responses={204: None, 401: OpenApiResponse(description="no or a bad token"),
                   403: OpenApiResponse(description="neither the uploader nor staff"),
                   404: OpenApiResponse(description="no such run")}
    )  # fmt: skip
    def destroy(self, request, *args, **kwargs):
        return super().destroy(request, *args, **kwargs)

    def perform_destroy(self, instance):
        run_services.delete_run(run=instance)

    @extend_schema(
        responses={200: serializers.RunSerializer(many=True),
                   401: OpenApiResponse(description="no, a bad, an expired or a revoked token"),
                   403: OpenApiResponse(description="not authenticated by an upload token")}
    )  # fmt: skip
    @action(detail=False, methods=["get"], permission_classes=[HasUploadToken])
    def mine(self, request, *args, **kwargs):
        """The runs the request's upload token uploaded, withdrawn ones too; filters as `runs/`."""
        return self.list(request, *args, **kwargs)

    @extend_schema(
        request=None,
        responses={201: serializers.IdentityNonceSerializer,
                   401: OpenApiResponse(description="no, a bad, an expired or a revoked token"),
                   403: OpenApiResponse(description="not authenticated by an upload token")}
    )  # fmt: skip
    @action(detail=False, methods=["post"], permission_classes=[HasUploadToken])
    def nonce(self, request, *args, **kwargs):
        """A fresh nonce for an identity proof asked with one (Azure's attested document):
        one upload by this token may carry it, within 10 minutes."""
        nonce = issue_nonce(upload_token=request.auth)
        return Response(
            serializers.IdentityNonceSerializer(nonce).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=None,
        responses={200: serializers.RunSerializer,
                   401: OpenApiResponse(description="no, a bad, an expired or a revoked token"),
                   403: OpenApiResponse(description="not the token that uploaded the run"),
                   404: OpenApiResponse(description="no such run")}
    )  # fmt: skip
    @action(detail=True, methods=["post"], permission_classes=[HasUploadToken, IsRunsUploadToken])
    def withdraw(self, request, *args, **kwargs):
        """Withdraw a run the request's token uploaded: kept, shown as withdrawn, its results
        counted nowhere. Withdrawing it again answers the same."""
        run, _ = withdraw_run(
            run_id=self.get_object().pk, by_user=request.user, by_token=request.auth
        )
        return Response(serializers.RunSerializer(run, context={"request": request}).data)


class PricePerformanceView(KnownParameters, APIView):
    """Throughput per dollar of every instance type measured with one benchmark, or one
    workload profile's ranking.

    Give `benchmark` or `profile`, exactly one: the answer is then a benchmark's or a
    profile's (a 400 says so for both or neither). `region` names where the prices come
    from; results measured anywhere count unless `measured_in` narrows them. A benchmark's
    own parameters (`params`) are the ones it was measured with (`GET benchmarks/KEY/`
    lists them): any other is a 400 naming them, and so is a parameter that one type's
    results were measured with several values of, until the question chooses one. Answers
    carry ETag and Last-Modified; a revalidation of an unchanged answer gets 304.
    """

    query_form = PricePerformanceForm
    extra_parameters = frozenset({"profile"})
    takes_benchmark_parameters = True

    def known_parameters(self, request) -> set[str]:
        if request.query_params.get("profile"):
            # A profile's question: its own form's names (`benchmark` too, which its form
            # refuses beside a profile, saying so).
            return {"format", "profile", "benchmark", *ProfileForm.base_fields}
        return super().known_parameters(request)

    def benchmark_parameters_taken(self, request) -> bool:
        return not request.query_params.get("profile")

    @extend_schema(
        parameters=[
            benchmark_parameters("e.g. block_size=8192&processes=1"),
            OpenApiParameter(
                "benchmark",
                str,
                required=False,
                description="Benchmark key, e.g. openssl:sha256; required unless `profile`",
            ),
            OpenApiParameter(
                "profile",
                str,
                enum=list(PROFILE_KEYS),
                description="A workload profile's key (GET profiles/) instead of `benchmark`: "
                "the answer is then the profile's ranking (docs/api.md, Workload profiles)",
            ),
        ],
        responses=PolymorphicProxySerializer(
            "PricePerformanceAnswer",
            serializers=[
                price_performance_serializers.PricePerformanceSerializer,
                profile_views.ProfileAnswerSerializer,
            ],
            resource_type_field_name=None,
        ),
    )
    def get(self, request):
        params = request.query_params
        if params.get("profile"):
            # A workload profile instead of one benchmark (api/subjects/profile_views.py);
            # `profile=` is no profile, as any other blank parameter is absent.
            return profile_views.profile_answer(request)
        # Asked again while its benchmark and region are cached: a kept answer goes out
        # before the question is validated again (conditional.answer says why that is safe).
        scope = lookups.cached_benchmark_in_region(
            params.get("benchmark", ""), params.get("region", "")
        )
        if scope is not None:
            kept = conditional.answer(request, changed_at=scope.changed_at)
            if kept is not None:
                return kept
        form = PricePerformanceForm(params)
        if not form.is_valid():
            raise ValidationError(form.error_dict())
        query = form.query()
        if query.regions:
            return self._cross_cloud(request, query)
        scope = lookups.benchmark_in_region(query)

        def compute():
            table = price_performance.price_performance_table(query, subject=scope)
            return Response(price_performance_serializers.price_performance_answer(table))

        return conditional.answer(request, changed_at=scope.changed_at, compute=compute)

    def _cross_cloud(self, request, query):
        """Several vendors' regions ranked together (`regions=`), validated like the rest."""
        subjects = cross_cloud.regions_in_question(query)
        stamps = [subject.changed_at for subject in subjects if subject.changed_at]

        def compute():
            table = cross_cloud.cross_cloud_table(query, subjects=subjects)
            return Response(price_performance_serializers.price_performance_answer(table))

        return conditional.answer(request, changed_at=max(stamps, default=None), compute=compute)


def not_found(request, *args, **kwargs):
    """A path under the API that names nothing: JSON, as every other API answer."""
    return JsonResponse({"detail": "Not found."}, status=404)
