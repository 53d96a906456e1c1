"""The queued interface across a restart and as time passes, with a real queue manager process:
persistent retained publications and registrations survive an end (controlled or kill -9),
non-persistent retained publications do not (D:S-24, D §9.4); a retained publication's expiry
is reduced by the time it was held, and once it has passed ReqUpdate finds none (D:S-23). Time
is moved by the queue manager's clock-offset file, never waited for."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

import mqlite as pymqi
from helpers import qmgr_process
from helpers.queued import CONTROL, DEFAULT_STREAM, get, put_command
from helpers.waiting import wait_until
from mqlite import cmqc as C

QM = "QPSRESTART"


def _define(qm: pymqi.QueueManager) -> None:
    code, lines = qm.mqsc("DEFINE QLOCAL(SUB.Q)\nDEFINE QLOCAL(REPLY.Q)\n")
    assert code == 0, lines


def _command(qm: pymqi.QueueManager, queue: str, psc: str, body: bytes = b"", **kw: object) -> object:
    msg_id = put_command(qm, queue, psc, body, reply_q="REPLY.Q", **kw)  # type: ignore[arg-type]
    return get(qm, "REPLY.Q", correl_id=msg_id)


@pytest.mark.parametrize("ending", ["endmqm", "kill -9"])
def test_restart_keeps_persistent_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: str) -> None:
    """D:S-24: after the restart ReqUpdate on the non-persistent retained topic is 3077, on the
    persistent one it delivers; the registration itself survived (durable, D §15 step 3)."""
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    qmgr_process.create(QM)
    proc = qmgr_process.start(QM, tmp_path)
    try:
        qm = pymqi.connect(QM)
        _define(qm)
        for topic, persistence in (("Keep/N", C.MQPER_NOT_PERSISTENT), ("Keep/P", C.MQPER_PERSISTENT)):
            got = _command(qm, DEFAULT_STREAM, f"<psc><Command>Publish</Command><PubOpt>RetainPub</PubOpt>"
                           f"<Topic>{topic}</Topic></psc>", topic.encode(), persistence=persistence)
            assert got.completion == "ok"  # type: ignore[attr-defined]
        got = _command(qm, CONTROL, "<psc><Command>RegSub</Command><RegOpt>PubOnReqOnly</RegOpt>"
                       "<Topic>Keep/+</Topic><QName>SUB.Q</QName></psc>")
        assert got.completion == "ok"  # type: ignore[attr-defined]
        qm.disconnect()
        if ending == "endmqm":
            qmgr_process.stop(proc)
        else:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        proc = qmgr_process.start(QM, tmp_path)
        qm = pymqi.connect(QM)
        request = "<psc><Command>ReqUpdate</Command><Topic>Keep/+</Topic><QName>SUB.Q</QName></psc>"
        got = _command(qm, CONTROL, request)
        assert got.completion == "ok"  # type: ignore[attr-defined]
        update = get(qm, "SUB.Q")
        assert update.decoded.body == b"Keep/P"
        assert update.psc is not None and update.psc.values("Topic") == ["Keep/P"]
        got = _command(qm, DEFAULT_STREAM, "<psc><Command>DeletePub</Command><Topic>Keep/P</Topic></psc>")
        assert got.completion == "ok"  # type: ignore[attr-defined]
        assert _command(qm, CONTROL, request).reasons == [3077]  # type: ignore[attr-defined]
        qm.disconnect()
    finally:
        qmgr_process.stop(proc)


def test_retained_expiry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """D:S-23: Expiry 600 (60 s); 20 s later a new subscription's copy has about 400 left; after
    60 s ReqUpdate is 3077."""
    offset = tmp_path / "clock-offset"
    offset.write_text("0")
    monkeypatch.setenv("MQLITE_HOME", str(tmp_path))
    monkeypatch.setenv("MQLITE_CLOCK_OFFSET_FILE", str(offset))
    qmgr_process.create(QM)
    proc = qmgr_process.start(QM, tmp_path)
    try:
        qm = pymqi.connect(QM)
        _define(qm)
        started = time.monotonic()
        got = _command(qm, DEFAULT_STREAM, "<psc><Command>Publish</Command><PubOpt>RetainPub</PubOpt>"
                       "<Topic>Expiring/T</Topic></psc>", b"e", expiry=600)
        assert got.completion == "ok"  # type: ignore[attr-defined]
        offset.write_text("20")
        log = tmp_path / "qmgrs" / QM / "AMQERR01.LOG"
        wait_until(lambda: "offset 20 s" in log.read_text(), "the queue manager's clock moved 20 s")
        got = _command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Expiring/T</Topic>"
                       "<QName>SUB.Q</QName></psc>")
        assert got.completion == "ok"  # type: ignore[attr-defined]
        copy = get(qm, "SUB.Q")
        held = time.monotonic() - started  # real time passed as well as the 20 s the clock moved
        assert 600 - int((20 + held) * 10) - 10 <= copy.md.Expiry <= 400 + 10
        offset.write_text("61")
        wait_until(lambda: "offset 61 s" in log.read_text(), "the queue manager's clock moved 61 s")
        got = _command(qm, CONTROL, "<psc><Command>ReqUpdate</Command><Topic>Expiring/T</Topic>"
                       "<QName>SUB.Q</QName></psc>")
        assert got.reasons == [3077]  # type: ignore[attr-defined]
        qm.disconnect()
    finally:
        qmgr_process.stop(proc)
