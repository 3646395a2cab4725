"""The Switch game service: Django project package (settings, urls, Celery app)."""

from switchsite.celery import app as celery_app

__all__ = ["celery_app"]
