"""What tests in every directory share: queue manager processes, their ports, waiting for a
condition. ``tests/conftest.py`` puts ``tests/`` on the path (pytest's rootdir conftest), so any
test file, run alone or with the rest, imports ``from helpers import ...``."""
