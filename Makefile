# The two commands of the quick start are `make run` and `make test`; each sets everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What the environment holds: the project with its `dev` extra (the tests and lint tools), or after
# `make install` (production) its `engine` extra only — and then every later target keeps to it.
EXTRAS ?= $(if $(wildcard $(VENV)/.installed-engine),engine,dev)
INSTALLED := $(VENV)/.installed-$(EXTRAS)

# One level for every log of the service — Django's, uvicorn's and Celery's.
LOG_LEVEL ?= INFO
# The web tier (docs/operations.md: "Serving"): uvicorn through switchsite.serve, which checks HOST,
# PORT and WEB_CONCURRENCY with the other settings and logs through the service's own logging.
# ASGI_APP is the service's application (a benchmark may serve a variant of it:
# benchmarks/orm_writer.py).
SERVE := $(BIN)/python -m switchsite.serve

.PHONY: install run serve worker beat test test-fast test-sources lint lint-js format bench schema \
	engine clean-engine hooks messages superuser

# The translation catalogues (docs/operations.md, "Languages"): the .po files are kept in the
# repository, the .mo files the service reads are compiled from them here (GNU gettext's msgfmt,
# Debian: gettext) and git-ignored, so that a catalogue is never committed twice nor stale.
CATALOGUES := $(wildcard locale/*/LC_MESSAGES/*.po)
COMPILED_CATALOGUES := $(CATALOGUES:.po=.mo)

%.mo: %.po
	msgfmt --check-format --check-domain --output-file=$@ $<

# With the `dev` extra, the bot kit too (clients/python, editable): its tests and type checks.
$(INSTALLED): pyproject.toml clients/python/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]" $(if $(filter dev,$(EXTRAS)),-e ./clients/python)
	touch $@

# The rules engine compiled with mypyc, in place beside its sources (docs/architecture.md, "The compiled engine"),
# rebuilt whenever one of them is newer than the stamp its build writes. Every target that runs the
# engine depends on it; importing the engine runs the sources instead of a compiled module older
# than its source. Without a C compiler the build says so in one line, writes no stamp and the
# sources run.
ENGINE := switchgame/compiled-sources.json
ENGINE_SOURCES := $(wildcard switchgame/*.py switchgame/shedding/*.py)

$(ENGINE): $(INSTALLED) $(ENGINE_SOURCES) scripts/build_engine.py
	$(BIN)/python scripts/build_engine.py

## Compile the rules engine (mypyc) if a source changed since its last build, and the translation
## catalogues if one changed.
engine: $(ENGINE) $(COMPILED_CATALOGUES)

## Check every commit message's shape with the repository's hook (scripts/git-hooks/commit-msg,
## docs/contributing.md): `make run`, `make test` and `make lint` install it. Outside a git
## checkout (an unpacked archive) there is nothing to install.
hooks:
	@if git rev-parse --git-dir >/dev/null 2>&1 && \
		[ "$$(git config core.hooksPath)" != scripts/git-hooks ]; then \
		git config core.hooksPath scripts/git-hooks && echo "git hooks: scripts/git-hooks"; \
	fi

## Production install (docs/operations.md, "Installing"): the service with its engine compiled and
## its catalogues, without the test and lint tools.
install:
	$(MAKE) --no-print-directory EXTRAS=engine engine

## Gather every string to translate into the French catalogues (server and browser), keeping the
## translations there; then translate what is new (tests/test_translations.py fails until then).
messages: $(INSTALLED)
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py makemessages --locale fr --domain django --ignore 'play/node_modules/*'
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py makemessages --locale fr --domain djangojs --ignore 'play/node_modules/*'

## Delete the compiled engine: the engine's sources then run as they are.
clean-engine:
	rm -f $(ENGINE) switchgame/*.so switchgame/shedding/*.so

# `make run`'s environment: the embedded default with DEBUG on unless the environment says
# otherwise. Without it the settings are production's, which need SECRET_KEY.
DEVELOPMENT := DEBUG=$${DEBUG:-true}

## Serve on 127.0.0.1:8000 (embedded default: SQLite file, Celery tasks in-process; DEBUG on):
## the same ASGI server as `make serve`, one process.
run: hooks $(ENGINE) $(COMPILED_CATALOGUES)
	$(DEVELOPMENT) $(BIN)/python manage.py migrate --noinput --verbosity 0
	$(DEVELOPMENT) WEB_CONCURRENCY=1 $(SERVE)

## A staff account for the admin of `make run`'s service (its database, its environment); without
## a terminal, from DJANGO_SUPERUSER_USERNAME, _EMAIL and _PASSWORD.
superuser: $(ENGINE) $(COMPILED_CATALOGUES)
	$(DEVELOPMENT) $(BIN)/python manage.py migrate --noinput --verbosity 0
	$(DEVELOPMENT) $(BIN)/python manage.py createsuperuser $(if $(DJANGO_SUPERUSER_PASSWORD),--noinput)

## Production shape, web tier: WEB_CONCURRENCY processes on HOST:PORT, DEBUG off. Reads
## DATABASE_URL, CELERY_BROKER_URL and the rest of the settings (docs/operations.md) from the
## environment. The deployment checks run first: a bad setting stops it here with one line naming
## the variable (uvicorn would start its worker processes again and again), and what a plain-HTTP
## install turned off is listed.
serve: $(ENGINE) $(COMPILED_CATALOGUES)
	DEBUG=false $(BIN)/python manage.py check --deploy
	DEBUG=false $(SERVE)

## Production shape: a Celery worker for the configured broker. Its pool's processes count their
## metrics in PROMETHEUS_MULTIPROC_DIR (a temporary directory unless given; switchsite.metrics),
## served on WORKER_METRICS_PORT when it is set.
worker: $(ENGINE) $(COMPILED_CATALOGUES)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$$(mktemp -d -t switch-worker-metrics.XXXXXX)} \
		$(BIN)/celery -A switchsite worker --loglevel=$(LOG_LEVEL)

## Production shape: the periodic sweep (turn clocks a lost task missed). Run exactly one.
beat: $(ENGINE) $(COMPILED_CATALOGUES)
	$(BIN)/celery -A switchsite beat --loglevel=$(LOG_LEVEL)

## Lint and type-check, then the whole test suite (uses DATABASE_URL / CELERY_BROKER_URL when they
## are set) in TEST_PROCESSES processes (pytest-xdist: each takes the next tests as it is free; a
## folder's live server and Chromium start once in each process that needs them) and, if the engine
## is compiled, its tests on its sources beside it — once for each version of the engine and of
## those tests on this machine (scripts/run_once.py), at the lowest CPU priority, so that they take
## only what the suite leaves idle. Their output follows the suite's; either failing fails the
## target. Property tests try the examples of the Hypothesis profile HYPOTHESIS_PROFILE
## (tests/hypothesis_profiles.py).
TEST_PROCESSES ?= 2
HYPOTHESIS_PROFILE ?= ci
PYTEST := $(BIN)/python -m pytest --hypothesis-profile $(HYPOTHESIS_PROFILE)
SOURCES_LOG := .artifacts/test-sources.log
test: hooks lint
	@mkdir -p .artifacts; rm -f $(SOURCES_LOG) $(SOURCES_LOG).status
	@if [ -f $(ENGINE) ]; then \
		(nice -n 19 $(BIN)/python scripts/run_once.py test-sources $(SOURCES_INPUTS) -- \
			$(MAKE) --no-print-directory test-sources > $(SOURCES_LOG) 2>&1; \
		 echo $$? > $(SOURCES_LOG).status) & \
	fi; \
	$(PYTEST) --numprocesses $(TEST_PROCESSES); suite=$$?; \
	wait; sources=0; \
	if [ -f $(SOURCES_LOG).status ]; then cat $(SOURCES_LOG); sources=$$(cat $(SOURCES_LOG).status); fi; \
	exit $$(( suite || sources ))

## The fast tier, for a developer between edits (under two minutes on two cores): the suite without
## the tests marked slow, browser, serving or fault (pyproject.toml; tests/conftest.py marks the
## last three from what they use), with the dev profile's few examples. No lint: `make lint`.
FAST := not (slow or browser or serving or fault)
test-fast: $(ENGINE) $(COMPILED_CATALOGUES)
	$(BIN)/python -m pytest --hypothesis-profile dev --numprocesses $(TEST_PROCESSES) -m "$(FAST)"

## The tests of the compiled modules (the shedding engine, cards, shuffle, events) on their
## sources, uncompiled, whether or not a build lies beside them. Abbott's game and the bots run
## from their sources either way. SOURCES_INPUTS: what they prove something about, whose change
## makes `make test` run them again.
ENGINE_TESTS := $(wildcard tests/engine/test_shedding_*.py) tests/engine/test_cards.py \
	tests/engine/test_rng.py tests/engine/test_events.py tests/engine/test_outcome.py \
	tests/engine/test_rulesets.py tests/engine/test_compiled_engine.py
SOURCES_INPUTS := $(sort $(wildcard switchgame/*.py switchgame/*/*.py)) $(ENGINE_TESTS) \
	tests/conftest.py tests/settings.py tests/hypothesis_profiles.py scripts/build_engine.py \
	pyproject.toml
