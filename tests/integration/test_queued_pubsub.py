"""The queued publish/subscribe interface with a real queue manager (spec D §3-§12): command
messages with an MQRFH2 put to SYSTEM.BROKER.CONTROL.QUEUE and the stream queues, as a v6
program puts them, beside MQI publishers and subscribers on the same topics. Each test names
the digest's scenarios it follows (D:S-..)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mqlite as pymqi
from helpers.credentials import Credentials, add_user
from helpers.module_qmgrs import started
from helpers.mqsc import mqsc, records
from helpers.qmgrs import QMgr
from helpers.queued import CONTROL, DEFAULT_STREAM, get, nothing_on, put_command
from mqlite import cmqc as C

QM = "QM1"
USERS = {name: Credentials(name, f"{name}-pw-1", group) for name, group in
         (("alice", "qpsusers"), ("bob", "qpsusers"), ("mallory", "qpsusers"), ("carol", "qpslimited"))}
QUEUES = ("SUB.Q", "SUB2.Q", "OTHER.Q", "CONF.Q", "REPLY.Q", "MQI.Q")
SCORES = "Sport/Soccer/State/LatestScore"
CORREL = b"C1".ljust(24, b"\0")


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    home: Path = tmp_path_factory.mktemp("queued") / "mqhome"
    with started(home, (QM,)) as (_, run_cli):
        for creds in USERS.values():
            add_user(home, QM, creds)
        script = "".join(f"DEFINE QLOCAL({q})\n" for q in QUEUES)
        script += ("SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) GROUP('qpsusers') AUTHADD(PUB,SUB)\n"
                   "DEFINE TOPIC('Sport') TOPICSTR('Sport')\n"
                   "SET AUTHREC PROFILE('Sport') OBJTYPE(TOPIC) GROUP('qpslimited') AUTHADD(PUB,SUB)\n")
        mqsc(run_cli, QMgr(QM, home), script)
        qm = pymqi.connect(QM)
        yield qm, run_cli
        qm.disconnect()


@pytest.fixture
def qm(env: tuple[Any, Any]) -> Iterator[Any]:
    qm, _ = env
    yield qm
    for queue in QUEUES:  # each test's unnamed subscriptions go (DeregAll), then its messages
        for correl in (C.MQCI_NONE, CORREL):
            put_command(qm, CONTROL, f"<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt>"
                        f"{'<RegOpt>CorrelAsId</RegOpt>' if correl != C.MQCI_NONE else ''}<QName>{queue}</QName>"
                        "</psc>", user="alice", correl_id=correl, reply_q="REPLY.Q")
            get(qm, "REPLY.Q")
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


def regsub(qm: Any, topic: str, *options: str, user: str = "alice", queue: str = "SUB.Q", extra: str = "",
           **kw: Any) -> Any:
    """A RegSub for ``queue`` (its QName), answered on REPLY.Q."""
    opts = "".join(f"<RegOpt>{o}</RegOpt>" for o in options)
    return command(qm, CONTROL, f"<psc><Command>RegSub</Command>{opts}<Topic>{topic}</Topic><QName>{queue}</QName>"
                   f"{extra}</psc>", user=user, **kw)


def command(qm: Any, queue: str, psc: str, user: str = "alice", **kw: Any) -> Any:
    kw.setdefault("reply_q", "REPLY.Q")
    msg_id = put_command(qm, queue, psc, user=user, **kw)
    return get(qm, kw["reply_q"], correl_id=msg_id)


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
    sub.sub(topic_string="Prices/IBM", sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
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
    command(qm, DEFAULT_STREAM, f"<psc><Command>DeletePub</Command><Topic>{SCORES}/#</Topic></psc>", user="bob")


def publish(qm: Any, topic: str, body: bytes, *options: str, user: str = "bob", queue: str = DEFAULT_STREAM,
            extra: str = "", **kw: Any) -> Any:
    """A Publish (REQUEST, so that its response says the copies are on their queues)."""
    opts = "".join(f"<PubOpt>{o}</PubOpt>" for o in options)
    topics = "".join(f"<Topic>{t}</Topic>" for t in topic.split(","))
    return command(qm, queue, f"<psc><Command>Publish</Command>{opts}{topics}{extra}</psc>", user=user, body=body,
                   **kw)


def test_publish_on_request_and_request_update(qm: Any) -> None:
    """D:S-08: PubOnReqOnly gets nothing live; ReqUpdate sends the retained publication; an
    unregistered topic is 3073, a topic without a retained publication 3077."""
    publish(qm, f"{SCORES}/Team5", b"3-0", "RetainPub")
    assert regsub(qm, f"{SCORES}/#", "PubOnReqOnly", "CorrelAsId", correl_id=CORREL).completion == "ok"
    publish(qm, f"{SCORES}/Team5", b"4-0", "RetainPub")
    assert nothing_on(qm, "SUB.Q")
    got = command(qm, CONTROL, f"<psc><Command>ReqUpdate</Command><RegOpt>CorrelAsId</RegOpt><Topic>{SCORES}/#"
                  "</Topic><QName>SUB.Q</QName></psc>", correl_id=CORREL)
    assert got.completion == "ok"
    update = get(qm, "SUB.Q")
    assert update.decoded.body == b"4-0" and update.psc is not None and update.psc.values("PubOpt") == []
    never = command(qm, CONTROL, "<psc><Command>ReqUpdate</Command><Topic>Sport/Tennis/#</Topic>"
                    "<QName>SUB.Q</QName></psc>")
    assert never.reasons == [3073]
    assert regsub(qm, "Sport/Golf/#").completion == "ok"
    golf = command(qm, CONTROL, "<psc><Command>ReqUpdate</Command><Topic>Sport/Golf/#</Topic><QName>SUB.Q</QName>"
                   "</psc>")
    assert (golf.completion, golf.reasons) == ("error", [3077])
    command(qm, DEFAULT_STREAM, f"<psc><Command>DeletePub</Command><Topic>{SCORES}/#</Topic></psc>", user="bob")


def test_deregistration(qm: Any) -> None:
    """D:S-09: DeregSub by topic (a second time 3073), DeregAll on one subpoint, the option
    combinations refused with 3083, another user's subscription 3151."""
    assert regsub(qm, "Dereg/A").completion == "ok"
    assert command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Dereg/A</Topic><QName>SUB.Q</QName>"
                   "</psc>").completion == "ok"  # (a)
    publish(qm, "Dereg/A", b"x")
    assert nothing_on(qm, "SUB.Q")
    again = command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Dereg/A</Topic><QName>SUB.Q</QName></psc>")
    assert again.reasons == [3073]  # (b)
    for options, topics in ((("DeregAll", "FullResp"), ""), (("FullResp",), "<Topic>A</Topic><Topic>B</Topic>"),
                            (("LeaveOnly",), "<Topic>A</Topic>")):  # (d), (e), (f)
        opts = "".join(f"<RegOpt>{o}</RegOpt>" for o in options)
        got = command(qm, CONTROL, f"<psc><Command>DeregSub</Command>{opts}{topics}<QName>SUB.Q</QName></psc>")
        assert (got.completion, got.reasons) == ("error", [3083]), options
    assert regsub(qm, "Dereg/Mine").completion == "ok"
    mallory = command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Dereg/Mine</Topic><QName>SUB.Q</QName>"
                      "</psc>", user="mallory")
    assert mallory.reasons == [3151]  # (g)


