"""The service as ``make run`` serves it, but running the tasks it publishes on the request that
published them, as it did before the in-process worker (``switchsite.tasks.InProcessWorker``):
a move's answer then waits for the bots that play after it. ``python -m benchmarks.table_in_process``
serves it beside the shipped service to measure what the worker is worth.

    ASGI_APP=benchmarks.tasks_on_request:application make run
"""

from switchsite.asgi import application  # first: it sets Django up

# isort: split
from switchsite.tasks import in_process_worker

in_process_worker.start = lambda: None  # type: ignore[method-assign]  # never running: inline

__all__ = ["application"]
