"""A real worker consumes a task sent through the broker (the path production uses)."""

import queue
import uuid

import pytest

from switchsite.celery import app as celery_app

deliveries: "queue.Queue[str]" = queue.Queue()


@celery_app.task(name="tests.record_delivery")
def record_delivery(token: str) -> None:
    deliveries.put(token)


@pytest.mark.celery_worker
def test_task_sent_through_the_broker_runs_on_a_worker(celery_worker):
    token = uuid.uuid4().hex

    record_delivery.delay(token)

    seen = []
    while token not in seen:
        seen.append(deliveries.get(timeout=15))  # raises queue.Empty if the worker never ran it
    replies = celery_app.control.ping(timeout=2)
    assert replies, "the worker did not answer a broadcast ping over the broker"
