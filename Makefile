# Aliases only: the real work lives in pyproject.toml and the konum CLI.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What building the site needs; the test and lint tools come on top, for `make test`/`lint`.
SITE_STAMP := $(VENV)/.site-installed
TEST_STAMP := $(VENV)/.test-installed
DEV_STAMP := $(VENV)/.dev-installed
export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: site test test-slow test-oldest serve lint dist bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(SITE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(SITE_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(DEV_STAMP): $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dev]'
	touch $@

# Both editions (mkdocs.yml into site/, mkdocs.tr.yml into site/tr/), published together.
site: $(SITE_STAMP)
	$(BIN)/konum build

# Two workers; tests that share a module's fixtures stay on one worker. The tests marked slow
# (whole builds, installing a wheel, Zensical, sweeps of every page and axe-core runs in
# Chromium) run in `make test-slow`. CI runs both in one pytest run, `make test
# TESTS=all`, so that what they share (the real site, built once) is made once.
# konum is compiled to bytecode first: with PYTHONDONTWRITEBYTECODE (above) every konum
# process the tests start would otherwise compile the package from source again.
TESTS ?= not slow
test: $(TEST_STAMP)
	$(BIN)/python -m compileall -q generator/konum
	$(BIN)/python -m pytest -q -n 2 --dist loadscope $(if $(filter all,$(TESTS)),,-m "$(TESTS)")

test-slow: $(TEST_STAMP)
	$(BIN)/python -m compileall -q generator/konum
	$(BIN)/python -m pytest -q -n 2 --dist loadscope -m slow

# The oldest Python that pyproject.toml allows, in a virtualenv of its own: the suite
# without the browser tests (those check the front end, the same on every Python) and
# without the slow whole builds (the same code paths as the fast tests, on the newest Python)
# and without the external readers (Node.js, Chromium's printer) and the figures' drawing
# tests (matplotlib's output; the real site's build on this Python draws every figure).
OLDEST ?= python3.10
OLDEST_VENV := .venv-oldest
OLDEST_STAMP := $(OLDEST_VENV)/.installed

$(OLDEST_STAMP): pyproject.toml
	test -x $(OLDEST_VENV)/bin/python || $(OLDEST) -m venv $(OLDEST_VENV)
	$(OLDEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(OLDEST_VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(OLDEST_STAMP)

test-oldest: $(OLDEST_STAMP)
	$(OLDEST_VENV)/bin/python -m compileall -q generator/konum
	$(OLDEST_VENV)/bin/python -m pytest -q -n 2 --dist loadscope --ignore=tests/browser \
	  --ignore=tests/test_figures.py --ignore=tests/test_figures_language.py -m "not slow and not external"

serve: $(SITE_STAMP)
	$(BIN)/konum serve

lint: $(DEV_STAMP)
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator tests bench
	MYPYPATH=generator $(BIN)/mypy -p konum -p konum_pe

# The wheel and the sdist in dist/, as the release workflow builds them, then twine's check of
# both. Bytecode is on for setuptools here (it warns when told not to write it).
dist: $(TEST_STAMP)
	rm -rf dist
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*

bench: $(TEST_STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf site .site-tmp-* .site-old-* .site-lock exports $(VENV) $(OLDEST_VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
