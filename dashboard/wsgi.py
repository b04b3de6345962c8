"""WSGI entry point (gunicorn dashboard.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
application = get_wsgi_application()

# Import the URLconf, and with it every view module, now: with gunicorn's preload_app the
# workers fork with them imported instead of paying for it on their first request.
import dashboard.urls  # noqa: E402, F401
