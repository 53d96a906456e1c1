"""The queued interface across a publish/subscribe hierarchy of real queue managers (QM2 a child
of QM1, linked by channels): the v7 scope truth table for queued subscribers (D:S-19, D §9.3,
R-SCOPE-1) and DeletePub, Local or for every queue manager (D:S-20, D §8)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mqlite as pymqi
from helpers.hierarchy import link, proxies, set_parent
from helpers.mqsc import mqsc
from helpers.qmgrs import QMgr
from helpers.queued import CONTROL, DEFAULT_STREAM, get, put_command
from helpers.waiting import wait_until
from mqlite import cmqc as C

RunCli = Callable[..., Any]


def _command(qm: Any, queue: str, psc: str, body: bytes = b"") -> Any:
    msg_id = put_command(qm, queue, psc, body, reply_q="REPLY.Q")
    return get(qm, "REPLY.Q", correl_id=msg_id)


def _bodies(qm: Any, queue: str, count: int) -> list[bytes]:
    return [get(qm, queue).decoded.body for _ in range(count)]


def test_scope_and_delete_publication(qmgr_factory: Callable[..., QMgr], run_cli: RunCli) -> None:
    qmgr1, qmgr2 = qmgr_factory("QM1"), qmgr_factory("QM2")
    for qmgr in (qmgr1, qmgr2):
        mqsc(run_cli, qmgr, "DEFINE QLOCAL(ALL.Q)\nDEFINE QLOCAL(LOCAL.Q)\nDEFINE QLOCAL(REPLY.Q)\n")
    link(run_cli, qmgr1, qmgr2)
    set_parent(run_cli, qmgr2, qmgr1)
    qm1, qm2 = pymqi.connect("QM1"), pymqi.connect("QM2")
    try:
        for qm in (qm1, qm2):  # A and C (scope ALL), B and D (Local)
            assert _command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Scope/T</Topic>"
                            "<QName>ALL.Q</QName></psc>").completion == "ok"
            assert _command(qm, CONTROL, "<psc><Command>RegSub</Command><RegOpt>Local</RegOpt><Topic>Scope/T"
                            "</Topic><QName>LOCAL.Q</QName></psc>").completion == "ok"
        wait_until(lambda: ("QM2", "Scope/T") in proxies(run_cli, qmgr1), "QM1 holds C's proxy")
        assert ("QM1", "Scope/T") in proxies(run_cli, qmgr2)  # A's; B and D are not propagated

        # D:S-19: published on QM1 with scope ALL: A, B and C (not D); Local: A and B only.
        publish = "<psc><Command>Publish</Command>{}<Topic>Scope/T</Topic></psc>"
        assert _command(qm1, DEFAULT_STREAM, publish.format(""), b"all").completion == "ok"
        assert _command(qm1, DEFAULT_STREAM, publish.format("<PubOpt>Local</PubOpt>"), b"local").completion == "ok"
        assert _command(qm1, DEFAULT_STREAM, publish.format(""), b"fence").completion == "ok"
        assert _bodies(qm1, "ALL.Q", 3) == [b"all", b"local", b"fence"]
        assert _bodies(qm1, "LOCAL.Q", 3) == [b"all", b"local", b"fence"]
        assert _bodies(qm2, "ALL.Q", 2) == [b"all", b"fence"]  # the Local one never came before the fence
        with pymqi.Queue(qm2, "LOCAL.Q", C.MQOO_INQUIRE) as q:
            assert q.inquire(C.MQIA_CURRENT_Q_DEPTH) == 0  # D: no publication from QM1 reached it

        # D:S-20: retained at both; DeletePub Local at QM1 leaves QM2's; without DelOpt both go.
        topic = "Sport/Soccer/State/LatestScore/Team1 Team2"
        retain = f"<psc><Command>Publish</Command><PubOpt>RetainPub</PubOpt><PubOpt>Local</PubOpt><Topic>{topic}" \
                 "</Topic></psc>"
        for qm in (qm1, qm2):
            assert _command(qm, DEFAULT_STREAM, retain, b"1-0").completion == "ok"
            assert _command(qm, CONTROL, "<psc><Command>RegSub</Command><RegOpt>PubOnReqOnly</RegOpt><Topic>"
                            "Sport/Soccer/State/LatestScore/#</Topic><QName>REPLY.Q</QName></psc>"
                            ).completion == "ok"
        request = ("<psc><Command>ReqUpdate</Command><Topic>Sport/Soccer/State/LatestScore/#</Topic>"
                   "<QName>REPLY.Q</QName></psc>")
        delete = f"<psc><Command>DeletePub</Command>{{}}<Topic>{topic}</Topic></psc>"
        assert _command(qm1, DEFAULT_STREAM, delete.format("<DelOpt>Local</DelOpt>")).completion == "ok"
        assert _command(qm1, CONTROL, request).reasons == [3077]
        assert _command(qm2, CONTROL, request).completion == "ok"
        assert get(qm2, "REPLY.Q").decoded.body == b"1-0"  # still retained at QM2
        assert _command(qm1, DEFAULT_STREAM, retain, b"2-0").completion == "ok"
        assert _command(qm1, DEFAULT_STREAM, delete.format("")).completion == "ok"
        assert _command(qm1, CONTROL, request).reasons == [3077]
        wait_until(lambda: _command(qm2, CONTROL, request).reasons == [3077], "QM2's retained publication deleted")
    finally:
        qm1.disconnect()
        qm2.disconnect()
