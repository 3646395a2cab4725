"""Logins that resist guessing: django-axes counts the failed logins of the admin and of the API's
token endpoint (``POST /api/v1/auth/token/``), per account and per address, and refuses both for
``LOGIN_LOCKOUT_MINUTES`` once either has ``LOGIN_FAILURE_LIMIT`` failures within that time — the
right password too, so guessing on gains nothing.

axes does the counting (its backend first in ``AUTHENTICATION_BACKENDS`` refuses a locked login;
the ``user_login_failed`` signal records each failure in its ``AccessAttempt`` table) and its
middleware swaps the answer to a locked-out request for :func:`lockout_response`: a 429 with
``Retry-After``, a problem document under ``/api/``, a page of the admin elsewhere. The address is
the client's own (``switchsite.serving.addresses``).
"""

from __future__ import annotations

import math
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from django.contrib import admin
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from switchsite.middleware import API_PATH, problem_json


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """axes' ``AXES_LOCKOUT_CALLABLE``: the answer to a login refused for too many failures."""
    seconds = retry_after(request, credentials)
    minutes = math.ceil(seconds / 60)
    detail = ngettext(
        "Too many failed logins for this account or from this address: try again in %(minutes)d "
        "minute.",
        "Too many failed logins for this account or from this address: try again in %(minutes)d "
        "minutes.",
        minutes,
    ) % {"minutes": minutes}
    if request.path_info.startswith(API_PATH):
        return problem_json(429, "throttled", detail, **{"Retry-After": str(seconds)})
    page = render(
        request,
        "admin/locked_out.html",
        {
            **admin.site.each_context(request),
            "title": _("Too many failed logins"),
            "detail": detail,
        },
        status=429,
    )
    page["Retry-After"] = str(seconds)
    return page


def retry_after(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """Seconds until the lockout ends: the cool-off after the last failure that counts for this
    account or address (failures made while locked out are not counted, so it does not move)."""
    cool_off = get_cool_off(request)
    assert cool_off is not None  # the settings always give one
    handler: Any = AxesProxyHandler.get_implementation()
    lasts = [
        attempts.aggregate(last=Max("attempt_time"))["last"]
        for attempts in handler.get_user_attempts(request, credentials)
    ]
    last = max((at for at in lasts if at is not None), default=timezone.now())
    ends = last + cool_off
    return max(1, math.ceil((ends - timezone.now()).total_seconds()))