def test_subpoints_and_deregister_all(qm: Any, env: tuple[Any, Any]) -> None:
    """D:S-14 and D:S-09 (c): subscription points as topic objects of the subpoint namelist; a
    publication on SubPoint USD reaches USD's subscribers and the MQI subscriber of topic object
    USD, not GBP's nor the default subpoint's; EUR (not listed) is 2337 with SubPoint echoed."""
    _, run_cli = env
    mqsc(run_cli, _qmgr_of(qm), "DEFINE TOPIC(USD) TOPICSTR(USD) WILDCARD(BLOCK) REPLACE\n"
         "DEFINE TOPIC(GBP) TOPICSTR(GBP) WILDCARD(BLOCK) REPLACE\n"
         "ALTER NAMELIST(SYSTEM.QPUBSUB.SUBPOINT.NAMELIST) NAMES(SYSTEM.BROKER.DEFAULT.SUBPOINT, USD, GBP)\n")
    assert regsub(qm, "NYSE/IBM/SPOT", extra="<SubPoint>USD</SubPoint>").completion == "ok"
    assert regsub(qm, "NYSE/IBM/#", extra="<SubPoint>USD</SubPoint>").completion == "ok"
    assert regsub(qm, "NYSE/IBM/SPOT", queue="SUB2.Q", extra="<SubPoint>GBP</SubPoint>").completion == "ok"
    assert regsub(qm, "NYSE/IBM/SPOT", queue="OTHER.Q").completion == "ok"
    sub = pymqi.Subscription(qm)
    sub.sub(topic_name="USD", topic_string="NYSE/IBM/SPOT",
            sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
    try:
        assert publish(qm, "NYSE/IBM/SPOT", b"120.00", extra="<SubPoint>USD</SubPoint>").completion == "ok"
        delivered = [get(qm, "SUB.Q"), get(qm, "SUB.Q")]
        for got in delivered:
            assert got.psc is not None and got.psc.get("SubPoint") == "USD"
            assert got.psc.values("Topic") == ["NYSE/IBM/SPOT"] and got.decoded.body == b"120.00"
        assert nothing_on(qm, "SUB.Q") and nothing_on(qm, "SUB2.Q") and nothing_on(qm, "OTHER.Q")
        md = pymqi.MD()
        assert sub.get(None, md, pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT)) == b"120.00"
    finally:
        sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
    eur = regsub(qm, "NYSE/IBM/SPOT", extra="<SubPoint>EUR</SubPoint>")
    assert (eur.completion, eur.reasons) == ("error", [2337])
    response = eur.pscr.child("Response") if eur.pscr is not None else None
    assert response is not None and response.get("SubPoint") == "EUR"
    dereg = command(qm, CONTROL, "<psc><Command>DeregSub</Command><RegOpt>DeregAll</RegOpt><SubPoint>USD</SubPoint>"
                    "<QName>SUB.Q</QName></psc>")
    assert dereg.completion == "ok"
    assert regsub(qm, "Kept/T").completion == "ok"
    publish(qm, "NYSE/IBM/SPOT", b"121.00", extra="<SubPoint>USD</SubPoint>")
    assert nothing_on(qm, "SUB.Q")


