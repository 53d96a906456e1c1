"""The queued publish/subscribe interface with a real queue manager (spec D §3-§12): command
messages with an MQRFH2 put to SYSTEM.BROKER.CONTROL.QUEUE and the stream queues, as a v6
program puts them, beside MQI publishers and subscribers on the same topics. Each test names
the digest's scenarios it follows (D:S-..)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite as pymqi
from helpers.credentials import Credentials, add_user
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc, records
from helpers.queued import CONTROL, DEFAULT_STREAM, get, nothing_on, put_command
from mqlite import cmqc as C

QM = "QM1"
USERS = {name: Credentials(name, f"{name}-pw-1", group) for name, group in
         (("alice", "qpsusers"), ("bob", "qpsusers"), ("mallory", "qpsusers"), ("carol", "qpslimited"))}
QUEUES = ("SUB.Q", "SUB2.Q", "OTHER.Q", "CONF.Q", "REPLY.Q", "MQI.Q")
SCORES = "Sport/Soccer/State/LatestScore"


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    home: Path = tmp_path_factory.mktemp("queued") / "mqhome"
    with started(home, (QM,)) as (_, run_cli):
        for creds in USERS.values():
            add_user(home, QM, creds)
        script = "".join(f"DEFINE QLOCAL({q})\n" for q in QUEUES)
        script += ("SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) GROUP('qpsusers') AUTHADD(PUB,SUB)\n"
                   "DEFINE TOPIC(SPORT.T) TOPICSTR('Sport')\n"
                   "SET AUTHREC PROFILE('SPORT.T') OBJTYPE(TOPIC) GROUP('qpslimited') AUTHADD(PUB,SUB)\n")
        mqsc(run_cli, _qmgr(home), script)
        qm = pymqi.connect(QM)
        yield qm, run_cli
        qm.disconnect()


def _qmgr(home: Path) -> Any:
    from helpers.qmgrs import QMgr
    return QMgr(QM, home)


@pytest.fixture
def qm(env: tuple[Any, Any]) -> Iterator[Any]:
    qm, _ = env
    yield qm
    for queue in QUEUES:  # each test starts with empty queues
        with pymqi.Queue(qm, queue) as q:
            while True:
                try:
                    q.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT | C.MQGMO_ACCEPT_TRUNCATED_MSG))
                except pymqi.MQMIError as error:
                    if error.reason == C.MQRC_NO_MSG_AVAILABLE:
                        break
                    if error.reason != C.MQRC_TRUNCATED_MSG_ACCEPTED:
                        raise


def regsub(qm: Any, topic: str, *options: str, user: str = "alice", reply_q: str = "SUB.Q", extra: str = "",
           **kw: Any) -> Any:
    opts = "".join(f"<RegOpt>{o}</RegOpt>" for o in options)
    msg_id = put_command(qm, CONTROL, f"<psc><Command>RegSub</Command>{opts}<Topic>{topic}</Topic>{extra}</psc>",
                         user=user, reply_q="REPLY.Q", extra=(), **_with_queue(reply_q, kw))
    return get(qm, "REPLY.Q", correl_id=msg_id)


def _with_queue(reply_q: str, kw: dict[str, Any]) -> dict[str, Any]:
    kw = dict(kw)
    kw.setdefault("correl_id", b"C1".ljust(24, b"\0"))
    return kw if reply_q == "REPLY.Q" else kw


def command(qm: Any, queue: str, psc: str, user: str = "alice", **kw: Any) -> Any:
    kw.setdefault("reply_q", "REPLY.Q")
    msg_id = put_command(qm, queue, psc, user=user, **kw)
    return get(qm, kw["reply_q"], correl_id=msg_id)


CORREL = b"C1".ljust(24, b"\0")


def test_register_publish_deliver(qm: Any) -> None:
    """D:S-01, D:S-02: RegSub on the control queue, the response's MQMD; a Publish to the
    default stream delivered with D §9.2's MQMD and the psc rewritten (one Topic)."""
    msg_id = put_command(qm, CONTROL, f"<psc><Command>RegSub</Command><RegOpt>CorrelAsId</RegOpt>"
                         f"<Topic>{SCORES}/#</Topic><QName>SUB.Q</QName></psc>", user="alice", correl_id=CORREL,
                         reply_q="REPLY.Q")
    response = get(qm, "REPLY.Q")
    assert response.completion == "ok" and response.reasons == []
    md = response.md
    assert (md.MsgType, md.Report, md.PutApplType) == (C.MQMT_REPLY, 0, C.MQAT_BROKER)
    assert bytes(md.CorrelId) == msg_id and md.Format.decode() == C.MQFMT_RF_HEADER_2
    assert md.PutApplName.decode().strip() == QM and md.UserIdentifier.decode().strip() == "alice"
    assert response.data[36 + 4:].rstrip(b" ").endswith(b"<pscr><Completion>ok</Completion></pscr>")  # D:TV-3

    put_command(qm, DEFAULT_STREAM, f"<psc><Command>Publish</Command><Topic>{SCORES}/Team1 Team2</Topic></psc>",
                b"1-0", user="bob", msg_type=C.MQMT_DATAGRAM, persistence=C.MQPER_PERSISTENT, priority=5,
                reply_q="")
    pub = get(qm, "SUB.Q")
    md = pub.md
    assert (md.MsgType, md.Report, md.Persistence, md.Priority) == (C.MQMT_DATAGRAM, 0, 1, 5)
    assert bytes(md.CorrelId) == CORREL and md.ReplyToQ.strip() == b"" and md.ReplyToQMgr.decode().strip() == QM
    assert md.UserIdentifier.decode().strip() == "alice" and md.PutApplType == C.MQAT_BROKER
    assert md.PutApplName.decode().strip() == QM and md.ApplOriginData.strip() == b""
    assert pub.psc is not None and pub.psc.get("Command") == "Publish"
    assert pub.psc.values("Topic") == [f"{SCORES}/Team1 Team2"]
    assert pub.decoded.body == b"1-0" and pub.decoded.format == C.MQFMT_STRING.strip()


