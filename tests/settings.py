"""Settings for the test suite: the real settings, with a throw-away secret and a fast hasher.

Everything else (the database from ``DATABASE_URL``, the broker from ``CELERY_BROKER_URL``) is
exactly what the service itself would use, so CI exercises PostgreSQL and Redis.
"""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from switchsite.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