def _qmgr_of(qm: Any) -> QMgr:
    """The queue manager ``qm`` is connected to (the module's, in its MQLITE_HOME)."""
    return QMgr(QM, Path(os.environ["MQLITE_HOME"]))


def test_multi_topic_and_other_subs_only(qm: Any) -> None:
    """D:S-10 (v7: one subscription and one copy per topic) and D:S-11 (OtherSubsOnly skips the
    publisher's own queue; with no queue to name it is 3076)."""
    reg = command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Multi/A</Topic><Topic>Multi/B</Topic>"
                  "<QName>SUB.Q</QName></psc>")
    assert reg.completion == "ok"
    assert publish(qm, "Multi/A,Multi/B", b"x").completion == "ok"
    copies = [get(qm, "SUB.Q"), get(qm, "SUB.Q")]
    assert sorted(c.psc.values("Topic")[0] for c in copies if c.psc is not None) == ["Multi/A", "Multi/B"]
    assert all(c.decoded.body == b"x" for c in copies)
    assert regsub(qm, "Chat/Room1", queue="CONF.Q", user="bob").completion == "ok"
    assert regsub(qm, "Chat/Room1", queue="OTHER.Q").completion == "ok"
    assert publish(qm, "Chat/Room1", b"hi", "OtherSubsOnly", reply_q="CONF.Q").completion == "ok"
    assert get(qm, "OTHER.Q").decoded.body == b"hi"
    assert nothing_on(qm, "CONF.Q")
    both = publish(qm, "Chat/Room1", b"all")
    assert both.completion == "ok"
    assert get(qm, "OTHER.Q").decoded.body == b"all" and get(qm, "CONF.Q").decoded.body == b"all"
    msg_id = put_command(qm, DEFAULT_STREAM, "<psc><Command>Publish</Command><PubOpt>OtherSubsOnly</PubOpt>"
                         "<Topic>Chat/Room1</Topic></psc>", b"?", user="bob", msg_type=C.MQMT_DATAGRAM,
                         report=C.MQRO_NAN, reply_q="")
    assert msg_id  # no reply-to queue, no QName: refused 3076, dead-lettered (nothing to answer on)
    fence = publish(qm, "Chat/Room1", b"fence")
    assert fence.completion == "ok" and get(qm, "OTHER.Q").decoded.body == b"fence"


