# The two commands of the README: `make run` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test eval train bench bench-scale lab clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rulegraph build

test: $(STAMP)
	$(BIN)/python -m pytest

eval: $(STAMP)
	$(BIN)/rulegraph evaluate
	$(BIN)/rulegraph evaluate --cross-validate

# Retrain the relation typer on every gold set (same data, same bytes); a build never trains.
train: $(STAMP)
	$(BIN)/python scripts/train_typer.py

bench: $(STAMP)
	$(BIN)/python scripts/benchmark.py

# Issue 12's figures on a synthetic catalogue (100 renamed copies of the Hell Dorado chapter).
bench-scale: $(STAMP)
	$(BIN)/python scripts/bench_scale.py

lab: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) out build src/*.egg-info
