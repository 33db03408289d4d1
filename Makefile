# The two commands of the README: `make run` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# cog's options for the documentation pages (tests/test_docs.py runs the same with --check).
COG_DOCS := -I . -p 'import scripts.docgen as docgen'

.PHONY: run test lint eval train bench bench-scale fuzz lab docs i18n clean bytecode

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

# An editable install leaves the package's own modules uncompiled: where PYTHONDONTWRITEBYTECODE
# is set, every command would compile them again (about 0.07 s of each cold build). compileall
# writes the bytecode a regular pip install writes, and skips what is up to date.
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q src/rulegraph >/dev/null

run: bytecode
	$(BIN)/rulegraph build
	@echo
	@echo "The rulegraph command lives in $(VENV): run '$(BIN)/rulegraph --help',"
	@echo "or 'source $(BIN)/activate' once in this shell, then 'rulegraph --help'."

test: $(STAMP)
	$(BIN)/python -m pytest

# Style and correctness of the code: ruff's lint rules, then mypy's types (both configured in pyproject).
lint: $(STAMP)
	$(BIN)/ruff check src tests scripts
	$(BIN)/mypy src

eval: $(STAMP)
	$(BIN)/rulegraph evaluate
	$(BIN)/rulegraph evaluate --cross-validate
	$(BIN)/python scripts/agreement.py

# Retrain the relation typer on every gold set (same data, same bytes); a build never trains.
train: $(STAMP)
	$(BIN)/python scripts/train_typer.py

bench: bytecode
	$(BIN)/python scripts/benchmark.py

# The documentation site, offline: regenerate the generated parts of the pages (the CLI
# reference, the vocabulary, every console example run on a copy of the seeds), then build with
# warnings as errors into build/site.
docs: $(STAMP)
	$(BIN)/cog $(COG_DOCS) -r docs/*.md
	$(BIN)/mkdocs build --strict

# A long fuzzing run (the suite runs 40 examples per property) and the full regex audit.
fuzz: $(STAMP)
	RULEGRAPH_FUZZ_EXAMPLES=$${RULEGRAPH_FUZZ_EXAMPLES:-3000} $(BIN)/python -m pytest tests/test_fuzz.py
	$(BIN)/python -m tests.regex_audit

# Messages: extract them from the code, merge them into each catalogue, compile the catalogues.
i18n: $(STAMP)
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ -k ngettext:1,2 -k pgettext:1c,2 --no-location --omit-header -o build/rulegraph.pot .
	$(BIN)/pybabel update -i build/rulegraph.pot -d src/rulegraph/locale -D rulegraph --no-fuzzy-matching --ignore-pot-creation-date
	$(BIN)/pybabel compile -d src/rulegraph/locale -D rulegraph

# Issue 12's figures on a synthetic catalogue (100 renamed copies of the Hell Dorado chapter).
bench-scale: bytecode
	$(BIN)/python scripts/bench_scale.py

lab: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	$(BIN)/nbstripout --install --attributes .gitattributes
	$(BIN)/jupyter lab notebooks/ $$( [ "$$(id -u)" = 0 ] && echo --allow-root )

clean:
	rm -rf $(VENV) out build src/*.egg-info