def test_queued_and_mqi_share_one_topic_space(qm: Any) -> None:
    """D §13: a queued publisher reaches an MQI subscriber (usr folder as properties), an MQI
    publisher a queued subscriber (properties as a usr folder)."""
    sub = pymqi.Subscription(qm)
    sub.sub(sub_desc=pymqi.SD(Options=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED,
                              ObjectString=b"Prices/IBM"))
    try:
        assert regsub(qm, "Prices/IBM", "CorrelAsId", correl_id=CORREL).completion == "ok"
        put_command(qm, DEFAULT_STREAM, "<psc><Command>Publish</Command><Topic>Prices/IBM</Topic></psc>", b"120",
                    user="bob", msg_type=C.MQMT_DATAGRAM, reply_q="",
                    extra=("<usr><Price dt='i4'>120</Price></usr>",))
        handle = pymqi.MessageHandle(qm)
        md = pymqi.MD()
        gmo = pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_PROPERTIES_IN_HANDLE,
                        WaitInterval=30_000, MsgHandle=handle.msg_handle)
        assert sub.get(None, md, gmo) == b"120"
        assert handle.properties.get("Price") == 120
        queued = get(qm, "SUB.Q")
        assert queued.decoded.body == b"120"
        assert queued.decoded.headers[0].folder("usr") is not None

        topic = pymqi.Topic(qm, topic_string="Prices/IBM")
        topic.open(open_opts=C.MQOO_OUTPUT)
        out = pymqi.MessageHandle(qm)
        out.properties.set("Price", 121)
        topic.pub(b"121", pymqi.MD(Format=C.MQFMT_STRING.encode()), pymqi.PMO(OriginalMsgHandle=out.msg_handle))
        topic.close()
        from_mqi = get(qm, "SUB.Q")
        assert from_mqi.psc is not None and from_mqi.psc.values("Topic") == ["Prices/IBM"]
        usr = from_mqi.decoded.headers[0].folder("usr")
        assert usr is not None and usr.get("Price") == "121" and from_mqi.decoded.body == b"121"
    finally:
        sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
        command(qm, CONTROL, "<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt></psc>",
                reply_q="REPLY.Q", correl_id=CORREL)


def test_response_decision(qm: Any) -> None:
    """D:S-03: a DATAGRAM is answered by its PAN/NAN; unanswered refusals leave the queue."""
    bad = "<psc><Command>Subscribe</Command><Topic>T</Topic></psc>"
    put_command(qm, CONTROL, bad, user="alice", msg_type=C.MQMT_DATAGRAM, report=C.MQRO_PAN, reply_q="REPLY.Q")
    got = command(qm, CONTROL, bad, msg_type=C.MQMT_DATAGRAM, report=C.MQRO_NAN)
    assert (got.completion, got.reasons) == ("error", [2336])  # (b); (a) sent nothing before it
    assert nothing_on(qm, "REPLY.Q")
    ok = command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Decide/T</Topic><QName>SUB.Q</QName></psc>",
                 msg_type=C.MQMT_DATAGRAM, report=C.MQRO_PAN)
    assert ok.completion == "ok"  # (c)
    put_command(qm, CONTROL, bad, user="alice", msg_type=C.MQMT_DATAGRAM, report=0, reply_q="REPLY.Q")  # (e)
    fence = command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Decide/T</Topic><QName>SUB.Q</QName></psc>")
    assert fence.completion == "ok" and nothing_on(qm, "REPLY.Q") and nothing_on(qm, CONTROL)


