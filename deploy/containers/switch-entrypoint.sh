#!/bin/sh
# The Switch image's commands (Containerfile; compose.yaml runs one per service):
#   web | worker | beat   the processes of the production shape (docs/operations.md), each waiting
#                         first until the database has this release's schema;
#   migrate               this release's migrations, once (compose's `migrate` service; "Upgrades");
#   health web|worker|beat   the container's health check;
#   anything else         run as given, e.g. `python manage.py createsuperuser`.
# A bad setting stops each with one line naming it (Django's system checks read every setting).
set -eu

# The web, worker and beat processes of a new release start before its migrations have run (compose
# starts them together, and waits for nothing): they wait for the schema rather than fail on it,
# and never migrate it themselves. Nothing is printed while the database cannot be reached or the
# schema is behind, but a line every 30 s.
wait_for_schema() {
    waited=0
    until python manage.py migrate --check >/dev/null 2>&1; do
        if [ $((waited % 30)) -eq 0 ]; then
            echo "waiting for the database and its schema (the migrate service) for ${waited} s"
        fi
        sleep 2
        waited=$((waited + 2))
    done
}

case "${1:-web}" in
web)
    # As `make serve`: the deployment checks list what a plain-HTTP install turned off.
    python manage.py check --deploy
    wait_for_schema
    exec python -m switchsite.serve
    ;;
worker)
    python manage.py check >/dev/null
    wait_for_schema
    # Its pool's metrics, added up for a scrape of WORKER_METRICS_PORT (switchsite.metrics).
    export PROMETHEUS_MULTIPROC_DIR="${PROMETHEUS_MULTIPROC_DIR:-/tmp/switch-worker-metrics}"
    mkdir -p "$PROMETHEUS_MULTIPROC_DIR"
    exec celery -A switchsite worker --loglevel="${LOG_LEVEL:-INFO}"
    ;;
beat)
    python manage.py check >/dev/null
    wait_for_schema
    exec celery -A switchsite beat --loglevel="${LOG_LEVEL:-INFO}" \
        --schedule=/var/lib/switch/celerybeat-schedule
    ;;
migrate)
    exec python manage.py migrate --noinput
    ;;
health)
    case "${2:-}" in
    # 200 (`ok` or `degraded`: the host serves); 503 unavailable or 404 stopping are not healthy.
    web) exec python -c 'import os, urllib.request; urllib.request.urlopen(
"http://127.0.0.1:%s/healthz" % os.environ.get("PORT", "8000"), timeout=5)' ;;
    # This worker answers through the broker.
    worker) exec celery -A switchsite inspect ping --timeout 5 --destination "celery@${HOSTNAME:-$(hostname)}" ;;
    # Beat's heartbeat is recent (there is exactly one beat).
    beat) exec python manage.py shell --command \
        'from switchsite import heartbeats; print(heartbeats.check(heartbeats.BEAT))' ;;
    *) echo "usage: health web|worker|beat" >&2; exit 2 ;;
    esac
    ;;
*)
    exec "$@"
    ;;
esac
