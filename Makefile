# The two commands a new user needs: `make serve` (the server and the browser
# client) and `make test`. The terminal game is `.venv/bin/fourhundred play`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint typecheck pytest install services bench clean

# Create the virtual environment and install the package with its dev tools
# (again whenever the packaging or the C core changes).
$(STAMP): pyproject.toml setup.py $(wildcard src/fourhundred/engine/_*.[ch] src/fourhundred/bots/_*.[ch])
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The type checker of the browser client, pinned in package-lock.json (the
# client itself has no build step: tsc only reads its JSDoc types).
NODE_STAMP := node_modules/.installed
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

install: $(STAMP) $(NODE_STAMP)

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	node_modules/.bin/tsc -p jsconfig.json

typecheck: $(STAMP)
	$(BIN)/mypy --strict

# PostgreSQL, Redis and Chromium for the tests of those paths.
services:
	scripts/ensure-services.sh

pytest: $(STAMP) services
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache build src/*.egg-info
	find src -name '*.so' -delete

# Run the online server on http://127.0.0.1:8400/ (SQLite in ./data unless
# FOURHUNDRED_DATABASE_URL or DATABASE_URL names another database; HOST and
# PORT, when set, replace the defaults, which `fourhundred serve --help` shows).
.PHONY: serve
serve: $(STAMP)
	$(BIN)/fourhundred serve $${HOST:+--host $$HOST} $${PORT:+--port $$PORT}
