"""The Eclipse Paho MQTT interoperability suite's client tests against mqlite and Mosquitto.

Given a checkout of https://github.com/eclipse/paho.mqtt.testing (not part of mqlite: fetch it
yourself), starts each broker on a port of its own, runs ``interoperability/client_test.py``
(MQTT 3.1.1) and ``client_test5.py`` (MQTT 5.0) against it, and prints one JSON line with the
tests run, passed and the names of those that failed, per broker and suite.

Usage: ``python bench/paho_interop.py /tmp/paho.mqtt.testing [--brokers mqlite,mosquitto]
[--verbose]``. Each suite runs in a process of its own with the checkout's ``interoperability``
directory as its working directory (its tests import ``mqtt.clients`` from there).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mqtt import BROKERS  # bench/mqtt.py: the same broker starters

SUITES = {"3.1.1": "client_test.py", "5.0": "client_test5.py"}
# The suites' subscribe-failure test needs a topic the broker refuses subscriptions to
# ("test/nosubscribe", their default): on mqlite a topic object with SUB(DISABLED) says so.
NO_SUBSCRIBE = "DEFINE TOPIC(PAHO.NOSUBSCRIBE) TOPICSTR('test/nosubscribe') SUB(DISABLED)\n"

# Runs one suite as its own ``__main__`` would, but with unittest's argv cut to the program name
# (client_test.py leaves ``-p PORT`` in sys.argv, which unittest then refuses), and reports the
# outcome as JSON on the last line.
_RUNNER = r"""
import json, runpy, sys, unittest
script, port = sys.argv[1], sys.argv[2]
sys.argv = [script, "-p", port]
outcome = {}
real_main = unittest.main
def main(*args, **kwargs):
    kwargs.update(argv=[script], exit=False)
    program = real_main(*args, **kwargs)
    result = program.result
    failed = [str(test).split()[0] for test, _ in result.failures + result.errors]
    outcome.update(run=result.testsRun, passed=result.testsRun - len(failed), failed=sorted(failed))
    return program
unittest.main = main
try:
    runpy.run_path(script, run_name="__main__")
finally:
    print("PAHO-RESULT " + json.dumps(outcome))
"""


def run_suite(checkout: Path, script: str, port: int, verbose: bool, timeout: float) -> dict[str, Any]:
    where = checkout / "interoperability"
    try:
        done = subprocess.run([sys.executable, "-c", _RUNNER, script, str(port)], cwd=where, timeout=timeout,
                              capture_output=True, text=True)
    except subprocess.TimeoutExpired:
        return {"run": 0, "passed": 0, "failed": [], "error": f"timed out after {timeout:.0f} s"}
    if verbose:
        sys.stderr.write(done.stdout + done.stderr)
    for line in reversed(done.stdout.splitlines()):
        if line.startswith("PAHO-RESULT "):
            outcome: dict[str, Any] = json.loads(line[len("PAHO-RESULT "):])
            if outcome:
                return outcome
    return {"run": 0, "passed": 0, "failed": [], "error": (done.stderr or done.stdout)[-500:]}


def configure(broker: str, work: Path) -> None:
    """What the suites expect of the broker beyond its defaults (mqlite: the refused topic)."""
    if broker != "mqlite":
        return  # Mosquitto is measured as installed, without an ACL file
    [home] = work.glob("mqlite-*")  # where bench/mqtt.py made the queue manager
    for qmgr in (home / "qmgrs").iterdir():
        subprocess.run([sys.executable, "-m", "mqlite.cli.main", "runmqsc", qmgr.name], input=NO_SUBSCRIBE,
                       text=True, check=True, capture_output=True, env={**os.environ, "MQLITE_HOME": str(home)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of eclipse/paho.mqtt.testing")
    parser.add_argument("--brokers", default="mqlite,mosquitto")
    parser.add_argument("--suites", default=",".join(SUITES))
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds one suite may take")
    parser.add_argument("--verbose", action="store_true", help="the suites' own output on stderr")
    args = parser.parse_args()
    if not (args.checkout / "interoperability" / "client_test.py").exists():
        parser.error(f"{args.checkout} is not a paho.mqtt.testing checkout")
    report: dict[str, dict[str, Any]] = {}
    for broker in args.brokers.split(","):
        report[broker] = {}
        for suite in args.suites.split(","):
            # A fresh broker per suite: what one suite leaves (retained messages, sessions) does
            # not decide the other's outcome.
            with tempfile.TemporaryDirectory(prefix="paho-") as work, BROKERS[broker](Path(work)) as (port, _pid):
                configure(broker, Path(work))
                report[broker][suite] = run_suite(args.checkout, SUITES[suite], port, args.verbose, args.timeout)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
