"""gunicorn's settings for pricebench (read from the working directory by gunicorn itself).

Each comes from the environment with a default sized for a small host; docs/guide.md
("Configuration") explains them.
"""

import gc
import os

from dashboard.env import envbool

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Workers fork from a master that has imported Django already: starting or replacing one
# (max_requests) takes milliseconds, not the second an import takes.
preload_app = True
# Requests are short (kept statistics, a fixed number of queries): a process per core plus
# one keeps the CPU busy without queueing.
workers = int(os.environ.get("GUNICORN_WORKERS", str((os.cpu_count() or 1) + 1)))
# No answer needs more than a few seconds; a request that hangs is killed rather than left
# to hold a worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
# Workers are replaced after this many requests (with jitter, so not all at once), which
# bounds the memory any slow leak can take.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "100"))
# Uploads are capped by PRICEBENCH_MAX_UPLOAD_BYTES; request lines and headers stay small.
limit_request_line = 8190
# pricebench logs one line per request itself (dashboard/logs.py): in JSON, gunicorn's own
# text access line would only repeat it.
accesslog = None if os.environ.get("PRICEBENCH_LOG_FORMAT") == "json" else "-"


# Garbage collection. A 1,000-row answer holds tens of thousands of containers at once;
# with Python's default young generation (700) that means dozens of collections per request,
# promoting the answer's rows to the old generations, and now and then a full collection
# over everything Django imported (docs/performance.md).
# A larger young generation lets an answer's objects come and go (freed by reference
# counting once it is sent) between collections; the objects the master imported are
# frozen before each fork, out of every collection's way (and their pages stay shared).
GC_YOUNG_THRESHOLD = int(os.environ.get("PRICEBENCH_GC_YOUNG_THRESHOLD", "50000"))
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


# Each worker answers the comparison page's question through the API once before it takes
# requests (dashboard/warmup.py): a process's first answer is otherwise the slowest.
WARM_UP = envbool("PRICEBENCH_WARM_UP", True)


def pre_fork(server, worker):
    gc.freeze()


def post_worker_init(worker):
    """Each worker opens its database connection before it takes its first request.

    Connections are kept between requests (DATABASE_CONN_MAX_AGE); opening one costs a new
    PostgreSQL backend, which the first request after a start or a max_requests replacement
    would otherwise wait for. A database that is away is not an error here: the first
    request connects, or answers 503.
    """
    from django.db import connection
    from django.db.utils import OperationalError

    try:
        connection.ensure_connection()
    except OperationalError as error:
        worker.log.warning("database not reachable at worker start: %s", error)
        return
    if WARM_UP:
        from dashboard.warmup import warm_up

        warm_up(worker.wsgi)
    # What the worker keeps from here on (the warm-up's compiled queries and templates, its
    # caches) joins the master's imports out of the collector's way; the warm-up's garbage
    # goes now, not in the middle of a request.
    gc.collect()
    gc.freeze()


def post_request(worker, req, environ, resp):
    """Once an answer is sent, the collector takes what it left in reference cycles.

    Django's forms and DRF's serializers leave a few hundred to a thousand objects an answer
    in cycles, which reference counting never frees: left to itself, the collector ran every
    few dozen requests, in the middle of one, over everything that request held at the time
    (20 to 26 ms at 10M results, docs/performance.md). Here each generation is collected as
    often as Python would (the young one after every request, the next every tenth), but
    between requests, when the young generation holds only those leftovers.
    """
    counts, thresholds = gc.get_count(), gc.get_threshold()
    generation = 0
    while generation < 2 and counts[generation + 1] >= thresholds[generation + 1]:
        generation += 1
    gc.collect(generation)
