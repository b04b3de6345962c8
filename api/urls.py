"""`/api/v1/` routes; the API root lists every endpoint, the schema and the docs."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import views

app_name = "api"


class Router(DefaultRouter):
    """DRF's router, whose root also lists the endpoints that are not viewsets."""

    extra_root = {
        "price-performance": "price-performance",
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
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    *router.urls,
]