@pytest.mark.parametrize(("queue", "psc", "reason"), [
    (CONTROL, "<psc><Command>Subscribe</Command></psc>", 2336),
    (CONTROL, "<psc><Command>RegSub</Command><Command>RegSub</Command><Topic>T</Topic></psc>", 2338),
    (CONTROL, "<psc><Command>RegSub</Command></psc>", 2339),
    (CONTROL, "<psc><Command>RegSub</Command><Topic>T</Topic><Colour>red</Colour></psc>", 2337),
    (CONTROL, "<psc><Command>ReqUpdate</Command><Topic>T</Topic><Topic>U</Topic></psc>", 2338),
    (CONTROL, "<psc><Command>RegSub</Command><RegOpt>Bogus</RegOpt><Topic>T</Topic></psc>", 3083),
    (DEFAULT_STREAM, "<psc><Command>Publish</Command><PubOpt>Bogus</PubOpt><Topic>T</Topic></psc>", 3084),
    (DEFAULT_STREAM, "<psc><Command>DeletePub</Command><DelOpt>All</DelOpt><Topic>T</Topic></psc>", 3087),
    (DEFAULT_STREAM, "<psc><Command>Publish</Command><Topic>Sport/#</Topic></psc>", 3072),
    (DEFAULT_STREAM, "<psc><Command>Publish</Command><Topic></Topic></psc>", 3072),
    (DEFAULT_STREAM, "<psc><Command>RegSub</Command><Topic>T</Topic></psc>", 3079),  # D:S-05
    (CONTROL, "<psc><Command>Publish</Command><Topic>T</Topic></psc>", 3079),
    (CONTROL, "<psc><Command>RegSub</Command><Topic>T</Topic><QName>NOPE.Q</QName></psc>", 3076),  # D:S-06
    (CONTROL, "<psc><Command>RegSub</Command><RegOpt>CorrelAsId</RegOpt><Topic>T</Topic></psc>", 3080),
])
def test_syntax_and_identity_errors(qm: Any, queue: str, psc: str, reason: int) -> None:
    """D:S-04, D:S-05, D:S-06: each refusal is an error with its reason and the psc echoed."""
    got = command(qm, queue, psc)
    assert (got.completion, got.reasons) == ("error", [reason])
    echo = [folder for folder in got.folders if folder.name == "psc"]
    assert len(echo) == 1 and echo[0].get("Command") is not None


def test_no_psc_and_bad_rfh2(qm: Any) -> None:
    """D:S-04 (no psc: 2339) and a malformed MQRFH2 (2334, no echo, A-5); the daemon serves on."""
    got = command(qm, CONTROL, "<usr><A>1</A></usr>")
    assert (got.completion, got.reasons) == ("error", [2339])
    msg_id = put_command(qm, CONTROL, "", user="alice", reply_q="REPLY.Q", data=b"RFH \x02\x00\x00\x00garbage")
    bad = get(qm, "REPLY.Q", correl_id=msg_id)
    assert (bad.completion, bad.reasons) == ("error", [2334]) and len(bad.folders) == 1
    msg_id = put_command(qm, CONTROL, "", user="alice", reply_q="REPLY.Q", data=b"plain", fmt=C.MQFMT_STRING)
    assert get(qm, "REPLY.Q", correl_id=msg_id).reasons == [2334]
    assert command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Still/Serving</Topic>"
                   "<QName>SUB.Q</QName></psc>").completion == "ok"


def test_retained_and_inform_if_ret(qm: Any) -> None:
    """D:S-07: retained on registration with IsRetainedPub only for InformIfRet; live publications
    never carry it; NewPubsOnly gets nothing until the next publication."""
    topic = f"{SCORES}/Team3 Team4"
    publish = f"<psc><Command>Publish</Command><PubOpt>RetainPub</PubOpt><Topic>{topic}</Topic></psc>"
    command(qm, DEFAULT_STREAM, publish, user="bob", body=b"1-0")
    assert regsub(qm, f"{SCORES}/#", "CorrelAsId", "InformIfRet", correl_id=CORREL).completion == "ok"
    first = get(qm, "SUB.Q")
    assert first.decoded.body == b"1-0" and first.psc is not None
    assert first.psc.values("PubOpt") == ["IsRetainedPub"]
    command(qm, DEFAULT_STREAM, publish, user="bob", body=b"2-0")
    live = get(qm, "SUB.Q")
    assert live.decoded.body == b"2-0" and live.psc is not None and live.psc.values("PubOpt") == []
    assert command(qm, CONTROL, f"<psc><Command>RegSub</Command><Topic>{SCORES}/#</Topic>"
                   "<QName>SUB2.Q</QName></psc>").completion == "ok"
    second = get(qm, "SUB2.Q")
    assert second.decoded.body == b"2-0" and second.psc is not None and second.psc.values("PubOpt") == []
    assert command(qm, CONTROL, f"<psc><Command>RegSub</Command><RegOpt>NewPubsOnly</RegOpt><Topic>{SCORES}/#"
                   "</Topic><QName>OTHER.Q</QName></psc>").completion == "ok"
    assert nothing_on(qm, "OTHER.Q")
    for queue in ("SUB.Q", "SUB2.Q", "OTHER.Q"):
        command(qm, CONTROL, f"<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt><QName>{queue}</QName>"
                "</psc>", correl_id=CORREL if queue == "SUB.Q" else C.MQCI_NONE)
    command(qm, DEFAULT_STREAM, f"<psc><Command>DeletePub</Command><Topic>{SCORES}/#</Topic></psc>", user="bob")