def test_partial_authority(qm: Any) -> None:
    """D:S-12: carol may publish under Sport only: a warning 3081 for the other topic, an error
    when no topic is left."""
    assert regsub(qm, "Sport/X").completion == "ok"
    got = publish(qm, "Sport/X,Finance/Y", b"p", user="carol")
    assert (got.completion, got.reasons) == ("warning", [3081])
    response = got.pscr.child("Response") if got.pscr is not None else None
    assert response is not None and response.get("Topic") == "Finance/Y"
    assert get(qm, "SUB.Q").decoded.body == b"p"
    only = publish(qm, "Finance/Y", b"q", user="carol")
    assert (only.completion, only.reasons) == ("error", [3081])


def test_streams(qm: Any, env: tuple[Any, Any]) -> None:
    """D:S-13: a stream is a queue of the stream namelist with a topic object of its name; its
    publications are under TOPICSTR; WILDCARD(BLOCK) keeps '#' above it out; an MQI subscriber
    through the topic object sees them; a stream without a topic object is not read."""
    _, run_cli = env
    mqsc(run_cli, _qmgr_of(qm), "DEFINE QLOCAL('Sport') REPLACE\n"
         "DEFINE TOPIC('Sport') TOPICSTR('Sport') WILDCARD(BLOCK) REPLACE\n"
         "DEFINE QLOCAL('NoTopic') REPLACE\n"
         "ALTER NAMELIST(SYSTEM.QPUBSUB.QUEUE.NAMELIST) NAMES('Sport', 'NoTopic', SYSTEM.BROKER.DEFAULT.STREAM, "
         "SYSTEM.BROKER.ADMIN.STREAM)\n")
    assert regsub(qm, "Sport/Soccer/Results").completion == "ok"
    assert regsub(qm, "Soccer/Results", queue="SUB2.Q").completion == "ok"
    assert regsub(qm, "#", queue="OTHER.Q", user="alice").completion == "ok"
    sub = pymqi.Subscription(qm)
    sub.sub(topic_name="Sport", topic_string="Soccer/Results",
            sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
    try:
        assert publish(qm, "Soccer/Results", b"2-1", queue="Sport").completion == "ok"
        got = get(qm, "SUB.Q")
        assert got.psc is not None and got.psc.values("Topic") == ["Sport/Soccer/Results"]
        assert nothing_on(qm, "SUB2.Q") and nothing_on(qm, "OTHER.Q")
        assert sub.get(None, pymqi.MD(), pymqi.GMO(Options=C.MQGMO_NO_SYNCPOINT)) == b"2-1"
    finally:
        sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
    put_command(qm, "NoTopic", "<psc><Command>Publish</Command><Topic>T</Topic></psc>", b"x", user="bob")
    fence = publish(qm, "Soccer/Results", b"3-1", queue="Sport")
    assert fence.completion == "ok"
    with pymqi.Queue(qm, "NoTopic", C.MQOO_INQUIRE) as q:
        assert q.inquire(C.MQIA_CURRENT_Q_DEPTH) == 1  # left where it was: not a stream
    assert mqsc(run_cli, _qmgr_of(qm), "CLEAR QLOCAL('NoTopic')\n")


def test_identity_sets(qm: Any) -> None:
    """D:S-15: shared and exclusive identity sets, 3155/3154/3156 and the 3157 warning."""
    def join(sid: str, *options: str, topic: str = "Ids/T") -> Any:
        return regsub(qm, topic, *options, extra=f"<SubIdentity>{sid}</SubIdentity>")

    def leave(sid: str, topic: str = "Ids/T") -> Any:
        return command(qm, CONTROL, f"<psc><Command>DeregSub</Command><Topic>{topic}</Topic><QName>SUB.Q</QName>"
                       f"<SubIdentity>{sid}</SubIdentity></psc>")

    assert join("app1", "JoinShared").completion == "ok"
    assert join("app2", "JoinShared").completion == "ok"
    assert join("app1", "NonPers").reasons == [3155]
    assert leave("app1").completion == "ok"
    assert publish(qm, "Ids/T", b"still").completion == "ok"
    assert get(qm, "SUB.Q").decoded.body == b"still"
    assert join("app3", "JoinExcl").reasons == [3155]
    assert leave("app2").completion == "ok"
    publish(qm, "Ids/T", b"gone")
    assert nothing_on(qm, "SUB.Q")
    assert join("x" * 65, "JoinShared").reasons == [3154]
    assert join("app1", "JoinExcl", topic="Ids/U").completion == "ok"
    assert join("app2", "JoinShared", topic="Ids/U").reasons == [3156]
    assert join("app1", "JoinShared", topic="Ids/U").completion == "ok"
    again = join("app1", "JoinShared", topic="Ids/U")
    assert (again.completion, again.reasons) == ("warning", [3157])
    assert leave("zzz", topic="Ids/U").reasons == [3154]


def test_subscription_names(qm: Any) -> None:
    """D:S-16: SubName and AddName (3152, 3083), another user by name (3078), v7's fixed topic
    (3153), a named subscription deregistered by its traditional identity."""
    assert regsub(qm, "Names/T").completion == "ok"
    assert regsub(qm, "Names/T", extra="<SubName>S1</SubName>").reasons == [3152]
    assert regsub(qm, "Names/T", "AddName", extra="<SubName>S1</SubName>").completion == "ok"
    assert regsub(qm, "Names/T", "AddName").reasons == [3083]
    by_mallory = command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Names/T</Topic><QName>SUB.Q</QName>"
                         "<SubName>S1</SubName></psc>", user="mallory")
    assert by_mallory.reasons == [3078]
    assert regsub(qm, "Names/T2", extra="<SubName>S1</SubName>").reasons == [3153]
    assert command(qm, CONTROL, "<psc><Command>DeregSub</Command><Topic>Names/T</Topic><QName>SUB.Q</QName>"
                   "</psc>").completion == "ok"
    assert regsub(qm, "Names/T").completion == "ok"  # gone: a new one, unnamed


