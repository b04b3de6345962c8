"""pricebench settings: everything that varies between machines comes from the environment.

`.env.example` lists every variable. Unset DATABASE_URL means SQLite under var/; unset
CELERY_BROKER_URL means Celery tasks run in-process.
"""

from pathlib import Path

import dj_database_url
from celery.schedules import crontab

from dashboard.env import envbool, envint, envlist, envstr

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = envbool("DEBUG", False)
# The default key is for development only; docker-compose.yml and production set SECRET_KEY.
SECRET_KEY = envstr("SECRET_KEY", "insecure-development-key-set-SECRET_KEY-in-production")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "benchmarks",
    "api",
    "dashboard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # ETag on every GET, and 304 when the client's copy is current.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

LOGIN_URL = "admin:login"
ROOT_URLCONF = "dashboard.urls"
WSGI_APPLICATION = "dashboard.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'pricebench.sqlite3'}",
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 0),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# Chart.js and its adapters come from npm (package.json) and are served from node_modules.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/chart.js", BASE_DIR / "node_modules" / "chart.js" / "dist"),
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
        "api.renderers.CSVRenderer",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.FormatOrFilterNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "pricebench API",
    "DESCRIPTION": "Benchmark results, AWS prices and throughput per dollar.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery: Redis when CELERY_BROKER_URL is set; otherwise tasks run in-process.
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
# Results are kept (on the broker's Redis) only for tasks that ask (import_sparecores waits
# for its tasks' summaries); every other task's result is ignored.
CELERY_RESULT_BACKEND = CELERY_BROKER_URL or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A task whose worker died unacknowledged is delivered again after this many seconds.
    "visibility_timeout": envint("CELERY_VISIBILITY_TIMEOUT", 3600),
    # Look for such tasks every 10 s (kombu's default scans only every 100 s).
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "refresh-on-demand-prices": {
        "task": "benchmarks.tasks.refresh_on_demand_prices",
        "schedule": crontab(minute=17, hour=3),
    },
    "refresh-spot-prices": {
        "task": "benchmarks.tasks.refresh_spot_prices",
        "schedule": crontab(minute=41),
    },
    "refresh-instance-specs": {
        "task": "benchmarks.tasks.refresh_instance_specs",
        "schedule": crontab(minute=29, hour=4, day_of_week="mon"),
    },
}

# Regions whose prices the schedule refreshes.
PRICEBENCH_REGIONS = envlist("PRICEBENCH_REGIONS", ["us-east-1", "ap-northeast-1"])
# Largest accepted upload, in bytes.
PRICEBENCH_MAX_UPLOAD_BYTES = envint("PRICEBENCH_MAX_UPLOAD_BYTES", 20 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = PRICEBENCH_MAX_UPLOAD_BYTES + 1024 * 1024
# Where `loaddemo` says how far its background load of Spare Cores' figures got (the
# comparison page shows a note while it runs).
PRICEBENCH_DEMO_PROGRESS_FILE = VAR_DIR / "demo-loading.json"
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
