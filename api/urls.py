"""`/api/v1/` routes; the API root lists every endpoint, the schema and the docs."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from api import database_views, network_views, storage_views, views, volume_performance_views
from api.unit_price_views import UnitPricesView

app_name = "api"


class Router(DefaultRouter):
    """DRF's router, whose root also lists the endpoints that are not viewsets."""

    extra_root = {
        "price-performance": "price-performance",
        "unit-prices": "unit-prices",
        "schema": "schema",
        "docs": "docs",
    }

    def get_api_root_view(self, api_urls=None):
        api_root_dict = {
            prefix: self.routes[0].name.format(basename=basename)
            for prefix, _viewset, basename in self.registry
        }
        api_root_dict.update(self.extra_root)
        return self.APIRootView.as_view(api_root_dict=api_root_dict)


router = Router()
router.register("regions", views.RegionViewSet)
router.register("instance-types", views.InstanceTypeViewSet)
router.register("prices", views.PriceViewSet)
router.register("fargate-rates", views.FargateRateViewSet)
router.register("benchmarks", views.BenchmarkViewSet)
router.register("runs", views.RunViewSet)

urlpatterns = [
    path("price-performance/", views.PricePerformanceView.as_view(), name="price-performance"),
    path("unit-prices/", UnitPricesView.as_view(), name="unit-prices"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The page and its start-up script are two requests: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    *router.urls,
]

# EBS volumes (study S4).
urlpatterns += [
    path("volume-prices/", storage_views.VolumePriceList.as_view(), name="volumeprice-list"),
    path("volume-cost/", storage_views.VolumeCostView.as_view(), name="volume-cost"),
    path("gp2-burst/", storage_views.Gp2BurstView.as_view(), name="gp2-burst"),
    path(
        "volume-performance/",
        volume_performance_views.VolumePerformanceView.as_view(),
        name="volume-performance",
    ),
]

# Network bandwidth (study S3).
urlpatterns += [
    path("network-scaling/", network_views.NetworkScalingView.as_view(), name="network-scaling"),
]

# Databases (study S5).
urlpatterns += [
    path(
        "database-price-performance/",
        database_views.DatabasePricePerformanceView.as_view(),
        name="database-price-performance",
    ),
]

# Last: any other path under /api/v1/ (`runs/1.5/`, a typo) is DRF's JSON 404, not a page.
urlpatterns += [re_path(r"^[\s\S]*/$", views.not_found, name="not-found")]
