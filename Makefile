# The two set-up commands of the README: `make demo` and `make test`.
# Each creates .venv with the machine's python3 if it is absent and installs the
# package into it with the extras it needs; nothing else has to be installed by hand.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test test-fast lint test-long bench reproduce clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[plot,data]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

demo: $(VENV)/.installed-demo
	$(BIN)/preimage demo

# The whole suite, after the linter and the formatter's check (the type check
# is a test: tests/test_typing.py).
test: $(VENV)/.installed-test lint
	$(BIN)/python -m pytest -q

# The suite without the tests marked slow (command-line runs, the README's
# examples, quick reproductions): a couple of minutes.
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m "not slow"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

# The property suites with many more generated cases (a few minutes).
test-long: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q tests/test_properties_core.py tests/test_properties_kpca.py \
		tests/test_properties_models.py --hypothesis-profile=long

reproduce: $(VENV)/.installed-demo
	$(BIN)/preimage reproduce all

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_gram.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
