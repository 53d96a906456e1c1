"""Running mqlite's command line for a benchmark: a fresh process with MQLITE_HOME set and no
MQSERVER, failing the benchmark with the command's output when it fails."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run(home: Path, *args: str, stdin: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """``mqlite ARGS`` in ``home``; its stdout."""
    environment = {**os.environ, "MQLITE_HOME": str(home), **(env or {})}
    environment.pop("MQSERVER", None)
    done = subprocess.run([sys.executable, "-m", "mqlite.cli.main", *args], input=stdin, text=True,
                          capture_output=True, env=environment, check=False)
    if done.returncode != 0:
        raise SystemExit(f"mqlite {' '.join(args)} failed: {done.stdout}{done.stderr}")
    return done.stdout