test-sources: $(INSTALLED)
	SWITCH_ENGINE=sources $(PYTEST) -q $(ENGINE_TESTS)

## ruff, the import contracts, then mypy as configured in pyproject.toml (incremental: its cache is .mypy_cache/). mypy's
## Django plugin imports the engine, so the engine is built first. Then the browser client's checks.
lint: hooks $(ENGINE) $(COMPILED_CATALOGUES) lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIN)/mypy

## The browser client's checks (play/, docs/play.md): its types against the API's schema (tsc),
## Biome's lint and format, and its pure modules' tests (node --test) — over play/ and the
## tournament pages' scripts; then the TypeScript package's (clients/typescript/: its types
## generated from the schema compile with its client), run with the web client's tools, which are
## the package's at the same versions (tests/clients/test_typescript.py): one `npm ci` for both.
## Cached: `npm ci` again only when the lock file changed, each check only when one of its sources
## did. Without Node.js a line says they were skipped (CI=true: a failure).
PLAY_INSTALLED := play/node_modules/.installed
PLAY_CHECKED := play/node_modules/.checked
TS_CLIENT_CHECKED := play/node_modules/.ts-client-checked
PLAY_SOURCES := $(wildcard play/static/play/*.js play/static/play/*.css play/static/play/vendor/* \
	play/tests/*.js play/types/api.d.ts tournaments/static/tournaments/*.js) \
	play/package.json play/tsconfig.json play/biome.json docs/openapi.yaml
lint-js:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(PLAY_CHECKED) $(TS_CLIENT_CHECKED); \
	elif [ "$$CI" = true ]; then echo "CI=true but Node.js (npm) is not installed: the client is unchecked"; exit 1; \
	else echo "Node.js (npm) is not installed: the web client's checks are skipped"; fi

$(PLAY_INSTALLED): play/package-lock.json
	cd play && npm ci --no-audit --no-fund
	touch $@

$(PLAY_CHECKED): $(PLAY_INSTALLED) $(PLAY_SOURCES)
	cd play && npm run check
	touch $@

$(TS_CLIENT_CHECKED): $(PLAY_INSTALLED) $(wildcard clients/typescript/src/*.ts) \
		clients/typescript/package.json clients/typescript/tsconfig.json docs/openapi.yaml
	cd clients/typescript && PATH="$(CURDIR)/play/node_modules/.bin:$$PATH" npm run check
	touch $@

format: $(INSTALLED)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

## Regenerate the committed OpenAPI schema, and the bot kit's types made from it
## (clients/python/src/switchbot/schema.py, by its pyproject's [tool.datamodel-codegen]); a test
## fails while either is stale.
schema: $(ENGINE) $(COMPILED_CATALOGUES)
	DEBUG=true $(BIN)/python manage.py spectacular --validate --fail-on-warn --file docs/openapi.yaml
	cd clients/python && $(CURDIR)/$(BIN)/datamodel-codegen && $(CURDIR)/$(BIN)/ruff format --quiet src/switchbot/schema.py

## Speed benchmarks (figures go into docs/performance.md, never into timed tests).
bench: $(ENGINE) $(COMPILED_CATALOGUES)
	$(BIN)/python -m benchmarks
