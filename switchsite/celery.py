"""The Celery application. Configuration comes from Django settings (the ``CELERY_`` names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "switchsite.settings")

app = Celery("switchsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
