"""Whether this process can serve: the checks behind `/healthz` and `/readyz`."""

from __future__ import annotations

import time

from django.conf import settings
from django.db import connection
from django.utils import timezone

from benchmarks.models import PriceRefresh, Region

# Past this age the last price refresh is reported stale (the schedule runs daily).
STALE_PRICES_HOURS = 36


def readiness() -> tuple[bool, dict]:
    """(ready, report): the database answers, the broker answers, how old the prices are."""
    report: dict = {}
    ready = True
    started = time.monotonic()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        report["database"] = {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}
    except Exception as error:  # noqa: BLE001 (any failure means not ready; named below)
        ready = False
        report["database"] = {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}
    report["broker"] = _broker()
    ready = ready and report["broker"]["ok"]
    if report["database"]["ok"]:
        report["prices"] = _prices()
    return ready, report


def _broker() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"ok": True, "mode": "tasks run in-process (no CELERY_BROKER_URL)"}
    from dashboard.celery import app

    started = time.monotonic()
    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, timeout=2)
        return {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}
    except Exception as error:  # noqa: BLE001 (any failure means not ready; named below)
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:300]}


def _prices() -> dict:
    """The last price change and the last successful scheduled refresh, with their ages."""
    last_change = (
        Region.objects.exclude(prices_updated_at=None)
        .order_by("-prices_updated_at")
        .values_list("prices_updated_at", flat=True)
        .first()
    )
    last_refresh = (
        PriceRefresh.objects.filter(status=PriceRefresh.Status.OK)
        .order_by("-finished_at")
        .values_list("finished_at", flat=True)
        .first()
    )
    now = timezone.now()

    def age(moment):
        return round((now - moment).total_seconds() / 3600, 2) if moment else None

    hours = age(last_refresh)
    return {
        "last_changed_at": last_change.isoformat() if last_change else None,
        "last_refresh_at": last_refresh.isoformat() if last_refresh else None,
        "last_refresh_age_hours": hours,
        "stale": hours is None or hours > STALE_PRICES_HOURS,
    }
