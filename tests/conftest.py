"""Test-wide fixtures: paths to the shared real data."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _empty_answer_cache():
    """Each test starts without rendered answers another test's database produced."""
    from django.core.cache import caches

    caches["answers"].clear()
    caches["lookups"].clear()


@pytest.fixture
def shared_data() -> Path:
    assert SHARED_DATA.is_dir(), f"{SHARED_DATA} is missing: tests read ../shared/data in place"
    return SHARED_DATA


@pytest.fixture
def celery_broker(settings):
    """Send tasks to the test Redis instead of running them in-process."""
    from dashboard.celery import app
    from tests.worker import redis_url

    url = redis_url()
    (Path(__file__).resolve().parent.parent / "var").mkdir(exist_ok=True)
    previous = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=url, task_always_eager=False)
    _reset_broker_pools(app)
    with app.connection_for_write() as connection:
        connection.default_channel.client.flushdb()
    yield url
    app.conf.update(previous)
    _reset_broker_pools(app)


def _reset_broker_pools(app) -> None:
    """Drop pooled connections so the next task is sent with the current broker_url."""
    from kombu import pools

    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def celery_worker_process(celery_broker):
    from tests.worker import Worker

    worker = Worker(celery_broker).start()
    yield worker
    worker.stop()


@pytest.fixture
def reference_data(transactional_db):
    """Transactional tests empty every table afterwards: put the migrated rows back first."""
    from benchmarks.models import InstanceType, Region
    from benchmarks.reference import load_reference_data

    load_reference_data(Region, InstanceType)
