# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pegboard demo

lint: $(STAMP)
	$(BIN)/ruff check pegboard tests bench
	$(BIN)/ruff format --check pegboard tests bench
	$(BIN)/mypy pegboard

test: lint
	$(BIN)/pytest

# benchmarks print figures; cribbage-scorer is the reference for the scoring comparison only
bench: $(STAMP)
	$(BIN)/pip install --quiet cribbage-scorer
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
