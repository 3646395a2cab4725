"""``make serve`` and ``make run``: uvicorn serving the service (``python -m switchsite.serve``).

uvicorn's command line took ``HOST``, ``PORT`` and ``WEB_CONCURRENCY`` as they came: a port that is
not a number stopped it with a usage error, a bad ``WEB_CONCURRENCY`` with a traceback. Here they
are settings like the others, checked with the rest (one line naming each bad variable), and
uvicorn's own lines — its supervisor's and each process's — go through the settings' ``LOGGING``:
the same time, level, format and filters as every other line. Its access log is off: the service
writes its own, one line per request with its duration (:mod:`switchsite.serving.observing`).

The processes count their metrics in files of ``PROMETHEUS_MULTIPROC_DIR`` (:mod:`switchsite.metrics`),
emptied here before they start (the units give each start a fresh directory anyway); unset, a
temporary directory of this server's own.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import uvicorn

from switchsite import metrics

# How long the server waits for requests still in progress once it has stopped taking new ones
# (after the drain: switchsite.serving.stopping).
GRACEFUL_SECONDS = 10


def fresh_metrics_directory() -> None:
    """``PROMETHEUS_MULTIPROC_DIR``, emptied (made first if need be), for the processes to come."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    directory = Path(given) if given else Path(tempfile.mkdtemp(prefix="switch-metrics-"))
    directory.mkdir(parents=True, exist_ok=True)
    metrics.empty(directory)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(directory)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")
    from django.conf import settings

    logging_config: dict[str, Any] = settings.LOGGING  # reading one checks all: bad ones stop here
    fresh_metrics_directory()
    uvicorn.run(
        os.environ.get("ASGI_APP", "switchsite.asgi:application"),
        host=settings.HOST,
        port=settings.PORT,
        workers=settings.WEB_CONCURRENCY,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        log_config=logging_config,
        log_level=logging_config["root"]["level"].lower(),
        access_log=False,
    )


if __name__ == "__main__":
    main()
