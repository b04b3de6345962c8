"""A refresh's outcome is visible in the admin, failures and their errors included."""

import pytest

from benchmarks.models import PriceRefresh

pytestmark = pytest.mark.django_db


def test_the_admin_lists_refreshes_with_their_status_and_error(admin_client):
    PriceRefresh.objects.create(kind="on_demand", region="us-east-1", status="ok", stored=6)
    PriceRefresh.objects.create(
        kind="spot", region="ap-northeast-1", status="failed", error="AwsThrottled: slow down"
    )
    page = admin_client.get("/admin/benchmarks/pricerefresh/")
    assert page.status_code == 200
    assert b"ap-northeast-1" in page.content and b"Failed" in page.content
    failed = PriceRefresh.objects.get(status="failed")
    detail = admin_client.get(f"/admin/benchmarks/pricerefresh/{failed.pk}/change/")
    assert b"AwsThrottled: slow down" in detail.content


def test_refreshes_are_not_added_by_hand(admin_client):
    assert admin_client.get("/admin/benchmarks/pricerefresh/add/").status_code == 403
