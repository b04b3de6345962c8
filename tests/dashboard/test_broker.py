"""Which runs the broker holds, and the sweep that queues at once what a broker restarted
without persistence lost: real Redis (the test one) and a real worker."""

import datetime

import pytest
from django.utils import timezone

from benchmarks.models import InstanceType, Result, Run
from benchmarks.services import runs as run_services
from dashboard import broker
from tests.worker import Worker, wait_until

TABLE_HEAD = "benchmark,instance_type,region,value,unit\n"


def csv_upload(number: int) -> bytes:
    return (
        TABLE_HEAD
        + f"recover:sweep,t2.nano,us-east-1,{100 + number},op/s\n"
        + f"recover:sweep,t2.nano,us-east-1,{200 + number},op/s\n"
    ).encode()


def queued_runs(count: int) -> list[Run]:
    """`count` pending runs, each handed to the broker (as an upload does), stamped as queued
    a minute ago."""
    InstanceType.objects.get_or_create(name="t2.nano")
    runs = [run_services.submit_run(content=csv_upload(number))[0] for number in range(count)]
    for run in runs:
        assert run_services.queue_ingest(run_id=run.pk)
    Run.objects.filter(pk__in=[run.pk for run in runs]).update(
        queued_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    return runs


def flush_broker() -> None:
    """What a Redis restarted without persistence keeps: nothing."""
    from dashboard.celery import app

    with app.connection_for_write() as connection:
        connection.default_channel.client.flushdb()


def sweep() -> dict[str, int]:
    return run_services.requeue_stale_runs(older_than=datetime.timedelta(hours=1), max_attempts=5)


def test_it_cannot_tell_without_a_broker(settings):
    assert broker.held_run_ids() is None


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_it_names_the_runs_waiting_in_the_queue(reference_data, celery_broker):
    runs = queued_runs(3)
    assert broker.held_run_ids() == {run.pk for run in runs}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_it_names_a_run_delivered_but_not_yet_acknowledged(reference_data, celery_broker):
    from dashboard.celery import app

    first, second = queued_runs(2)
    with app.connection_for_read() as connection:
        channel = connection.default_channel
        # Taken as a worker takes it (acknowledged late): out of the queue, not yet done.
        delivered = channel.basic_get(app.conf.task_default_queue, no_ack=False)
        assert delivered is not None
        assert channel.client.llen(app.conf.task_default_queue) == 1
        assert broker.held_run_ids() == {first.pk, second.pk}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_it_cannot_tell_past_the_messages_it_reads(reference_data, celery_broker, monkeypatch):
    queued_runs(3)
    monkeypatch.setattr(broker, "MAX_MESSAGES_READ", 2)
    assert broker.held_run_ids() is None


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_sweep_leaves_alone_the_runs_the_broker_holds(reference_data, celery_broker):
    queued_runs(3)
    assert sweep() == {"queued": 0, "failed": 0, "lost": 0, "orphaned": 0}
    assert set(Run.objects.values_list("queue_attempts", flat=True)) == {1}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_the_sweep_leaves_alone_a_run_queued_a_moment_ago(reference_data, celery_broker):
    (run,) = queued_runs(1)
    flush_broker()
    Run.objects.filter(pk=run.pk).update(queued_at=timezone.now())
    assert sweep() == {"queued": 0, "failed": 0, "lost": 0, "orphaned": 0}


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_runs_a_restarted_broker_lost_are_queued_at_once_and_stored_once(
    reference_data, celery_broker
):
    runs = queued_runs(20)
    flush_broker()
    outcome = sweep()
    assert outcome == {"queued": 20, "failed": 0, "lost": 20, "orphaned": 0}
    # Queued again, they are held: a second sweep leaves them alone.
    assert sweep()["queued"] == 0
    worker = Worker(celery_broker).start()
    try:
        wait_until(
            lambda: not Run.objects.filter(status=Run.Status.PENDING).exists(),
            timeout=90,
            message="the swept runs to be ingested",
        )
    finally:
        worker.stop()
    ids = [run.pk for run in runs]
    assert set(Run.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"done"}
    assert Result.objects.filter(run__parent__in=ids).count() == 40
    assert set(Run.objects.filter(pk__in=ids).values_list("queue_attempts", flat=True)) == {2}


def age_deliveries(seconds: float) -> None:
    """Every unacknowledged delivery taken `seconds` earlier than it was."""
    import time

    from dashboard.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        client = channel.client
        for tag, _ in client.zrange(channel.unacked_index_key, 0, -1, withscores=True):
            client.zadd(channel.unacked_index_key, {tag: time.time() - seconds})


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_delivery_whose_run_no_worker_holds_goes_back_to_the_queue(reference_data, celery_broker):
    import threading

    from django.db import connection, transaction

    from dashboard.celery import app

    (run,) = queued_runs(1)
    with app.connection_for_read() as broker_connection:
        channel = broker_connection.default_channel
        assert channel.basic_get(app.conf.task_default_queue, no_ack=False) is not None
        # As a worker killed before it acknowledged: its channel never restores it.
        channel.qos._delivered.clear()
    queue_length = lambda: channel.client.llen(app.conf.task_default_queue)  # noqa: E731
    assert queue_length() == 0
    # Taken a moment ago: a worker may be about to start; nothing is put back.
    assert sweep()["orphaned"] == 0
    age_deliveries(30)
    # A worker at work holds the run's row: its delivery stays where it is.
    locked, release = threading.Event(), threading.Event()

    def ingesting() -> None:
        with transaction.atomic():
            Run.objects.select_for_update().get(pk=run.pk)
            locked.set()
            release.wait(30)
        connection.close()

    holder = threading.Thread(target=ingesting)
    holder.start()
    assert locked.wait(10)
    assert sweep()["orphaned"] == 0
    release.set()
    holder.join()
    # Its row free, the run is no worker's: the delivery goes back to the queue, once.
    assert sweep()["orphaned"] == 1
    assert queue_length() == 1 and broker.stale_deliveries(0) == {}
    assert broker.held_run_ids() == {run.pk}
    assert sweep()["orphaned"] == 0


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_ingest_has_its_run_done_within_seconds(reference_data, celery_broker):
    """A real worker SIGKILLed while it ingests a big table, with the default visibility
    timeout (an hour): the sweep puts its delivery back, a new worker stores the run once."""
    import time

    from django.db import transaction

    InstanceType.objects.get_or_create(name="t2.nano")
    rows = "".join(
        f"recover:killed,t2.nano,us-east-1,{number},op/s,{number % 500}\n"
        for number in range(40_000)
    )
    content = (TABLE_HEAD.strip() + ",param.n\n" + rows).encode()
    worker = Worker(celery_broker, visibility_timeout=3600).start()
    try:
        run = run_services.submit_run(content=content)[0]
        assert run_services.queue_ingest(run_id=run.pk)

        def being_ingested() -> bool:
            with transaction.atomic():
                free = Run.objects.select_for_update(skip_locked=True).filter(pk=run.pk)
                return not free.exists()

        wait_until(being_ingested, timeout=60, interval=0.05, message="the ingest to start")
        worker.kill()
        killed = time.monotonic()
        assert Run.objects.get(pk=run.pk).status == Run.Status.PENDING
        worker = Worker(celery_broker, visibility_timeout=3600).start()
        # The sweep (every 5 s under beat) restores a delivery taken LOST_AFTER (5 s) ago.
        wait_until(
            lambda: sweep()["orphaned"] == 1, timeout=30, interval=1, message="the delivery back"
        )
        wait_until(
            lambda: Run.objects.get(pk=run.pk).status == Run.Status.DONE,
            timeout=90,
            message="the run done by the new worker",
        )
        assert time.monotonic() - killed < 60
    finally:
        worker.stop()
    assert Result.objects.filter(run__parent=run).count() == 40_000
