"""Connection authentication decisions (core.security.connauth), AUTHINFO objects and SVRCONN
channel definitions in MQSC against the core, without a server."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.core.channels import SYSTEM_CHANNELS, svrconn_admission
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.connauth import Check, identity, password_check
from mqlite.mqsc.commands import execute
from mqlite.server.native.handshake import negotiate


@pytest.mark.parametrize(("check", "gave", "privileged", "expected"), [
    ("NONE", True, True, Check.NONE),
    ("OPTIONAL", False, True, Check.NONE),
    ("OPTIONAL", True, False, Check.PASSWORD),
    ("REQUIRED", False, False, Check.MISSING),
    ("REQUIRED", True, False, Check.PASSWORD),
    ("REQDADM", False, False, Check.NONE),
    ("REQDADM", False, True, Check.MISSING),
    ("REQDADM", True, True, Check.PASSWORD),
])
def test_chckclnt_and_chcklocl(check: str, gave: bool, privileged: bool, expected: Check) -> None:
    assert password_check(check, gave, privileged) is expected


def test_identity_adoptctx_then_mcauser() -> None:
    assert identity(adopt=True, authenticated="app", asserted="app") == "app"
    assert identity(adopt=True, authenticated="app", asserted="app", mcauser="mapped") == "mapped"
    assert identity(adopt=False, authenticated=None, asserted="claimed") == "claimed"
    assert identity(adopt=True, authenticated=None, asserted=None) is None  # nobody: refused


def make_qmgr() -> QueueManager:
    qm = QueueManager("QM1")
    qm.bootstrap()
    return qm


def test_system_svrconn_channels_and_default_authinfo() -> None:
    qm = make_qmgr()
    assert set(SYSTEM_CHANNELS) <= set(qm.channels)
    text = "\n".join(execute(qm, "DISPLAY CHANNEL(DEV.APP.SVRCONN) ALL"))
    for item in ("CHLTYPE(SVRCONN)", "MAXINST(999999999)", "MAXINSTC(999999999)", "SHARECNV(10)", "HBINT(300)",
                 "KAINT(AUTO)", "MAXMSGL(4194304)", "SSLCAUTH(REQUIRED)", "MCAUSER( )"):
        assert item in text, item
    assert "PORT(" not in text and "PROTOCOL(" not in text  # MQTT's attributes are not a SVRCONN's
    assert qm.authinfos.active is not None and qm.authinfos.active["CHCKCLNT"] == "REQUIRED"


def test_svrconn_definitions_refuse_what_is_not_theirs() -> None:
    qm = make_qmgr()
    assert "AMQ8014I" in execute(qm, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) MCAUSER('app') MAXINST(5)")[0]
    assert "MQRCCF_PARM_SYNTAX_ERROR" in execute(qm, "DEFINE CHANNEL(BAD.SVRCONN) CHLTYPE(SVRCONN) PORT(1414)")[0]
    assert "out of range" in execute(qm, "ALTER CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN) HBINT(1000000)")[0]
    with pytest.raises(MQError) as error:
        qm.svrconn("NOT.DEFINED")
    assert error.value.reason == C.MQRC_UNKNOWN_CHANNEL_NAME
    attrs = qm.svrconn("APP.SVRCONN")
    assert svrconn_admission(attrs, 4, 4) is None
    assert "MAXINST(5)" in str(svrconn_admission(attrs, 5, 0))


def test_authinfo_define_alter_refresh() -> None:
    qm = make_qmgr()
    assert execute(qm, "DEFINE AUTHINFO(LAX) AUTHTYPE(IDPWOS) CHCKCLNT(OPTIONAL) FAILDLAY(0)") == [
        "AMQ8563I: WebSphere MQ authentication information object created."]
    assert "MQRC_FUNCTION_NOT_SUPPORTED" in execute(qm, "DEFINE AUTHINFO(LDAP) AUTHTYPE(IDPWLDAP)")[0]
    assert "out of range 0-60" in execute(qm, "ALTER AUTHINFO(LAX) FAILDLAY(61)")[0]
    execute(qm, "ALTER QMGR CONNAUTH(LAX)")
    assert qm.authinfos.active is not None and qm.authinfos.active["CHCKCLNT"] == "REQUIRED"  # not yet
    assert execute(qm, "REFRESH SECURITY TYPE(CONNAUTH)") == ["AMQ8560I: WebSphere MQ security cache refreshed."]
    assert qm.authinfos.active is not None and qm.authinfos.active["CHCKCLNT"] == "OPTIONAL"
    execute(qm, "ALTER QMGR CONNAUTH(GONE)")
    execute(qm, "REFRESH SECURITY")
    assert qm.authinfos.active is None and qm.authinfos.missing == "GONE"  # refuse all, fail closed
    assert "AMQ8405I" in execute(qm, "REFRESH SECURITY TYPE(LDAP)")[0]


def test_negotiation_with_the_client_channel() -> None:
    """MAXMSGL: the lower of channel and CD (MAXMSGL(0) and nonsense from the client mean the queue
    manager's); HBINT: the higher; KAINT(AUTO): HBINT + 60; SHARECNV: the lower, never negative."""
    channel = {"MAXMSGL": 1000, "HBINT": 300, "KAINT": "AUTO", "SHARECNV": 10}
    assert negotiate(channel, {"MaxMsgLength": 500, "HeartbeatInterval": 600, "SharingConversations": 1}, 4096) == (
        500, 600, 660, 1)
    assert negotiate({**channel, "MAXMSGL": 0}, {"MaxMsgLength": -5, "SharingConversations": -3}, 4096) == (
        4096, 300, 360, 0)
    assert negotiate({**channel, "KAINT": 0, "HBINT": 0}, {"HeartbeatInterval": 0}, 4096)[1:3] == (0, 0)


def test_a_queue_manager_from_before_gets_client_channels_and_connauth() -> None:
    """A store written before SVRCONN channels and AUTHINFO existed: at restore the system
    channels and SYSTEM.DEFAULT.AUTHINFO.IDPWOS are defined, and CONNAUTH is in force."""
    qm = QueueManager("QM1")
    qm.restore({"CHANNEL/MQTT.A": {"CHLTYPE": "MQTT", "PORT": 1883, "PROTOCOL": ["MQTTV311"]}}, {"QMNAME": "QM1"})
    assert set(SYSTEM_CHANNELS) <= set(qm.channels) and "MQTT.A" in qm.channels
    assert qm.authinfos.active is not None and qm.authinfos.active["CHCKCLNT"] == "REQUIRED"
    tx = qm.take_effects().tx
    assert tx is not None  # written, so the next start finds them
