# mqlite: make install | test | demo | bench | lint
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test demo bench lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,spark]'
	touch $(STAMP)

test: install
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy
	$(BIN)/pytest -q -p no:cacheprovider

demo: install
	$(BIN)/python examples/demo.py
	$(BIN)/python examples/spark_vwap.py

bench: install
	$(BIN)/python bench/p2p.py
	$(BIN)/python bench/pubsub.py
	$(BIN)/python bench/spark.py

lint: install
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy

clean:
	rm -rf $(VENV) build *.egg-info
