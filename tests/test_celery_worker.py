"""A real worker consumes a task sent through the broker (the path production uses), and records
its heartbeat."""

import queue
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from switchsite import heartbeats, metrics
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


@pytest.mark.celery_worker
def test_a_worker_records_its_heartbeat_and_a_scrape_reports_it_with_the_queue(celery_worker):
    """Read from another thread, as the scrape and the health check read it (each thread has
    the cache without the test's own key prefix)."""
    with ThreadPoolExecutor(1) as elsewhere:
        last = elsewhere.submit(heartbeats.last, heartbeats.WORKER).result()
        scraped = elsewhere.submit(metrics.exposition, metrics.ServiceCollector()).result()

    assert last is not None
    assert time.time() - last["at"] < 2 * heartbeats.INTERVAL_SECONDS
    samples = dict(line.split(" ") for line in scraped.decode().splitlines() if line[0] != "#")
    assert int(float(samples["switch_task_queue_length"])) >= 0
    assert float(samples["switch_last_worker_heartbeat_timestamp_seconds"]) == last["at"]
