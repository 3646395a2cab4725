"""Settings, read from the environment (12-factor). Every variable is documented in the operator's
guide (docs/operations.md, "Settings").

With nothing set the service runs on a SQLite file in the project and Celery runs tasks in-process,
so it works on any machine; production points ``DATABASE_URL`` at PostgreSQL and
``CELERY_BROKER_URL`` at Redis. Every value is checked as it is read (:mod:`switchsite.environment`):
a bad one stops the process with one line naming the variable, never a traceback.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from csp.constants import NONCE, NONE, SELF

from switchsite.encoding import JSON_OPTIONS
from switchsite.environment import Environment

BASE_DIR = Path(__file__).resolve().parent.parent

env = Environment()

DEBUG = env.flag("DEBUG", default=False)

SECRET_KEY = env.text("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        env.problem("SECRET_KEY", "it is not set (or empty); it is required unless DEBUG is true")
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env.names("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])

# Behind a proxy that terminates TLS (docs/operations.md): on by default unless DEBUG. Each can be
# turned off for a plain-HTTP test install — then `manage.py check --deploy` says what is off.
# The header through which the proxy says the request came over HTTPS (it must set it on every
# request, overwriting what a client sent); empty: trust no header.
_proxy_header = env.text("SECURE_PROXY_SSL_HEADER", default="" if DEBUG else "X-Forwarded-Proto")
if _proxy_header and not all(c.isalnum() or c == "-" for c in _proxy_header):
    env.problem("SECURE_PROXY_SSL_HEADER", f"{_proxy_header!r} is not a header name")
    _proxy_header = ""
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https") if _proxy_header else None
)
# How many proxies in front append the address they were reached from to X-Forwarded-For (HAProxy
# in deploy/ sets it: 1). The client is the address the outermost of them wrote; what a client
# puts in the header itself is never believed. 0: no proxy, the connection's own peer
# (switchsite.serving.addresses). Throttles, login lockouts and the access log all use it.
TRUSTED_PROXIES = env.integer("TRUSTED_PROXIES", default=0, minimum=0)
# Plain-HTTP requests are redirected to HTTPS — except the health check, which load balancers ask
# over plain HTTP from inside.
SECURE_SSL_REDIRECT = env.flag("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_REDIRECT_EXEMPT = [r"^healthz/?$"]
# HSTS: browsers use HTTPS only, for a year, on this host and its subdomains. Preloading (a request
# to be built into browsers, hard to undo for the whole domain) is the domain owner's choice: off
# unless SECURE_HSTS_PRELOAD, and Django's reminder of it (security.W021) silenced meanwhile.
SECURE_HSTS_SECONDS = env.integer(
    "SECURE_HSTS_SECONDS", default=0 if DEBUG else 31536000, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.flag("SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# Session, CSRF and language cookies (the admin, the web client) only over HTTPS.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = env.flag(
    "SECURE_COOKIES", default=not DEBUG
)

INSTALLED_APPS = [
    # First, so that its templates override the admin's (admin/base_site.html: the language
    # switcher) and its makemessages the one of Django (the rules library's marker).
    "switchsite",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",  # its system checks (a setting of django-csp 3's format is an error)
    "games",
    "tournaments",
    "matchmaking",
    "play",
]

MIDDLEWARE = [
    "switchsite.middleware.RateLimitHeaders",
    "switchsite.middleware.DebugPagesAsProblems",
    "switchsite.middleware.DatabaseUnavailable",
    "django.middleware.security.SecurityMiddleware",
    "switchsite.middleware.ContentSecurityPolicy",  # django-csp, its hooks in the event loop
    "switchsite.middleware.StaticFiles",  # WhiteNoise, async-capable
    "switchsite.middleware.OptionalTrailingSlash",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "switchsite.middleware.Locale",  # the language of each request (below: "Languages")
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: a login refused for too many failures answers 429 (switchsite.logins).
    "axes.middleware.AxesMiddleware",
]

# Every answer's Content-Security-Policy (django-csp): everything from this server, nothing from
# another origin, no inline script or style but those a page marks with the request's nonce
# (CSP_NONCE in templates; the header names it only when a page used it), no plugins, no <base>,
# forms posted here only, never framed. A page that needs more says so where it is served
# (the API's Redoc page, switchsite/urls.py). docs/operations.md, "Content-Security-Policy".
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# Paths without their trailing slash are served, not redirected (switchsite.middleware).
APPEND_SLASH = False

ROOT_URLCONF = "switchsite.urls"
ASGI_APPLICATION = "switchsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",  # CSP_NONCE, for a page's inline <style>
            ],
        },
    },
]

DATABASES = {
    "default": env.database("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
# PostgreSQL: a write never waits long for a row lock — past DATABASE_LOCK_TIMEOUT seconds it
# fails and the API answers 503 service_unavailable with Retry-After, never a request that hangs.
DATABASE_LOCK_TIMEOUT = env.number("DATABASE_LOCK_TIMEOUT", default=5.0, above=0)
# DATABASE_URL leads to a pooler in transaction mode (PgBouncer): docs/operations.md, "A pooler".
DATABASE_TRANSACTION_POOLING = env.flag("DATABASE_TRANSACTION_POOLING", default=False)
# The one LISTEN connection of each web process (switchsite.serving.notifier), straight to
# PostgreSQL when DATABASE_URL goes through a transaction pooler; None: DATABASE_URL's own.
DATABASE_LISTEN: dict[str, Any] | None = None
if env.text("DATABASE_LISTEN_URL", default=""):
    DATABASE_LISTEN = env.database("DATABASE_LISTEN_URL", default="")
    if DATABASE_LISTEN["ENGINE"] == "django.db.backends.sqlite3":
        env.problem("DATABASE_LISTEN_URL", "LISTEN needs PostgreSQL, not SQLite")
elif DATABASE_TRANSACTION_POOLING:
    env.problem(
        "DATABASE_LISTEN_URL",
        "it is required with DATABASE_TRANSACTION_POOLING (LISTEN cannot go through a "
        "transaction pooler); give PostgreSQL's own address, e.g. postgres://switch:secret@db:5432/switch",
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One process and one writer at a time: take the write lock when a transaction begins, so
    # concurrent writers queue (up to 20 s) instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
else:
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        # Parameters travel apart from the SQL (no quoting of large JSON in Python), and a statement
        # a connection has run five times is prepared, so the database stops re-planning it. Both
        # pay off because connections are kept (below).
        server_side_binding=True,
        prepare_threshold=5,
    )
    if not DATABASE_TRANSACTION_POOLING:
        DATABASES["default"]["OPTIONS"]["options"] = (
            f"-c lock_timeout={int(DATABASE_LOCK_TIMEOUT * 1000)}"
        )
    else:
        # Through a pooler in transaction mode (PgBouncer) each transaction may get another server
        # connection: nothing may outlive a transaction on it. So no prepared statements (PgBouncer
        # before 1.21 cannot route them), no server-side cursors, and no startup options — the
        # pooler sets lock_timeout on its server connections (deploy/pgbouncer.ini). LISTEN needs
        # a connection of its own that stays: DATABASE_LISTEN_URL, straight to PostgreSQL.
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None
        DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
    # Each thread that serves requests (SYNC_REQUEST_THREADS per process, switchsite.asgi) keeps
    # its connection (``?conn_max_age=`` in DATABASE_URL to change), checked before a request's
    # first query, so a restarted database costs a 503 at most, not a broken connection kept.
    DATABASES["default"].setdefault("CONN_MAX_AGE", 600)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Logins that resist guessing (switchsite.logins): django-axes counts failed logins of the admin
# and of POST /api/v1/auth/token/ per account and per address, and after LOGIN_FAILURE_LIMIT of
# either within LOGIN_LOCKOUT_MINUTES refuses them (429, Retry-After) until that long after the
# last one. Failures made while locked out are not counted: the lockout ends when it says.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.integer("LOGIN_FAILURE_LIMIT", default=10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env.integer("LOGIN_LOCKOUT_MINUTES", default=15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "switchsite.logins.lockout_response"
# A successful login by one account must not clear the failures counted against its address.
AXES_RESET_ON_SUCCESS = False
# No row per successful login (the API's token endpoint is asked by every bot as it starts).
AXES_DISABLE_ACCESS_LOG = True
# No banner on every process's start (its failures and lockouts are still logged, as warnings).
AXES_VERBOSE = False

# Languages (docs/operations.md, "Languages"): each request is answered in the language chosen with
# the switcher (a cookie), else the first of Accept-Language the service speaks, else LANGUAGE_CODE;
# a tournament's pages in the tournament's own. The catalogues are locale/<language>/LC_MESSAGES/
# (django.po for the server, djangojs.po for the browser), compiled by `make`.
LANGUAGES = [("en", "English"), ("fr", "Français")]
LANGUAGE_CODE = env.choice("LANGUAGE_CODE", "en", [code for code, _ in LANGUAGES])
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
# The club's time zone: pages and the admin show times in it (the API keeps UTC, ISO 8601).
TIME_ZONE = env.time_zone("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

# Whether anyone may register through the API (POST /api/v1/players/).
REGISTRATION_OPEN = env.flag("REGISTRATION_OPEN", default=True)

# Static files (the admin's, the API docs' Swagger UI and Redoc, the public pages') are served by
# the application itself through WhiteNoise, compressed and with long cache headers, so no proxy
# is needed; `collectstatic` gathers them (`make serve` runs it). With DEBUG they are served
# straight from the apps.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG

# Celery. Without a broker, tasks run in-process (eagerly) so the service works with nothing else
# running; with one, workers pick them up. Every task is idempotent and re-reads the database, and
# the sweep below republishes whatever looks stalled, so the settings choose redelivery over loss:
CELERY_BROKER_URL = env.broker_url("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# Acknowledge a task after it ran, and put it back if the process running it dies: a killed worker
# loses nothing (a task may then run twice, which is harmless).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Workers and beat log through the settings' LOGGING (its format, and the filters that keep an
# outage to one line a while and secrets out), not through handlers of Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Reserve one message per worker process: a dying worker strands no queue of reserved tasks.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Wait for the broker for ever, at start and after losing it, instead of exiting.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_TIMEOUT = env.number(
    "CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0, above=0
)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A message a dead worker had taken comes back after this long (Redis's default is an hour).
    # It must exceed the longest task — a slice of bot moves takes seconds — and no task is
    # scheduled ahead (no ETA), so nothing waits in a worker longer than that.
    "visibility_timeout": env.integer("CELERY_VISIBILITY_TIMEOUT", default=60, minimum=1),
    "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
}
# A request publishing after its commit must not hang on a broker that is down: one quick retry,
# then the failure is logged and the sweep republishes the work later.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# The sweep publishes again whatever background work shows no progress (a bot to move for
# SWEEP_STALL_SECONDS, a turn clock run out); `celery -A switchsite beat` runs it every
# SWEEP_INTERVAL_SECONDS, and so does the web process itself when there is no broker.
SWEEP_INTERVAL_SECONDS = env.number("SWEEP_INTERVAL_SECONDS", default=2.0, above=0)
SWEEP_STALL_SECONDS = env.integer("SWEEP_STALL_SECONDS", default=5, minimum=1)
# Retention: a match's events and the feed entries about it are removed EVENT_RETENTION_DAYS after
# it ended (its log is kept as one archived row); Idempotency-Keys after 24 hours. The sweep that
# does it runs every RETENTION_SWEEP_SECONDS, in small batches.
EVENT_RETENTION_DAYS = env.integer("EVENT_RETENTION_DAYS", default=30, minimum=1)
RETENTION_SWEEP_SECONDS = env.number("RETENTION_SWEEP_SECONDS", default=60, above=0)
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "sweep-stalled-matches": {
        "task": "games.tasks.sweep_stalled_matches",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "sweep-unscored-tables": {
        "task": "tournaments.tasks.sweep_unscored_tables",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "sweep-ratings": {
        "task": "games.tasks.sweep_ratings",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "expire-challenges": {
        "task": "games.tasks.expire_challenges",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "purge-old-events": {
        "task": "games.tasks.purge_old_events",
        "schedule": RETENTION_SWEEP_SECONDS,
    },
    # The ladders' scheduler: rounds are due every ladder's interval_seconds; a tick seats those
    # that are due, each once however many ticks run (matchmaking.services.ladders).
    "run-ladders": {
        "task": "matchmaking.tasks.run_ladders",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "match-pool": {
        "task": "matchmaking.tasks.match_pool",
        "schedule": SWEEP_INTERVAL_SECONDS,
    },
    "purge-matchmaking": {
        "task": "matchmaking.tasks.purge_matchmaking",
        "schedule": RETENTION_SWEEP_SECONDS,
    },
    "purge-expired-idempotency-keys": {
        "task": "switchsite.tasks.purge_expired_idempotency_keys",
        "schedule": RETENTION_SWEEP_SECONDS,
    },
}

# celery beat's scheduler records its heartbeat as it ticks; workers record theirs on a timer
# (switchsite.heartbeats). /healthz reports either kind silent for longer than this as degraded.
CELERY_BEAT_SCHEDULER = "switchsite.heartbeats.RecordingScheduler"
HEARTBEAT_SILENT_SECONDS = env.integer("HEARTBEAT_SILENT_SECONDS", default=30, minimum=10)
# A worker serves its own Prometheus metrics on this port (0: it does not); the web processes serve
# theirs at /metrics (switchsite.metrics, docs/operations.md, "Monitoring").
WORKER_METRICS_PORT = env.integer("WORKER_METRICS_PORT", default=0, minimum=0)

# The cache holds rate-limit counters and the sweep's "published recently" marks, so it must be
# shared by every process: the broker's Redis when there is one, else this process's memory.
CACHES = {
    "default": env.cache(
        "CACHE_URL",
        default=CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "locmemcache://",
    )
}
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # One pool of connections per process, not one per request (switchsite.cache).
    CACHES["default"]["BACKEND"] = "switchsite.cache.PooledRedisCache"
    # A Redis that went away must cost a request a second at most, not hang it.
    CACHES["default"].setdefault("OPTIONS", {}).update(socket_connect_timeout=1, socket_timeout=1)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "switchsite.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Answers are JSON through orjson (drf-orjson-renderer); the browsable API stays for people.
    "DEFAULT_RENDERER_CLASSES": [
        "drf_orjson_renderer.renderers.ORJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "ORJSON_RENDERER_OPTIONS": (JSON_OPTIONS,),
    # Request bodies are JSON only (and the schema says so).
    "DEFAULT_PARSER_CLASSES": ["switchsite.api.parsing.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "switchsite.api.parsing.ContentNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "switchsite.problems.problem_exception_handler",
    # The client's address is REMOTE_ADDR, set from TRUSTED_PROXIES before Django sees the request;
    # DRF's own reading of X-Forwarded-For (the whole header when NUM_PROXIES is unset) is off.
    "NUM_PROXIES": 0,
    "DEFAULT_THROTTLE_CLASSES": [
        "switchsite.api.throttling.AnonRateThrottle",
        "switchsite.api.throttling.UserRateThrottle",
        "switchsite.api.throttling.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.rate("THROTTLE_ANON_RATE", default="60/minute"),
        "user": env.rate("THROTTLE_USER_RATE", default="1200/minute"),
        "registration": env.rate("THROTTLE_REGISTRATION_RATE", default="20/minute"),
        # Players' result reports, confirmations, disputes and self check-in, per caller.
        "reports": env.rate("THROTTLE_REPORTS_RATE", default="60/minute"),
        # Joining and leaving ladders, entering and leaving quick play: each player's own count.
        "ladder_membership": env.rate("THROTTLE_LADDER_RATE", default="10/minute"),
        "pool": env.rate("THROTTLE_POOL_RATE", default="20/minute"),
    },
}

# Request bodies of the API are small JSON documents; anything bigger is refused with 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.integer(
    "DATA_UPLOAD_MAX_MEMORY_SIZE", default=256 * 1024, minimum=1
)

# Fair shares (docs/operations.md, "Fair shares"): how much of the service one user may hold at
# once. Matches a user has created that are waiting or being played (the API's POST /matches/);
# server-bot seats in them; streams open per token, and per address for anonymous live pages (a
# club's phones behind one address), counted across every web process and host where there is
# Redis (switchsite.serving.streamcaps: a stream's place is a lease in Redis, renewed while it is
# open; a killed process's places come free within STREAM_LEASE_SECONDS).
USER_OPEN_MATCHES = env.integer("USER_OPEN_MATCHES", default=50, minimum=1)
USER_BOT_SEATS = env.integer("USER_BOT_SEATS", default=16, minimum=0)
STREAMS_PER_TOKEN = env.integer("STREAMS_PER_TOKEN", default=20, minimum=1)
STREAMS_PER_ADDRESS = env.integer("STREAMS_PER_ADDRESS", default=50, minimum=1)
STREAM_LEASE_SECONDS = env.integer("STREAM_LEASE_SECONDS", default=60, minimum=3)
# A player whose server bots used more than this many seconds of the workers' time in the last
# minute has their next bot work wait behind the bot work of those who used less (games.botshare).
BOT_SHARE_SECONDS = env.integer("BOT_SHARE_SECONDS", default=10, minimum=1)

# Quick play (POST /api/v1/pool/): how long an entry that accepts bots waits for people before
# server bots fill its table, unless it asks for another wait; the turn clock of its matches.
POOL_WAIT_SECONDS = env.integer("POOL_WAIT_SECONDS", default=30, minimum=0, maximum=3600)
POOL_TURN_SECONDS = env.integer("POOL_TURN_SECONDS", default=60, minimum=5, maximum=86400)

# Long polls and Server-Sent Events wait for a commit notification (switchsite.serving.notifier),
# not a timer. A stream stays open as long as its client keeps it, sending a comment line after
# SSE_KEEPALIVE_SECONDS of silence (at most 25: the contract promises one at least every 25 s);
# SSE_MAX_SECONDS, unset by default, ends each stream after that long (the client reconnects with
# Last-Event-ID). Waiting requests read the database through EVENT_READ_THREADS threads per
# process, each with one connection (switchsite.asyncdb).
SSE_MAX_SECONDS: float | None = (
    env.number("SSE_MAX_SECONDS", default=0, above=0) if env.is_set("SSE_MAX_SECONDS") else None
)
SSE_KEEPALIVE_SECONDS = env.number("SSE_KEEPALIVE_SECONDS", default=15, above=0, at_most=25)
EVENT_READ_THREADS = env.integer("EVENT_READ_THREADS", default=4, minimum=0)
# Every other request runs on one of SYNC_REQUEST_THREADS threads per process (switchsite.asgi).
SYNC_REQUEST_THREADS = env.integer("SYNC_REQUEST_THREADS", default=8, minimum=1)

# The connection tier (docs/operations.md, "The connection tier"): Pushpin signs the requests it
# passes on with GRIP_KEY (its pushpin.conf's sig_key); only such requests are answered with hold
# instructions, any other is held in process. Empty: no tier. The publisher (manage.py
# publish_events) posts what is committed to each URL of TIER_PUBLISH_URLS.
GRIP_KEY = env.text("GRIP_KEY", default="")
TIER_PUBLISH_URLS = env.names("TIER_PUBLISH_URLS", default=["http://127.0.0.1:5561/publish/"])

# Where `make serve` and `make run` listen, and how many processes `make serve` runs (switchsite.serve).
# Two per core rather than one: each process then holds half as many open streams, and a full
# garbage collection, which stops its whole process, lasts half as long
# (docs/decisions/2026-11-22-serving.md).
HOST = env.host("HOST", default="127.0.0.1")
PORT = env.integer("PORT", default=8000, minimum=1, maximum=65535)
WEB_CONCURRENCY = env.integer("WEB_CONCURRENCY", default=2 * (os.cpu_count() or 1), minimum=1)
# On SIGTERM a web process goes on serving this long while /healthz answers 404 "stopping", so that
# the balancer takes it out of rotation first; then its streams end and it stops
# (switchsite.serving.stopping). HAProxy as deploy/ sets it up needs one check (2 s) and a margin.
SHUTDOWN_DRAIN_SECONDS = env.number("SHUTDOWN_DRAIN_SECONDS", default=5, above=-1)

SPECTACULAR_SETTINGS = {
    "TITLE": "Switch game service",
    "DESCRIPTION": "Shedding Switch and Abbott's Switch: players, matches, moves and tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs' assets come from this service (drf-spectacular-sidecar), not from a CDN: the docs
    # page works with no internet access and never changes under us.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One schema name for a choice set used under several field names.
    "ENUM_NAME_OVERRIDES": {
        "PlayEnum": "tournaments.models.Tournament.Play",
        "MatchStatusEnum": "games.models.Match.Status",
        "EntryKindEnum": "tournaments.models.Entry.Kind",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
        "RulesetEnum": "switchsite.api.names.RULESET_NAMES",
        "StrategyEnum": "switchsite.api.names.STRATEGY_NAMES",
    },
    # Request and response shapes as separate components (``…Request``): write-only fields such as
    # ``password`` and ``expected_version`` appear only where they are sent, which generated clients
    # need to get right.
    "COMPONENT_SPLIT_REQUEST": True,
    # Request bodies are JSON only (the one parser): the schema lists no form or multipart bodies.
    "PARSER_WHITELIST": ["switchsite.api.parsing.JSONParser"],
    # Ids in paths (switchsite.api.converters): integers of at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1},
    },
    # What every operation may answer besides its own answers, and bodies without unknown fields
    # (switchsite.api.schema).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "switchsite.api.schema.every_operations_problems",
    ],
}

# A dependency that does not answer (Redis, PostgreSQL) is logged once, then once every this many
# seconds with a count of the failures, never with a traceback per request (switchsite.outages).
OUTAGE_LOG_SECONDS = env.number("OUTAGE_LOG_SECONDS", default=60, above=0)

# One line per request and nothing when nothing happened: at INFO the ASGI server's access log
# has a line for every request, 4xx included, so Django's own line for a 4xx ("Not Found: …") is
# left out (5xx keep theirs, with the traceback); the periodic sweeps are logged only when they
# found something; a dependency's outage is one line per OUTAGE_LOG_SECONDS; seat-link secrets and
# named tokens are redacted from every line, the ASGI server's too (switchsite.logfilters;
# switchsite.apps adds the filter to uvicorn's loggers).
# Every line has its time (UTC, ISO 8601), level and logger; LOG_FORMAT=json writes each as one JSON
# object, with the access log's fields (method, path, status, duration…) as members of their own.
LOG_FORMAT = env.choice("LOG_FORMAT", "text", ("text", "json"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {
            "()": "switchsite.logfilters.UtcFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        },
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(levelname)s %(name)s %(message)s",
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        },
    },
    "filters": {
        "quiet_sweeps": {"()": "switchsite.logfilters.QuietSweeps"},
        "outages": {"()": "switchsite.outages.Collapse"},
        "unavailable_answers": {"()": "switchsite.logfilters.UnavailableAnswers"},
        "redact_secrets": {"()": "switchsite.logfilters.RedactSecrets"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["outages", "redact_secrets"],
        }
    },
    "root": {
        "handlers": ["console"],
        "level": env.choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")),
    },
    "loggers": {
        "django.request": {"level": "ERROR", "filters": ["unavailable_answers"]},
        **{
            name: {"filters": ["quiet_sweeps"]}
            for name in ("celery.beat", "celery.worker.strategy", "celery.app.trace")
        },
    },
}

# Last: a process with a bad setting stops here, naming each bad variable on a line of its own.
env.check()
