"""Issue 32's figures, each a case of its own on a real queue manager process (``crtmqm -p 0``,
``strmqm``) in a temporary MQLITE_HOME, ended by ``endmqm -i`` (and by its pid if it lingers):

- ``pcf_inquire_q``: 10,000 local queues defined, then PCF INQUIRE_Q (generic name ``*``, all
  attributes, MQIA_Q_TYPE MQQT_LOCAL: the same queues as the MQSC) through the command server with
  ``mqlite.PCFExecute`` (pymqi's loop: an MQCFT_COMMAND_XR request, each queue a response, on a
  reply queue of MAXDEPTH 1,000,000) beside the same ``DISPLAY QLOCAL(*) ALL`` through the
  client's MQSC path (``QueueManager.mqsc``, runmqsc's), rounds alternating; inquiries and queues
  per second of each and PCF's rate over MQSC's (target: at least 1).
- ``queued_publish``: non-persistent publications of 100 bytes as MQRFH2 Publish commands put to
  SYSTEM.BROKER.DEFAULT.STREAM, delivered by the queued daemon to a subscriber registered with a
  RegSub command, beside MQI publications (MQPUT to a topic) to one DEFINE SUB subscriber, rounds
  alternating; publications per second until the last copy is on its queue, and the ratio
  (target: queued at least 0.5 of MQI).

Each case is a function of the dispatch table ``CASES`` (name -> function(args) -> its figures);
``--only NAME`` runs one. Prints one JSON line.

Usage: ``python bench/queued.py [--only pcf_inquire_q|queued_publish] [--queues 10000] [--rounds 5]
[--publications 5000] [--size 100]``
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
from mqlite.protocol import rfh2
from mqlite.protocol.rfh2_folders import parse

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


# -- queued_publish --------------------------------------------------------------------------------
def _command(psc: str, body: bytes = b"") -> bytes:
    """A command message's data: one MQRFH2 with the psc folder, then a string body."""
    header = rfh2.Rfh2Header((parse(psc),), C.MQENC_NATIVE, C.MQCCSI_INHERIT, C.MQFMT_STRING.strip())
    return rfh2.encode([header], body)


def _publish_round(qm: mqlite.QueueManager, kind: str, count: int, size: int) -> float:
    """``count`` publications of ``size`` bytes, non-persistent, one subscriber: seconds until the
    last copy is on the subscriber's queue."""
    body = b"x" * size
    target = mqlite.Queue(qm, f"BENCH.{kind.upper()}.SUBQ", C.MQOO_INQUIRE)
    began = time.perf_counter()
    if kind == "queued":
        stream = mqlite.Queue(qm, "SYSTEM.BROKER.DEFAULT.STREAM", C.MQOO_OUTPUT)
        data = _command("<psc><Command>Publish</Command><Topic>Bench/Queued</Topic></psc>", body)
        for _ in range(count):
            stream.put(data, mqlite.MD(Format=C.MQFMT_RF_HEADER_2.encode(), MsgType=C.MQMT_DATAGRAM))
        stream.close()
    else:
        topic = mqlite.Topic(qm, topic_string="Bench/MQI")
        topic.open(open_opts=C.MQOO_OUTPUT)
        for _ in range(count):
            topic.pub(body, mqlite.MD(Format=C.MQFMT_STRING.encode()))
        topic.close()
    while int(target.inquire(C.MQIA_CURRENT_Q_DEPTH)) < count:
        time.sleep(0.001)
    elapsed = time.perf_counter() - began
    target.close()
    mqsc(qm, f"CLEAR QLOCAL(BENCH.{kind.upper()}.SUBQ)\n")
    return elapsed


def queued_publish(args: argparse.Namespace) -> dict[str, Any]:
    """Queued publications (an MQRFH2 Publish command put to SYSTEM.BROKER.DEFAULT.STREAM, the
    daemon publishing it to a queued subscriber registered with RegSub) beside MQI publications
    (MQPUT to a topic, one DEFINE SUB subscriber), rounds alternating (target: queued at least
    0.5 of MQI)."""
    count, size, rounds = args.publications, args.size, args.rounds
    with queue_manager() as qm:
        mqsc(qm, "DEFINE QLOCAL(BENCH.QUEUED.SUBQ) MAXDEPTH(1000000)\nDEFINE QLOCAL(BENCH.MQI.SUBQ) MAXDEPTH(1000000)\n"
                 "DEFINE QLOCAL(BENCH.REPLY)\nDEFINE SUB(BENCH.MQI) TOPICSTR('Bench/MQI') DEST(BENCH.MQI.SUBQ)\n")
        md = mqlite.MD(Format=C.MQFMT_RF_HEADER_2.encode(), MsgType=C.MQMT_REQUEST, ReplyToQ=b"BENCH.REPLY")
        control = mqlite.Queue(qm, "SYSTEM.BROKER.CONTROL.QUEUE", C.MQOO_OUTPUT)
        control.put(_command("<psc><Command>RegSub</Command><Topic>Bench/Queued</Topic>"
                             "<QName>BENCH.QUEUED.SUBQ</QName></psc>"), md)
        control.close()
        reply = mqlite.Queue(qm, "BENCH.REPLY").get(None, mqlite.MD(), mqlite.GMO(Options=C.MQGMO_WAIT,
                                                                                   WaitInterval=60_000))
        if b"<Completion>ok</Completion>" not in reply:
            raise SystemExit(f"RegSub refused: {reply!r}")
        seconds: dict[str, list[float]] = {"queued": [], "mqi": []}
        kinds = ["mqi", "queued"]
        for round_ in range(rounds):
            for kind in kinds if round_ % 2 == 0 else kinds[::-1]:
                seconds[kind].append(_publish_round(qm, kind, count, size))
    rates = {kind: [count / s for s in values] for kind, values in seconds.items()}
    ratios = [q / m for q, m in zip(rates["queued"], rates["mqi"], strict=True)]
    return {"publications": count, "bytes": size, "rounds": rounds,
            "queued_per_s": round(statistics.median(rates["queued"])),
            "mqi_per_s": round(statistics.median(rates["mqi"])),
            "queued_over_mqi": round(statistics.median(ratios), 3),
            "ratios": [round(r, 3) for r in ratios]}


#: name -> the case
CASES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "pcf_inquire_q": pcf_inquire_q,
    "queued_publish": queued_publish,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(CASES), help="run this case only")
    parser.add_argument("--queues", type=int, default=10_000, help="pcf_inquire_q: local queues defined")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each way (median reported)")
    parser.add_argument("--publications", type=int, default=5_000, help="queued_publish: publications a round")
    parser.add_argument("--size", type=int, default=100, help="queued_publish: bytes a publication")
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
