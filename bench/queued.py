"""Issue 32's figures, each a case of its own on a real queue manager process (``crtmqm -p 0``,
``strmqm``) in a temporary MQLITE_HOME, ended by ``endmqm -i`` (and by its pid if it lingers):

- ``pcf_inquire_q``: 10,000 local queues defined, then PCF INQUIRE_Q (generic name ``*``, all
  attributes, MQIA_Q_TYPE MQQT_LOCAL: the same queues as the MQSC) through the command server with
  ``mqlite.PCFExecute`` (pymqi's loop: an MQCFT_COMMAND_XR request, each queue a response, on a
  reply queue of MAXDEPTH 1,000,000) beside the same ``DISPLAY QLOCAL(*) ALL`` through the
  client's MQSC path (``QueueManager.mqsc``, runmqsc's), rounds alternating; inquiries and queues
  per second of each and PCF's rate over MQSC's (target: at least 1).

Each case is a function of the dispatch table ``CASES`` (name -> function(args) -> its figures);
``--only NAME`` runs one. Prints one JSON line.

Usage: ``python bench/queued.py [--only pcf_inquire_q] [--queues 10000] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mqlite_cli import run as cli

import mqlite
from mqlite import cmqc as C

QMGR = "BENCH.QUEUED"


@contextlib.contextmanager
def queue_manager() -> Iterator[mqlite.QueueManager]:
    """A started queue manager in a temporary MQLITE_HOME and an administrative connection to it."""
    with tempfile.TemporaryDirectory(prefix="mqlite-bench-queued-") as tmp:
        home = Path(tmp)
        os.environ["MQLITE_HOME"] = str(home)
        cli(home, "crtmqm", "-p", "0", QMGR)
        cli(home, "strmqm", QMGR)
        pid_file = home / "qmgrs" / QMGR / "qmgr.pid"
        pid = int(pid_file.read_text().split()[0]) if pid_file.exists() else None
        try:
            qm = mqlite.connect(QMGR)
            try:
                yield qm
            finally:
                qm.disconnect()
        finally:
            with contextlib.suppress(SystemExit):
                cli(home, "endmqm", "-i", QMGR)
            if pid is not None:
                _ended(pid)


def _ended(pid: int, grace: float = 30.0) -> None:
    """Wait for the queue manager's process to go; kill it (this bench started it) if it lingers."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def mqsc(qm: mqlite.QueueManager, text: str) -> list[str]:
    code, lines = qm.mqsc(text)
    if code:
        raise RuntimeError("\n".join(lines[-20:]))
    return lines


# -- pcf_inquire_q ---------------------------------------------------------------------------------
def pcf_inquire_q(args: argparse.Namespace) -> dict[str, Any]:
    queues, rounds = args.queues, args.rounds
    with queue_manager() as qm:
        for start in range(0, queues, 1000):  # in scripts of 1,000: each one MQSC request
            mqsc(qm, "".join(f"DEFINE QLOCAL(BENCH.Q{i:05d})\n" for i in range(start, min(queues, start + 1000))))
        # a reply queue that holds every response (the default model's MAXDEPTH is 5,000)
        mqsc(qm, "DEFINE QMODEL(BENCH.REPLY.MODEL) MAXDEPTH(1000000)\n")
        admin = mqlite.PCFExecute(qm, model_queue_name=b"BENCH.REPLY.MODEL", response_wait_interval=120_000)
        shown = sum(1 for line in mqsc(qm, "DISPLAY QLOCAL(*) ALL\n") if line.startswith("AMQ8409I"))

        def by_pcf() -> int:
            return len(admin.MQCMD_INQUIRE_Q({C.MQCA_Q_NAME: b"*", C.MQIA_Q_TYPE: C.MQQT_LOCAL}))

        def by_mqsc() -> int:
            return sum(1 for line in mqsc(qm, "DISPLAY QLOCAL(*) ALL\n") if line.startswith("AMQ8409I"))

        seconds: dict[str, list[float]] = {"pcf": [], "mqsc": []}
        counted: dict[str, int] = {}
        ways: list[tuple[str, Callable[[], int]]] = [("pcf", by_pcf), ("mqsc", by_mqsc)]
        for round_ in range(rounds):
            for name, way in ways if round_ % 2 == 0 else ways[::-1]:  # alternating who goes first
                began = time.perf_counter()
                counted[name] = way()
                seconds[name].append(time.perf_counter() - began)
        admin.disconnect()
    if counted["pcf"] != counted["mqsc"] or counted["mqsc"] != shown:
        raise SystemExit(f"PCF found {counted['pcf']} queues, MQSC {counted['mqsc']}")
    pcf_s, mqsc_s = statistics.median(seconds["pcf"]), statistics.median(seconds["mqsc"])
    return {"queues_defined": queues, "queues_shown": shown, "rounds": rounds,
            "pcf_inquiries_per_s": round(1 / pcf_s, 3), "mqsc_displays_per_s": round(1 / mqsc_s, 3),
            "pcf_queues_per_s": round(shown / pcf_s), "mqsc_queues_per_s": round(shown / mqsc_s),
            "pcf_over_mqsc": round(mqsc_s / pcf_s, 3),
            "pcf_seconds": [round(s, 3) for s in seconds["pcf"]],
            "mqsc_seconds": [round(s, 3) for s in seconds["mqsc"]]}


#: name -> the case (another developer's ``queued_publish`` goes beside it)
CASES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "pcf_inquire_q": pcf_inquire_q,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CASES), help="run this case only")
    parser.add_argument("--queues", type=int, default=10_000, help="pcf_inquire_q: local queues defined")
    parser.add_argument("--rounds", type=int, default=5, help="pcf_inquire_q: rounds of each way (median reported)")
    args = parser.parse_args()
    started = time.monotonic()
    results: dict[str, Any] = {"command": " ".join([os.path.basename(sys.executable), *sys.argv])}
    for name, case in CASES.items():
        if args.only in (None, name):
            results[name] = case(args)
    results["date"] = time.strftime("%Y-%m-%d %H:%M %Z")
    results["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
