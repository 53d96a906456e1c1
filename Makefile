# mqlite: make install | test | demo | bench | lint
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# A machine that sets PYTHONDONTWRITEBYTECODE makes every queue manager and CLI process the tests
# start compile mqlite again (a third of make test's CPU); the tests and demo want bytecode cached.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install compiled tools peers test test-pure test-loaded demo bench cost lint clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@# pip's own warnings (a machine's extra package locations that do not exist) go to a log, shown on failure
	$(BIN)/pip install -q --upgrade pip 2>$(VENV)/pip.log || { cat $(VENV)/pip.log; exit 1; }
	$(BIN)/pip install -q -e '.[dev,spark]' 2>>$(VENV)/pip.log || { cat $(VENV)/pip.log; exit 1; }
	touch $(STAMP)

# The hot modules compiled with mypyc beside their sources (mqlite/compiled.py): again whenever one
# of them changed, at once when none did; with no C compiler the pure-Python package runs.
compiled: install
	$(BIN)/python -m mqlite.compiled build

# Debian's Mosquitto and its clients: the MQTT tests' and benchmark's peers (skipped without them);
# Debian's chromium: the console's browser tests (skipped without it).
tools:
	@command -v mosquitto_sub >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	  { apt-get install -y -q mosquitto mosquitto-clients >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q mosquitto mosquitto-clients >/dev/null 2>&1; }; }; } || \
	  echo "note: mosquitto-clients could not be installed; the tests that use it are skipped"
	@# Debian's chromium: the console's browser tests (tests/integration/test_web_console.py, Playwright)
	@command -v chromium >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	  { apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; }; }; } || \
	  echo "note: chromium could not be installed; the console's browser tests are skipped"

test: install compiled tools
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy
	@# three workers on two cores: most tests wait on queue managers, not on the CPU; a module stays
	@# on one worker and the Spark modules share one (tests/conftest.py), so fixtures are made once
	$(BIN)/python -m compileall -q src tests >/dev/null
	$(BIN)/pytest -q -p no:cacheprovider -n 3 --dist loadgroup

# make test's pytest against the pure-Python package (MQLITE_PURE=1: every hot module from its source),
# the build of a machine without a C compiler; CI runs it after make test
test-pure: install tools
	$(BIN)/python -m compileall -q src tests >/dev/null
	MQLITE_PURE=1 $(BIN)/pytest -q -p no:cacheprovider -n 3 --dist loadgroup

# make test's pytest with every core busy (tests/helpers/under_load.py: one CPU hog per core, ended
# by pid afterwards): a test that passes here and in make test waits on conditions, not on a clock
test-loaded: install compiled tools
	$(BIN)/python -m compileall -q src tests >/dev/null
	$(BIN)/python tests/helpers/under_load.py -- $(BIN)/pytest -q -p no:cacheprovider -n 3 --dist loadgroup

demo: install compiled
	$(BIN)/python examples/demo.py
	$(BIN)/python examples/spark_vwap.py

# Debian's Redis and PostgreSQL: the peers of bench/p2p.py's synchronous-producers case (skipped without them).
peers:
	@command -v redis-server >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/pgbench >/dev/null 2>&1 || \
	  { command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && \
	    { apt-get install -y -q redis-server postgresql >/dev/null 2>&1 || \
	      { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q redis-server postgresql >/dev/null 2>&1; }; }; } || \
	  echo "note: redis-server or postgresql could not be installed; bench/p2p.py skips those peers"

# Instructions per message of the queue manager under callgrind (issue 34, docs/PERFORMANCE.md
# "Issue 34: the measuring stick"; needs valgrind and gcc): bench/cost.py compiles its LD_PRELOAD
# shim bench/frozen_clock.c (gcc -O2 -shared -fPIC ... -ldl) into ~/.cache/mqlite-bench/ when missing.
cost: install compiled
	$(BIN)/python bench/cost.py --all

bench: install tools peers
	$(BIN)/python bench/p2p.py
	$(BIN)/python bench/pubsub.py
	$(BIN)/python bench/spark.py
	$(BIN)/python bench/mqtt.py --plot docs/mqtt.svg
	$(BIN)/python bench/timing.py
	$(BIN)/python bench/security.py
	$(BIN)/python bench/sharecnv.py
	$(BIN)/python bench/channels.py --plot docs/channels.svg
	$(BIN)/python bench/cluster.py
	$(BIN)/python bench/spark_cluster.py
	$(BIN)/python bench/dpubsub.py --plot docs/dpubsub.svg
	$(BIN)/python bench/links.py
	$(BIN)/python bench/link_parts.py

lint: install
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy

clean:
	test ! -x $(BIN)/python || $(BIN)/python -m mqlite.compiled clean
	rm -rf $(VENV) build *.egg-info
