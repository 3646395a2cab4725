"""Settings for the test suite: the real settings, with a throw-away secret and a fast hasher.

Everything else (the database from ``DATABASE_URL``, the broker from ``CELERY_BROKER_URL``) is
exactly what the service itself would use, so CI exercises PostgreSQL and Redis.
"""

import os
import tempfile

from benchmarks.shape import PLAIN_HTTP

os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")
# Whole games through the API make thousands of requests a minute per player; the registration
# limit stays as configured, and a test checks that it answers 429.
os.environ.setdefault("THROTTLE_USER_RATE", "100000/minute")
os.environ.setdefault("THROTTLE_REPORTS_RATE", "100000/minute")
# A plain-HTTP test install (docs/operations.md): the test client, the live servers and the browser
# speak HTTP. Tests of the secure defaults set them back, or run `check --deploy` without these.
os.environ.update({**PLAIN_HTTP, **os.environ})

from switchsite.settings import *  # noqa: F403

# Under pytest-xdist (make test runs the suite in two processes) each process has a test database
# of its own (pytest-django names it) and a queue of its own on the broker, so that the Celery
# worker of one never takes the other's tasks.
if "PYTEST_XDIST_WORKER" in os.environ:
    CELERY_TASK_DEFAULT_QUEUE = f"celery-{os.environ['PYTEST_XDIST_WORKER']}"

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Django's test client holds each test's transaction in the calling thread, where waiting views
# must then read too (switchsite.asyncdb); the tests of the read threads turn them back on.
EVENT_READ_THREADS = 0

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not memory: concurrent threads (the race tests) then get real SQLite locking.
    # One file per test run, so that runs side by side do not share it.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"switch-tests-{os.getpid()}.sqlite3")
    }
