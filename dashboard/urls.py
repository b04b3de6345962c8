"""Top-level URLs: the pages, the admin and the API."""

from django.contrib import admin
from django.urls import include, path

from dashboard import views
from dashboard.throttle import limit_failed_logins

urlpatterns = [
    path("", views.comparison, name="comparison"),
    path("upload/", views.upload, name="upload"),
    path("runs/<int:run_id>/", views.run_detail, name="run"),
    # Before the admin's own URLs, so that this wrapped view answers its login page.
    path("admin/login/", limit_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("agent.py", views.agent_script, name="agent-script"),
    path("agent/", views.agent, name="agent"),
    path("volumes/", views.volumes, name="volumes"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
]
