"""`/api/v1/` routes; the API root lists every endpoint, the schema and the docs."""

from django.urls import path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from api import views
from api.subjects import (
    commitment_cost_views,
    database_views,
    fleet_views,
    network_views,
    profile_views,
    storage_views,
    volume_performance_views,
)
from api.subjects.llm_serving_views import LlmModelsView, LlmServingView
from api.subjects.unit_price_views import CheapestRegionsView, UnitPricesView
from api.subjects.workload_views import WorkloadPredictView

app_name = "api"

# Every endpoint that is not a viewset. The root lists each under its path
# (tests/api/test_api_root.py checks that no route is left out).
endpoints = [
    path("price-performance/", views.PricePerformanceView.as_view(), name="price-performance"),
    # Workload profiles, ranked by price-performance/?profile=KEY.
    path("profiles/", profile_views.ProfilesView.as_view(), name="profiles"),
    # The five side by side: a vCPU-hour and a GiB-hour on each type.
    path("unit-prices/", UnitPricesView.as_view(), name="unit-prices"),
    path("cheapest-regions/", CheapestRegionsView.as_view(), name="cheapest-regions"),
    # A buyer's own figures on a few types, predicted on every type (a question: POST).
    path("workloads/predict/", WorkloadPredictView.as_view(), name="workload-predict"),
    # 1 month, 1 year and 3 years of one type, every way it can be paid.
    path(
        "commitment-cost/",
        commitment_cost_views.CommitmentCostView.as_view(),
        name="commitment-cost",
    ),
    # A fleet file re-bought at equal work (nothing stored).
    path("fleets/", fleet_views.FleetView.as_view(), name="fleets"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The page and its start-up script are two requests: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    # EBS volumes (study S4).
    path("volume-prices/", storage_views.VolumePriceList.as_view(), name="volumeprice-list"),
    path("volume-cost/", storage_views.VolumeCostView.as_view(), name="volume-cost"),
    path("gp2-burst/", storage_views.Gp2BurstView.as_view(), name="gp2-burst"),
    path(
        "volume-performance/",
        volume_performance_views.VolumePerformanceView.as_view(),
        name="volume-performance",
    ),
    path("llm-serving/", LlmServingView.as_view(), name="llm-serving"),
    path("llm-serving/models/", LlmModelsView.as_view(), name="llm-serving-models"),
    # Network bandwidth (study S3).
    path("network-scaling/", network_views.NetworkScalingView.as_view(), name="network-scaling"),
    # Databases (study S5).
    path(
        "database-price-performance/",
        database_views.DatabasePricePerformanceView.as_view(),
        name="database-price-performance",
    ),
]


class Router(DefaultRouter):
    """DRF's router, whose root (views.RootView) also lists the endpoints that are not
    viewsets."""

    APIRootView = views.RootView

    def get_api_root_view(self, api_urls=None):
        api_root_dict = {
            prefix: self.routes[0].name.format(basename=basename)
            for prefix, _viewset, basename in self.registry
        }
        api_root_dict.update(
            {str(endpoint.pattern).rstrip("/"): endpoint.name for endpoint in endpoints}
        )
        return self.APIRootView.as_view(api_root_dict=api_root_dict)


router = Router()
router.register("regions", views.RegionViewSet)
router.register("instance-types", views.InstanceTypeViewSet)
router.register("prices", views.PriceViewSet)
router.register("fargate-rates", views.FargateRateViewSet)
router.register("benchmarks", views.BenchmarkViewSet)
router.register("runs", views.RunViewSet)

urlpatterns = [
    *endpoints,
    *router.urls,
    # Last: any other path under /api/v1/ (`runs/1.5/`, a typo) is DRF's JSON 404, not a page.
    # CSRF-exempt: a POST there with a session cookie is a 404 in JSON too, not CSRF's page.
    re_path(r"^[\s\S]*/$", csrf_exempt(views.not_found), name="not-found"),
]
