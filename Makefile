# The two commands of the quick start are `make run` and `make test`; each sets everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

.PHONY: run test lint format bench worker schema

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $@

## Serve on 127.0.0.1:8000 (embedded default: SQLite file, Celery tasks in-process; DEBUG on).
run: $(INSTALLED)
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver 127.0.0.1:8000

## Lint, then the whole test suite (uses DATABASE_URL / CELERY_BROKER_URL when they are set).
test: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(INSTALLED)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Regenerate the committed OpenAPI schema (a test fails while it is stale).
schema: $(INSTALLED)
	DEBUG=true $(BIN)/python manage.py spectacular --validate --fail-on-warn --file docs/openapi.yaml

## Speed benchmarks (figures go into the README, never into timed tests).
bench: $(INSTALLED)
	$(BIN)/python -m benchmarks

## A Celery worker for the configured broker (production shape; see the README).
worker: $(INSTALLED)
	$(BIN)/celery -A switchsite worker --loglevel=INFO
