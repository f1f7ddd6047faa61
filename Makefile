# Every target bootstraps its own virtual environment, so a fresh clone needs
# only `make play` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/mindflayer

lint: $(STAMP)
	$(BIN)/ruff check moderator tests bench
	$(BIN)/ruff format --check moderator tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	@for script in bench/bench_*.py; do \
		echo "== $$script"; \
		$(BIN)/python $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
