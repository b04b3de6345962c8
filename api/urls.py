"""`/api/v1/` routes."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import storage_views, views

app_name = "api"

router = DefaultRouter()
router.register("regions", views.RegionViewSet)
router.register("instance-types", views.InstanceTypeViewSet)
router.register("prices", views.PriceViewSet)
router.register("benchmarks", views.BenchmarkViewSet)
router.register("runs", views.RunViewSet)

urlpatterns = [
    path("price-performance/", views.PricePerformanceView.as_view(), name="price-performance"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    *router.urls,
]

# EBS volumes (study S4).
urlpatterns += [
    path("volume-prices/", storage_views.VolumePriceList.as_view(), name="volumeprice-list"),
    path("volume-cost/", storage_views.VolumeCostView.as_view(), name="volume-cost"),
    path("gp2-burst/", storage_views.Gp2BurstView.as_view(), name="gp2-burst"),
]