def test_full_response_and_persistence(qm: Any, env: tuple[Any, Any]) -> None:
    """D:S-17 (FullResp's description, A-21) and D:S-18 (the last persistence option wins;
    PersAsQueue takes the queue's DEFPSIST; PersAsPub the publisher's)."""
    assert regsub(qm, "Full/A", "FullResp",
                  extra="<Topic>Full/B</Topic>").reasons == [3083]
    full = regsub(qm, "Full/A", "FullResp", "CorrelAsId", "NonPers", correl_id=CORREL,
                  extra="<SubUserData>hello</SubUserData>")
    assert full.completion == "ok"
    described = next(f for f in full.folders if f.name == "psc")
    assert described.get("Command") == "RegSub" and described.get("Topic") == "Full/A"
    assert {"CorrelAsId", "NonPers"} <= set(described.values("RegOpt"))
    assert (described.get("QMgrName"), described.get("QName"), described.get("SubUserData")) == (
        QM, "SUB.Q", "hello")
    assert regsub(qm, "Pers/T", "Pers", "NonPers", queue="SUB2.Q").completion == "ok"
    publish(qm, "Pers/T", b"p", persistence=C.MQPER_PERSISTENT)
    assert get(qm, "SUB2.Q").md.Persistence == C.MQPER_NOT_PERSISTENT
    _, run_cli = env
    mqsc(run_cli, _qmgr_of(qm), "ALTER QLOCAL(OTHER.Q) DEFPSIST(YES)\n")
    assert regsub(qm, "Pers/Q", "PersAsQueue", queue="OTHER.Q").completion == "ok"
    publish(qm, "Pers/Q", b"n", persistence=C.MQPER_NOT_PERSISTENT)
    assert get(qm, "OTHER.Q").md.Persistence == C.MQPER_PERSISTENT
    mqsc(run_cli, _qmgr_of(qm), "ALTER QLOCAL(OTHER.Q) DEFPSIST(NO)\n")
    assert regsub(qm, "Pers/P", queue="CONF.Q").completion == "ok"
    publish(qm, "Pers/P", b"a", persistence=C.MQPER_PERSISTENT)
    assert get(qm, "CONF.Q").md.Persistence == C.MQPER_PERSISTENT


