"""The Celery application. Configuration comes from Django settings (the ``CELERY_`` names).

What a worker adds to it: a heartbeat on its main process's timer (:mod:`switchsite.heartbeats`),
its metrics served on ``WORKER_METRICS_PORT``, and the counts of failed tasks and of what each
sweep found (:mod:`switchsite.metrics`).
"""

import os
from collections.abc import Sequence
from typing import Any

from celery import Celery, Task
from celery.signals import task_failure, task_postrun, worker_init, worker_ready

from switchsite.heartbeats import WorkerHeartbeat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")

app = Celery("switchsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_failure.connect
def count_failure(sender: Task, **details: Any) -> None:
    from switchsite import metrics

    metrics.TASK_FAILURES.labels(task=sender.name).inc()


@task_postrun.connect
def count_sweep_finds(sender: Task, retval: Any = None, **details: Any) -> None:
    """The sweeps return how many things they handled (or a tuple of counts)."""
    from django.conf import settings

    from switchsite import metrics

    if sender.name not in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}:
        return
    counts = retval if isinstance(retval, Sequence) else [retval]
    found = sum(count for count in counts if isinstance(count, int))
    if found > 0:
        metrics.SWEEP_FINDS.labels(sweep=sender.name.rsplit(".", 1)[-1]).inc(found)


@worker_init.connect
def fresh_metrics(**details: Any) -> None:
    """Before the pool starts: the files an earlier run of this worker left would add up."""
    from switchsite import metrics

    directory = metrics.multiprocess_directory()
    if directory is not None:
        metrics.empty(directory)


@worker_ready.connect
def serve_metrics(sender: Any, **details: Any) -> None:
    from django.conf import settings
    from prometheus_client import start_http_server

    from switchsite import metrics

    if settings.WORKER_METRICS_PORT:
        start_http_server(settings.WORKER_METRICS_PORT, registry=metrics.registry())


app.steps["worker"].add(WorkerHeartbeat)
