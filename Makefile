# The two set-up commands of the README: `make demo` and `make test`.
# Each creates .venv with the machine's python3 if it is absent and installs the
# package into it with the extras it needs; nothing else has to be installed by hand.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

# `make test-floor`: the same tests on the oldest releases pyproject.toml accepts,
# in a second environment (.venv-floor) installed under the pins of .ci/floors.txt.
FLOOR_VENV := .venv-floor
FLOOR_BIN  := $(FLOOR_VENV)/bin
FLOORS     := .ci/floors.txt

.PHONY: demo test test-fast lint test-floor test-long bench reproduce docs docs-fast clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[plot,data]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	touch $@

demo: $(VENV)/.installed-demo
	$(BIN)/preimage demo

# The whole suite on every core (pytest-xdist), after the linter and the
# formatter's check (the type check is a test: tests/test_typing.py).
test: $(VENV)/.installed-test lint
	$(BIN)/python -m pytest -q -n auto

$(FLOOR_BIN)/python:
	$(PYTHON) -m venv $(FLOOR_VENV)
	$(FLOOR_BIN)/python -m pip install --quiet --upgrade pip

$(FLOOR_VENV)/.installed-test: pyproject.toml $(FLOORS) | $(FLOOR_BIN)/python
	$(FLOOR_BIN)/python -m pip install --quiet --constraint $(FLOORS) -e ".[test]"
	touch $@

# All of the suite but the README's examples (a minute, on parts the other
# files test): every module imported (the doctests), the estimators through
# scikit-learn's checks and its KernelPCA suite, the property suites, and all
# that calls the other dependencies (command line, files, plots, Dask).
# The type check of the library's own code runs on the newest releases only:
# it needs their annotations (matplotlib ships them from 3.8, Pillow from 10,
# and NumPy's differ from release to release).
# About 9 minutes on 2 cores, the environment included.
test-floor: $(FLOOR_VENV)/.installed-test
	$(FLOOR_BIN)/python -m pytest -q -n auto --ignore=tests/test_readme.py \
		--deselect tests/test_typing.py::test_mypy_passes

# The suite without the tests marked slow (command-line runs, the README's
# examples, quick reproductions): a couple of minutes.
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -n auto -m "not slow"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks examples reproductions docs/*.py
	$(BIN)/ruff format --check src tests benchmarks examples reproductions docs/*.py

# The property suites with many more generated cases (a few minutes).
test-long: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q tests/test_properties_core.py tests/test_properties_kpca.py \
		tests/test_properties_models.py --hypothesis-profile=long

# The papers' experiments (reproductions/, outside the package), all of them.
reproduce: $(VENV)/.installed-demo
	$(BIN)/python -m reproductions all

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_gram.py

# The documentation site, warnings as errors: the API reference from the
# docstrings (numpydoc's checks of pyproject.toml), the user guide, and the
# gallery with its scripts run; then its internal links are checked. MathJax
# is fetched once into docs/_static/mathjax, so the site's equations render
# offline. `make docs-fast` builds the gallery's pages without running the scripts.
# Each ends with the time it took (since make started).
DOCS_BUILD := docs/_build/html
MATHJAX    := docs/_static/mathjax/tex-svg-full.js
DOCS_START := $(shell date +%s)
DOCS_TOOK   = took=$$(( $$(date +%s) - $(DOCS_START) )); echo "Built in $$((took / 60)) min $$((took % 60)) s."

$(MATHJAX): | $(BIN)/python
	$(BIN)/python docs/fetch_mathjax.py

docs: $(VENV)/.installed-docs $(MATHJAX)
	$(BIN)/sphinx-build -W --keep-going -b html docs $(DOCS_BUILD)
	$(BIN)/python docs/check_links.py $(DOCS_BUILD)
	@echo "The site is in $(DOCS_BUILD)/index.html"
	@$(DOCS_TOOK)

docs-fast: $(VENV)/.installed-docs $(MATHJAX)
	PREIMAGE_DOCS_FAST=1 $(BIN)/sphinx-build -W --keep-going -b html docs $(DOCS_BUILD)
	$(BIN)/python docs/check_links.py $(DOCS_BUILD)
	@echo "The site is in $(DOCS_BUILD)/index.html (the gallery's scripts not run)"
	@$(DOCS_TOOK)

clean:
	rm -rf $(VENV) $(FLOOR_VENV) build src/*.egg-info .pytest_cache \
		docs/_build docs/api/generated docs/auto_examples docs/_static/mathjax
