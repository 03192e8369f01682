# Two commands matter: `make run` and `make test`. Everything else is a helper.
.DEFAULT_GOAL := help
SHELL := /bin/bash

VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Django 6 needs Python >= 3.12: take the first such interpreter on this machine
# (plain names first, then pyenv installs, which pyenv shims hide).
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 python3 \
	$$HOME/.pyenv/versions/3.14*/bin/python3 $$HOME/.pyenv/versions/3.13*/bin/python3 \
	$$HOME/.pyenv/versions/3.12*/bin/python3; do \
	"$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && { echo "$$p"; break; }; done)

.PHONY: help run venue restore test lint format bench messages guide clean

# The port `make run` serves on, and that its printed links name: `PORT=8001 make run`
# (or `make run PORT=8001`) when 8000 is taken.
PORT ?= 8000

help:
	@echo "make run    - set up .venv, migrate, load the demo and serve on http://127.0.0.1:8000"
	@echo "              (PORT=8001 make run: on another port, when 8000 is taken)"
	@echo "make venue  - serve the room from this laptop (production settings, printed address and QR)"
	@echo "make restore FILE=backup.json - restore a tournament's backup (docs/backups.md)"
	@echo "make test   - lint (ruff, import layers, mypy) and run the whole test suite"
	@echo "make bench  - print performance figures"
	@echo "make guide  - take the guide's pictures again (docs/guide/img/) from a scripted tournament"

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 or newer is needed (Django 6); none found." >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	@$(BIN)/python -m config.port $(PORT) --again "PORT={port} make run"
	DJANGO_DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DJANGO_DEBUG=1 $(BIN)/python manage.py demo_setup --address http://127.0.0.1:$(PORT)
	DJANGO_DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# The room's server on this laptop: gunicorn on the local network, DEBUG off, state in var/.
venue: $(STAMP)
	$(BIN)/python -m config.venue

# Restore a tournament's JSON backup (docs/backups.md): FILE=path, into DATABASE_URL, by
# default the database `make venue` serves. A management command signs nothing, so the
# restore needs no secret key of its own: a throwaway one unless one is set.
# FILE, DATABASE_URL and VENUE_DIR reach the recipe through the environment (make exports
# the variables given on its command line), never pasted into the shell line: a path with
# a quote or a space ("TD's backup.json") is passed as it is. The command reads the file,
# then opens the database, and only then migrates it and imports.
restore: $(STAMP)
	@test -n "$$FILE" || { echo "Usage: make restore FILE=var/backups/<id>-<name>/backup-<time>.json [DATABASE_URL=...]" >&2; exit 1; }
	@if [ -z "$$DATABASE_URL" ]; then \
		venue_dir="$${VENUE_DIR:-var}" && mkdir -p "$$venue_dir" && \
		DATABASE_URL="sqlite:///$$(cd "$$venue_dir" && pwd)/venue.sqlite3"; \
	fi; \
	DATABASE_URL="$$DATABASE_URL" DJANGO_SECRET_KEY="$${DJANGO_SECRET_KEY:-restore-only}" \
		$(BIN)/python manage.py import_tournament --migrate "$$FILE"

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	@# Types ([tool.mypy]): django-stubs loads the settings, which want a secret key.
	DJANGO_SECRET_KEY=type-check-only $(BIN)/mypy

# The suite on every core (pytest-xdist): a module's tests stay on one worker (--dist
# loadfile), since they share its servers and databases. PYTEST_ARGS replaces this:
# `make test PYTEST_ARGS="tests/scoring -x"` runs in one process.
PYTEST_ARGS ?= -n auto --dist loadfile

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	$(BIN)/python bench/bench_scoring.py
	$(BIN)/python bench/bench_hands.py
	$(BIN)/python bench/bench_revisor.py
	$(BIN)/python bench/bench_pages.py
	$(BIN)/python bench/bench_roundtrip.py
	$(BIN)/python bench/bench_slow_clients.py
	$(BIN)/python bench/bench_gc.py
	$(BIN)/python bench/bench_venue_start.py
	$(BIN)/python bench/bench_public.py

# The guide's pictures (docs/guide/README.md): a scripted tournament on a throwaway SQLite
# database, served on a free port, photographed by Debian's chromium in English and Swedish.
guide: $(STAMP)
	$(BIN)/python docs/guide/shoot.py

# Needs GNU gettext (Debian: apt-get install gettext).
# DEBUG settings: the commands need no secret key; compilemessages only the project's own
# catalogue, not every package's in .venv.
messages: $(STAMP)
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemessages -l sv --no-obsolete --no-location
	DJANGO_DEBUG=1 $(BIN)/python manage.py compilemessages -l sv --ignore '.venv*'

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
