#!/usr/bin/env python
"""Django's command-line utility for pricebench."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    # A checkout's commands (makemigrations, shell, ...) run as development when nothing says
    # otherwise: DEBUG on, the key kept in var/secret_key. A deployment sets SECRET_KEY
    # (docker-compose also DEBUG=false); DEBUG off without a key is still refused below.
    if "DEBUG" not in os.environ and not os.environ.get("SECRET_KEY", "").strip():
        os.environ["DEBUG"] = "true"
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 (reads the settings now)
    except ImproperlyConfigured as error:
        # Django would go on without settings and fail later in whichever check came first.
        sys.exit(f"pricebench: {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
