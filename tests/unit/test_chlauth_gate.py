"""The connect handshake's CHLAUTH step (server/native/chlauth_gate.py) over a real queue
manager's records: refusals with 2035 and IBM's error-log lines, a mapped user becoming the
channel's MCAUSER for the connection, CHCKCLNT overrides handed on, WARN(YES) logged only.
Over TCP with real clients: tests/integration/test_chlauth.py."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.errors import MQError
from mqlite.core.qmgr import QueueManager
from mqlite.mqsc.commands import execute
from mqlite.server.native.chlauth_gate import chlauth_check


@dataclass
class Hello:
    user: str | None
    address: str = "127.0.0.1"
    transport: Any = None


@dataclass
class Admitted:
    channel: str
    attrs: Mapping[str, Any] = field(default_factory=dict)
    chckclnt: str | None = None


def make_qmgr() -> QueueManager:
    qm = QueueManager("QM1", creator="qmowner")
    qm.bootstrap()
    return qm


def test_blocked_connection_is_refused_with_2035_and_one_log_line(caplog: pytest.LogCaptureFixture) -> None:
    check = chlauth_check(make_qmgr())
    with caplog.at_level(logging.INFO, "mqlite.server"), pytest.raises(MQError) as info:
        check(Hello("alice"), Admitted("SYSTEM.DEF.SVRCONN"))
    assert info.value.reason == C.MQRC_NOT_AUTHORIZED
    assert [r.getMessage()[:9] for r in caplog.records] == ["AMQ9777E:"]


def test_administrator_blocked_on_app_channel_allowed_on_admin_channel(caplog: pytest.LogCaptureFixture) -> None:
    check = chlauth_check(make_qmgr())
    with caplog.at_level(logging.INFO, "mqlite.server"), pytest.raises(MQError):
        check(Hello("qmowner"), Admitted("DEV.APP.SVRCONN"))
    assert "AMQ9776E: Channel was blocked by userid" in caplog.text and "MCAUSER(qmowner)" in caplog.text
    check(Hello("qmowner"), Admitted("DEV.ADMIN.SVRCONN"))


def test_mapped_user_becomes_the_channel_mcauser_and_chckclnt_is_handed_on() -> None:
    qm = make_qmgr()
    execute(qm, "SET CHLAUTH(DEV.APP.SVRCONN) TYPE(USERMAP) CLNTUSER('bob') USERSRC(MAP) MCAUSER('app1') "
                "CHCKCLNT(REQUIRED)")
    admitted = Admitted("DEV.APP.SVRCONN", {"MCAUSER": ""})
    chlauth_check(qm)(Hello("bob"), admitted)
    assert admitted.attrs["MCAUSER"] == "app1" and admitted.chckclnt == "REQUIRED"
    other = Admitted("DEV.APP.SVRCONN", {"MCAUSER": ""})
    chlauth_check(qm)(Hello("carol"), other)
    assert other.attrs["MCAUSER"] == "" and other.chckclnt is None


def test_warn_yes_logs_and_lets_through(caplog: pytest.LogCaptureFixture) -> None:
    qm = make_qmgr()
    execute(qm, "SET CHLAUTH(*) TYPE(BLOCKUSER) USERLIST('*MQADMIN') WARN(YES) ACTION(REPLACE)")
    with caplog.at_level(logging.INFO, "mqlite.server"):
        chlauth_check(qm)(Hello("qmowner"), Admitted("DEV.APP.SVRCONN"))
    assert "would have been blocked by the BLOCKUSER record of profile '*'" in caplog.text


def test_local_connections_use_no_channel() -> None:
    chlauth_check(make_qmgr())(Hello("qmowner", ""), Admitted(""))
