# Two commands set up a fresh machine: `make run` and `make test`.
# Each creates .venv when missing (or when pyproject.toml is newer than the install) and installs
# the project into it; when already set up they start at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.dreamtable-installed

.PHONY: run test bench screens install-pi clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion app $(RUN_ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m bench $(BENCH)

# Screenshots of every screen at 800x480 and 1280x720 into docs/screens/ (needs Xvfb).
screens: $(STAMP)
	$(BIN)/python -m ui.screenshots

clean:
	rm -rf $(VENV) build *.egg-info

# On a Raspberry Pi: install Dreamtable as a kiosk that starts at boot (see docs/INSTALL.md).
install-pi:
	systemd/install.sh $(INSTALL_ARGS)
