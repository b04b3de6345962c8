"""The pricebench Django project: settings, urls, Celery app and the chart pages."""

from dashboard.celery import app as celery_app

__all__ = ["celery_app"]
