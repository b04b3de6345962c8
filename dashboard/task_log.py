"""Celery signals: one log line per finished task, and failed tasks kept as TaskFailure rows."""

from __future__ import annotations

import logging
import time
import traceback as traceback_module

from celery import signals

task_logger = logging.getLogger("pricebench.task")
_started: dict[str, float] = {}
ARGUMENTS_KEPT = 2000


@signals.task_prerun.connect
def _task_started(task_id=None, **_):
    _started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_finished(task_id=None, task=None, state=None, **_):
    started = _started.pop(task_id, None)
    ms = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    task_logger.info(
        "task %s[%s] %s %s ms",
        task.name,
        task_id,
        state,
        ms,
        extra={"task_id": task_id, "task": task.name, "state": state, "ms": ms},
    )


@signals.task_failure.connect
def record_task_failure(sender=None, task_id=None, exception=None, args=None, kwargs=None,
                        traceback=None, **_):  # fmt: skip
    """Keep a failed task in the database (shown in the admin); never fail the worker."""
    from dashboard.models import TaskFailure

    try:
        TaskFailure.objects.create(
            task_id=task_id or "",
            task_name=getattr(sender, "name", str(sender))[:200],
            arguments=repr({"args": args, "kwargs": kwargs})[:ARGUMENTS_KEPT],
            exception=f"{type(exception).__name__}: {exception}",
            traceback="".join(traceback_module.format_tb(traceback)) if traceback else "",
        )
    except Exception:  # the database may be what failed the task
        task_logger.exception("could not record the failure of task %s", task_id)
