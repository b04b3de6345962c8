"""`/api/v1/` routes."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.routers import DefaultRouter

from api import views

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
