"""Test-wide fixtures: paths to the shared real data."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


@pytest.fixture(autouse=True, scope="session")
def _settings_of_the_tests(tmp_path_factory):
    """Settings every test shares. The pages under test never show a real demo load's
    progress (a `make run` loading beside the suite writes var/demo-loading.json, which the
    comparison page reads)."""
    from django.conf import settings

    settings.PRICEBENCH_DEMO_PROGRESS_FILE = tmp_path_factory.mktemp("demo") / "demo-loading.json"
    # A test's data is in its transaction, which a thread's own connection reading the
    # workload vectors behind the answers could not see: each answer reads them itself.
    settings.PRICEBENCH_WORKLOAD_REFRESH_BEHIND = False


@pytest.fixture(autouse=True)
def _empty_answer_cache():
    """Each test starts without rendered answers another test's database produced."""
    from django.core.cache import caches

    from benchmarks import freshness
    from benchmarks.selectors.subjects import workload_vectors

    caches["answers"].clear()
    freshness.forget()
    workload_vectors.forget()


@pytest.fixture(scope="module")
def demo_rolled_back(django_db_setup, django_db_blocker):
    """The bundled demo, loaded once for a module of `db` tests that read it.

    Loaded inside a transaction rolled back after the module's last test; each test's own
    transaction nests in it as a savepoint, so a test's writes are undone before the next.
    """
    from django.db import connection, transaction

    from benchmarks.services import statistics
    from benchmarks.services.demo import load_demo

    with django_db_blocker.unblock(), transaction.atomic():
        load_demo()
        # Planned as empty otherwise: ANALYZE counts this transaction's own rows.
        statistics.analyze_tables()
        # Check the demo's deferred foreign keys now, once: checked inside each test's
        # savepoint instead, the check would be rolled back with it and run again each time.
        connection.check_constraints()
        yield
        transaction.set_rollback(True)


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
