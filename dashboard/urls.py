"""Top-level URLs: the pages, the admin and the API."""

from django.contrib import admin
from django.urls import include, path

from dashboard import browse, views
from dashboard.fleet_page import fleet_page
from dashboard.llm_serving import llm_serving_page
from dashboard.throttle import limit_failed_logins
from dashboard.workload_page import workload_page

urlpatterns = [
    path("", views.comparison, name="comparison"),
    path("upload/", views.upload, name="upload"),
    path("runs/", browse.runs_index, name="runs"),
    path("runs/<int:run_id>/", views.run_detail, name="run"),
    path("instance-types/", browse.finder, name="finder"),
    path("compare/", browse.compare, name="compare"),
    path("instance-types/<str:name>/", views.instance_type_detail, name="instance-type"),
    path("benchmarks/", browse.benchmarks_index, name="benchmarks"),
    path("benchmarks/<path:key>/", views.benchmark_detail, name="benchmark"),
    # Before the admin's own URLs, so that this wrapped view answers its login page.
    path("admin/login/", limit_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("agent.py", views.agent_script, name="agent-script"),
    path("agent/", views.agent, name="agent"),
    path("volumes/", views.volumes, name="volumes"),
    path("network/", views.network_page, name="network"),
    path("databases/", views.databases_page, name="databases"),
    path("llm-serving/", llm_serving_page, name="llm-serving"),
    path("fleet/", fleet_page, name="fleet"),
    path("workload/", workload_page, name="workload"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
]