def test_response_correlation_and_routing(qm: Any, env: tuple[Any, Any]) -> None:
    """D:S-21 (PASS_CORREL_ID, PASS_MSG_ID; Priority, Persistence and Expiry copied) and D:S-22
    (a response for another queue manager goes to its transmission queue; a Publish whose
    ReplyToQ does not exist still publishes, its response dead-lettered)."""
    psc = "<psc><Command>RegSub</Command><Topic>Corr/T</Topic><QName>SUB.Q</QName></psc>"
    c9 = b"C9".ljust(24, b"\0")
    msg_id = put_command(qm, CONTROL, psc, user="alice", reply_q="REPLY.Q", correl_id=c9,
                         report=C.MQRO_PASS_CORREL_ID, priority=7, persistence=C.MQPER_PERSISTENT, expiry=6000)
    got = get(qm, "REPLY.Q", correl_id=c9)
    assert bytes(got.md.MsgId) != msg_id and (got.md.Priority, got.md.Persistence) == (7, 1)
    assert 0 < got.md.Expiry <= 6000
    msg_id = put_command(qm, CONTROL, psc, user="alice", reply_q="REPLY.Q", report=C.MQRO_PASS_MSG_ID)
    got = get(qm, "REPLY.Q", correl_id=msg_id)
    assert bytes(got.md.MsgId) == msg_id
    _, run_cli = env
    mqsc(run_cli, _qmgr_of(qm), "DEFINE QLOCAL(QM2) USAGE(XMITQ) REPLACE\n")
    put_command(qm, CONTROL, psc, user="alice", reply_q="SUB.Q", reply_qmgr="QM2")
    with pymqi.Queue(qm, "QM2") as xmitq:
        md = pymqi.MD()
        data = xmitq.get(None, md, pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT, WaitInterval=30_000))
    assert b"SUB.Q" in data[:200] and b"QM2" in data[:200] and b"<pscr><Completion>ok" in data
    mqsc(run_cli, _qmgr_of(qm), "DELETE QLOCAL(QM2)\n")
    assert regsub(qm, "Routed/T").completion == "ok"
    dlq_before = _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE")
    put_command(qm, DEFAULT_STREAM, "<psc><Command>Publish</Command><Topic>Routed/T</Topic></psc>", b"r",
                user="bob", reply_q="MISSING.Q")
    assert get(qm, "SUB.Q").decoded.body == b"r"
    assert _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE") == dlq_before + 1


def _depth(qm: Any, queue: str) -> int:
    with pymqi.Queue(qm, queue, C.MQOO_INQUIRE) as q:
        return int(q.inquire(C.MQIA_CURRENT_Q_DEPTH))


