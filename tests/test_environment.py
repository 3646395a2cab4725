"""In CI the suite must run against the production shape: PostgreSQL and a live Redis broker.

Outside CI these checks are skipped (SQLite and in-process tasks are the embedded default); with
``CI=true`` they fail loudly instead, so a misconfigured CI run can never pass on SQLite.
"""

import pytest
from django.conf import settings
from django.db import connection

from switchsite.health import check_broker
from tests.conftest import IN_CI

pytestmark = pytest.mark.skipif(not IN_CI, reason="checks the CI environment (CI=true)")


@pytest.mark.django_db
def test_ci_database_is_postgresql():
    assert connection.vendor == "postgresql", (
        f"CI must run on PostgreSQL, found {connection.vendor}: is DATABASE_URL exported?"
    )


def test_ci_broker_is_redis_and_answers():
    assert settings.CELERY_BROKER_URL.startswith("redis://"), (
        f"CI must use a Redis broker, found {settings.CELERY_BROKER_URL!r}"
    )
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    check_broker()  # raises if Redis does not answer
