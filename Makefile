# Aliases only: the real work lives in pyproject.toml and the konum CLI.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: site test test-oldest serve lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

site: $(STAMP)
	$(BIN)/konum build

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The oldest Python that pyproject.toml allows, in a virtualenv of its own: the suite
# without the browser tests (those check the front end, the same on every Python).
OLDEST ?= python3.10
OLDEST_VENV := .venv-oldest
OLDEST_STAMP := $(OLDEST_VENV)/.installed

$(OLDEST_STAMP): pyproject.toml
	test -x $(OLDEST_VENV)/bin/python || $(OLDEST) -m venv $(OLDEST_VENV)
	$(OLDEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST_VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(OLDEST_STAMP)

test-oldest: $(OLDEST_STAMP)
	$(OLDEST_VENV)/bin/python -m pytest -q --ignore=tests/browser

serve: $(STAMP)
	$(BIN)/konum serve

lint: $(STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf site .site-tmp-* .site-old-* .site-lock $(VENV) $(OLDEST_VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
