"""Request types for views that only signed-in users reach, so that ``request.user`` is a ``User``
to the type checker (Django and DRF type it ``User | AnonymousUser``).

Annotations only: at run time the request is Django's or DRF's own.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.request import Request


class AuthenticatedRequest(Request):
    user: User


class AuthenticatedHttpRequest(HttpRequest):
    user: User