def test_psmode(qm: Any, env: tuple[Any, Any]) -> None:
    """D:S-25: under COMPAT a RegSub waits on the control queue while MQSUB works; ENABLED
    serves it; DISPLAY PUBSUB shows COMPAT, then ACTIVE."""
    _, run_cli = env
    qmgr = _qmgr_of(qm)
    mqsc(run_cli, qmgr, "ALTER QMGR PSMODE(COMPAT)\n")
    try:
        assert records(mqsc(run_cli, qmgr, "DISPLAY PUBSUB TYPE(LOCAL)\n"), "AMQ8723I")[0]["STATUS"] == "COMPAT"
        put_command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Mode/T</Topic><QName>SUB.Q</QName></psc>",
                    user="alice", reply_q="REPLY.Q")
        sub = pymqi.Subscription(qm)
        sub.sub(topic_string="Mode/T", sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
        sub.close(sub_close_options=C.MQCO_REMOVE_SUB)
        assert _depth(qm, CONTROL) == 1 and nothing_on(qm, "REPLY.Q")
    finally:
        mqsc(run_cli, qmgr, "ALTER QMGR PSMODE(ENABLED)\n")
    assert get(qm, "REPLY.Q").completion == "ok"
    assert records(mqsc(run_cli, qmgr, "DISPLAY PUBSUB TYPE(LOCAL)\n"), "AMQ8723I")[0]["STATUS"] == "ACTIVE"
    mqsc(run_cli, qmgr, "ALTER QMGR PSMODE(DISABLED)\n")
    try:
        assert records(mqsc(run_cli, qmgr, "DISPLAY PUBSUB TYPE(LOCAL)\n"), "AMQ8723I")[0]["STATUS"] == "INACTIVE"
        with pytest.raises(pymqi.MQMIError) as refused:
            pymqi.Subscription(qm).sub(topic_string="Mode/T",
                                       sub_opts=C.MQSO_CREATE | C.MQSO_NON_DURABLE | C.MQSO_MANAGED)
        assert refused.value.reason == C.MQRC_PUBSUB_INHIBITED
    finally:
        mqsc(run_cli, qmgr, "ALTER QMGR PSMODE(ENABLED)\n")


def test_no_reply_to_queue(qm: Any) -> None:
    """D:S-06 (third): a RegSub with neither ReplyToQ nor QName, a DATAGRAM asking NAN: refused
    (3076) with nowhere to answer, so its response goes to the dead-letter queue (PSNPRES(NORMAL),
    D §3.7)."""
    dlq = _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE")
    put_command(qm, CONTROL, "<psc><Command>RegSub</Command><Topic>Nowhere/T</Topic></psc>", user="alice",
                msg_type=C.MQMT_DATAGRAM, report=C.MQRO_NAN, reply_q="")
    assert regsub(qm, "Nowhere/Fence").completion == "ok"  # served after it
    assert _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE") == dlq + 1


def test_psprop_forms_of_an_admin_subscription(qm: Any, env: tuple[Any, Any]) -> None:
    """PSPROP(RFH2) and PSPROP(COMPAT) deliver an MQI publication as a Publish command message
    (its properties in the usr folder, the topic in psc), not as message properties as MSGPROP
    does; NONE leaves out the publish/subscribe properties (issue 32 item 1)."""
    _, run_cli = env
    qmgr = _qmgr_of(qm)
    mqsc(run_cli, qmgr, "DEFINE SUB(PSPROP.RFH2) TOPICSTR('Forms/T') DEST(MQI.Q) PSPROP(RFH2)\n"
                        "DEFINE SUB(PSPROP.COMPAT) TOPICSTR('Forms/T') DEST(OTHER.Q) PSPROP(COMPAT)\n"
                        "DEFINE SUB(PSPROP.NONE) TOPICSTR('Forms/T') DEST(CONF.Q) PSPROP(NONE)\n")
    try:
        topic = pymqi.Topic(qm, topic_string="Forms/T")
        topic.open(open_opts=C.MQOO_OUTPUT)
        props = pymqi.MessageHandle(qm)
        props.properties.set("Colour", "red")
        topic.pub(b"f", pymqi.MD(Format=C.MQFMT_STRING.encode()), pymqi.PMO(OriginalMsgHandle=props.msg_handle))
        topic.close()
        for queue in ("MQI.Q", "OTHER.Q"):
            got = get(qm, queue)
            assert got.md.Format.decode().strip() == C.MQFMT_RF_HEADER_2.strip()
            assert got.psc is not None and got.psc.get("Command") == "Publish"
            assert got.psc.values("Topic") == ["Forms/T"]
            usr = got.decoded.headers[0].folder("usr")
            assert usr is not None and usr.get("Colour") == "red" and got.decoded.body == b"f"
        handle = pymqi.MessageHandle(qm)
        md = pymqi.MD()
        with pymqi.Queue(qm, "CONF.Q") as q:
            body = q.get(None, md, pymqi.GMO(Options=C.MQGMO_WAIT | C.MQGMO_NO_SYNCPOINT | C.MQGMO_PROPERTIES_IN_HANDLE,
                                             WaitInterval=30_000, MsgHandle=handle.msg_handle))
        assert body == b"f" and md.Format.decode().strip() == C.MQFMT_STRING.strip()
        assert handle.properties.get("Colour") == "red"
        with pytest.raises(pymqi.MQMIError):
            handle.properties.get("MQTopicString")
    finally:
        mqsc(run_cli, qmgr, "DELETE SUB(PSPROP.RFH2)\nDELETE SUB(PSPROP.COMPAT)\nDELETE SUB(PSPROP.NONE)\n")


def test_undeliverable_responses_and_retries(qm: Any, env: tuple[Any, Any]) -> None:
    """D §1.2: PSNPRES(NORMAL) dead-letters a response its ReplyToQ refuses, DISCARD drops it;
    a Publish that cannot be delivered (NPMSGDLV(ALL), no dead-letter queue) is backed out and
    tried PSRTYCNT times, then answered with 3008 and removed; the daemon serves on."""
    _, run_cli = env
    qmgr = _qmgr_of(qm)
    psc = "<psc><Command>RegSub</Command><Topic>Undelivered/T</Topic><QName>SUB.Q</QName></psc>"
    dlq = _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE")
    put_command(qm, CONTROL, psc, user="alice", reply_q="NO.SUCH.Q")
    assert command(qm, CONTROL, psc).completion == "ok"  # the fence: the first one is done
    assert _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE") == dlq + 1
    mqsc(run_cli, qmgr, "ALTER QMGR PSNPRES(DISCARD)\n")
    try:
        put_command(qm, CONTROL, psc, user="alice", reply_q="NO.SUCH.Q")
        assert command(qm, CONTROL, psc).completion == "ok"
        assert _depth(qm, "SYSTEM.DEAD.LETTER.QUEUE") == dlq + 1
    finally:
        mqsc(run_cli, qmgr, "ALTER QMGR PSNPRES(NORMAL)\n")
    mqsc(run_cli, qmgr, "DEFINE TOPIC(UNDELIVERED) TOPICSTR('Undelivered') NPMSGDLV(ALL)\n"
                        "ALTER QLOCAL(SUB.Q) PUT(DISABLED)\nALTER QMGR DEADQ(' ') PSRTYCNT(2)\n")
    try:
        failed = publish(qm, "Undelivered/T", b"x")
        assert (failed.completion, failed.reasons) == ("error", [3008])
        assert _depth(qm, DEFAULT_STREAM) == 0
    finally:
        mqsc(run_cli, qmgr, "ALTER QLOCAL(SUB.Q) PUT(ENABLED)\nALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE) "
                            "PSRTYCNT(5)\nDELETE TOPIC(UNDELIVERED)\n")
    assert publish(qm, "Undelivered/T", b"y").completion == "ok"
    assert get(qm, "SUB.Q").decoded.body == b"y"


def test_filter(qm: Any) -> None:
    """D §5 Filter (A-16): evaluated over the publication's properties (its usr folder); a
    Filter that is no selector is 3150."""
    assert regsub(qm, "Filtered/T", extra="<Filter>Price &gt; 100</Filter>").completion == "ok"
    for price in (120, 80):
        msg_id = put_command(qm, DEFAULT_STREAM, "<psc><Command>Publish</Command><Topic>Filtered/T</Topic></psc>",
                             str(price).encode(), user="bob", reply_q="REPLY.Q",
                             extra=(f"<usr><Price dt='i4'>{price}</Price></usr>",))
        assert get(qm, "REPLY.Q", correl_id=msg_id).completion == "ok"
    assert get(qm, "SUB.Q").decoded.body == b"120"
    assert nothing_on(qm, "SUB.Q")
    bad = regsub(qm, "Filtered/U", extra="<Filter>Price &gt;&gt; 1</Filter>")
    assert (bad.completion, bad.reasons) == ("error", [3150])
