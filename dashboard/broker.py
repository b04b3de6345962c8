"""Which runs the broker holds: the ingest tasks waiting in its queues or delivered and not yet
acknowledged (a worker has them). The sweep (benchmarks/services/runs.py) hands out again at
once a pending run the broker does not hold: its message was lost with a broker restarted
without persistence, or never sent.

Read from Redis through kombu's own channel (its key names and priority queues), in the
order a message moves (queue first, then the unacknowledged), so that a message taken by a
worker between the two reads is still seen. A message missed all the same (restored from the
unacknowledged to its queue between the reads) only costs a second delivery, which the ingest
ignores (`ingest_run` does nothing once a run is no longer pending).

A worker killed (SIGKILL, out of memory) leaves its deliveries unacknowledged, held until
Redis's visibility timeout: `stale_deliveries` lists them, and the sweep puts back in their
queue (`restore_delivery`) those whose run no worker is ingesting (an ingest holds its run's
row locked from start to end, and a dead worker's lock goes with its connection).
"""

from __future__ import annotations

import base64
import json
import logging
import time

logger = logging.getLogger(__name__)

INGEST_TASK = "benchmarks.tasks.ingest_run"
# Past this many messages waiting, reading them all at every sweep costs more than it saves:
# the sweep then says it cannot tell, and falls back to its slow rule.
MAX_MESSAGES_READ = 20_000


def held_run_ids() -> set[int] | None:
    """Ids of the runs whose ingest task the broker holds; None when it cannot tell (no
    broker, not Redis, unreachable, or too many messages waiting to read them all)."""
    from dashboard.celery import app

    if app.conf.task_always_eager or not app.conf.broker_url:
        return None
    try:
        with app.connection_for_read() as connection:
            if connection.transport_cls not in ("redis", "rediss"):
                return None
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            return _held_in_redis(connection.default_channel, _queue_names(app))
    except Exception as error:  # noqa: BLE001 (redis and kombu raise many kinds)
        logger.warning("could not read the broker's queues (%s)", error)
        return None


def stale_deliveries(older_than: float) -> dict[int, bytes]:
    """Run id -> delivery tag of the ingest tasks a worker took more than `older_than`
    seconds ago and has not acknowledged: still at work, or lost with its worker (a SIGKILL
    leaves them unacknowledged until Redis's visibility timeout, an hour). Empty when it
    cannot tell."""
    from dashboard.celery import app

    if app.conf.task_always_eager or not app.conf.broker_url:
        return {}
    try:
        with app.connection_for_read() as connection:
            if connection.transport_cls not in ("redis", "rediss"):
                return {}
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
            channel = connection.default_channel
            client = channel.client
            ceiling = time.time() - older_than
            tags = client.zrangebyscore(channel.unacked_index_key, "-inf", ceiling)
            stale: dict[int, bytes] = {}
            for tag, raw in zip(tags, client.hmget(channel.unacked_key, tags) if tags else [],
                                strict=True):  # fmt: skip
                entry = _loads(raw) if raw else None
                found: set[int] = set()
                _add_run_id(found, entry[0] if isinstance(entry, list) and entry else None)
                stale.update(dict.fromkeys(found, tag))
            return stale
    except Exception as error:  # noqa: BLE001 (redis and kombu raise many kinds)
        logger.warning("could not read the broker's deliveries (%s)", error)
        return {}


def restore_delivery(tag: bytes) -> bool:
    """Put an unacknowledged delivery back in its queue, as kombu does once the visibility
    timeout has passed; False when it was acknowledged or restored meanwhile."""
    from kombu.transport.redis import loads
    from kombu.utils.encoding import bytes_to_str

    from dashboard.celery import app

    with app.connection_for_write() as connection:
        channel = connection.default_channel
        restored = []

        def move(pipe) -> None:
            raw = pipe.hget(channel.unacked_key, tag)
            pipe.multi()
            pipe.zrem(channel.unacked_index_key, tag).hdel(channel.unacked_key, tag)
            if raw:
                message, exchange, routing_key = loads(bytes_to_str(raw))
                channel._do_restore_message(message, exchange, routing_key, pipe, False)
                restored.append(tag)

        channel.client.transaction(move, channel.unacked_key)
        return bool(restored)


def _queue_names(app) -> list[str]:
    names = {app.conf.task_default_queue}
    for route in (app.conf.task_routes or {}).values():
        if isinstance(route, dict) and route.get("queue"):
            names.add(route["queue"])
    return sorted(names)


def _held_in_redis(channel, queues: list[str]) -> set[int] | None:
    client = channel.client
    # kombu keeps each priority level of a queue in a list of its own.
    lists = [channel._q_for_pri(queue, priority) for queue in queues
             for priority in channel.priority_steps]  # fmt: skip
    if sum(client.llen(name) for name in lists) > MAX_MESSAGES_READ:
        return None
    held: set[int] = set()
    for name in lists:
        for raw in client.lrange(name, 0, -1):
            _add_run_id(held, _loads(raw))
    for raw in client.hvals(channel.unacked_key):
        entry = _loads(raw)
        # An unacknowledged entry is [message, exchange, routing key].
        _add_run_id(held, entry[0] if isinstance(entry, list) and entry else None)
    return held


def _loads(raw: bytes | str):
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _add_run_id(held: set[int], message) -> None:
    """Adds the run id of an ingest task's message (Celery's protocol 2: the body is
    [args, kwargs, embed], base64-encoded JSON)."""
    if not isinstance(message, dict):
        return
    if (message.get("headers") or {}).get("task") != INGEST_TASK:
        return
    try:
        body = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args, kwargs, _embed = json.loads(body)
        run_id = args[0] if args else kwargs["run_id"]
        held.add(int(run_id))
    except (KeyError, IndexError, TypeError, ValueError):
        logger.warning("an ingest task's message the sweep cannot read: %.200s", message)
