"""Top-level URLs: the pages, the admin and the API."""

from django.contrib import admin
from django.urls import include, path

from dashboard import views

urlpatterns = [
    path("", views.comparison, name="comparison"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
]
