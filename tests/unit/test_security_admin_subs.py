"""Administrative subscriptions and security (spec C R-SEC-22, R-SEC-23, A-39, SC-SEC-05): DEFINE SUB
and ALTER SUB make no topic check, but the destination's put check is made as the user of
Table 2 (SUBUSER given, blank, or not given), and that user becomes the subscription's SUBUSER."""

from __future__ import annotations

import pytest

from helpers.core_security import Security, reason_of
from mqlite import cmqc as C
from mqlite.core.qmgr import QueueManager
from mqlite.core.security.principal import Principal


@pytest.fixture
def opr(qm: QueueManager) -> tuple[Security, Principal]:
    sec = Security(qm)
    qm.define("QLOCAL", "PQ", {})
    sec.setmqaut("queue", "PQ", "qput", "+put")
    return sec, Principal("opr")


def test_sc_sec_05_subuser_table(opr: tuple[Security, Principal]) -> None:  # C:SC-SEC-05 steps 1-7
    sec, who = opr
    sec.setmqaut("qmgr", "", "opr", "+chg", "+dsp")  # command authority, and nothing on PQ or the topic
    admin = sec.qm.admin_for(who)  # the admin API as opr issues MQSC
    attrs = {"TOPICSTR": "A/1", "DEST": "PQ"}

    def define(name: str, **extra: str) -> int:
        return reason_of(lambda: admin.define("SUB", name, {**attrs, **extra}))

    def alter(name: str, **extra: str) -> int:
        return reason_of(lambda: admin.alter("SUB", name, dict(extra)))

    assert define("S1", SUBUSER=" ") == C.MQRC_NOT_AUTHORIZED, "1: checked as opr"
    event = sec.one_event()
    assert event[C.MQIACF_REASON_QUALIFIER] == C.MQRQ_SUB_DEST_NOT_AUTHORIZED
    assert (event[C.MQCACF_USER_IDENTIFIER], event[C.MQCACF_DESTINATION]) == ("opr", "PQ")
    assert define("S2", SUBUSER="qput") == 0, "2: no topic check"
    [row] = sec.qm.sub_status_rows("S2")
    assert row["SUBUSER"] == "qput"
    assert define("S3") == C.MQRC_NOT_AUTHORIZED, "3"
    assert alter("S2", SUBUSER=" ") == C.MQRC_NOT_AUTHORIZED, "4"
    assert alter("S2") == 0, "5: checked as qput, the existing user"
    assert alter("S2", SUBUSER="nobody") == C.MQRC_NOT_AUTHORIZED, "6"
    assert alter("S2", SUBUSER="qput") == 0, "6"
    assert sec.qm.sub_status_rows("S2")[0]["SUBUSER"] == "qput"
    assert sorted(sec.qm.subs_by_name) == ["S2"]
    admin.delete("SUB", "S2")  # 7: command security only
    assert sec.qm.subs_by_name == {}


def test_refused_alter_changes_nothing(opr: tuple[Security, Principal]) -> None:  # C:R-SEC-22
    sec, who = opr
    admin = sec.qm.pubsub_admin
    admin.define_sub("S", {"TOPICSTR": "A/1", "DEST": "PQ", "SUBUSER": "qput", "USERDATA": "before"}, principal=who)
    sec.qm.define("QLOCAL", "OTHER.Q", {})
    assert reason_of(lambda: admin.alter_sub("S", {"DEST": "OTHER.Q"}, principal=who)) == C.MQRC_NOT_AUTHORIZED
    sub = sec.qm.subs_by_name["S"][0]
    assert (sub.dest, sub.user) == ("PQ", "qput")


def test_a_managed_administrative_subscription_has_no_destination_check(opr: tuple[Security, Principal]) -> None:
    sec, who = opr  # C:R-SEC-17
    sec.qm.pubsub_admin.define_sub("SM", {"TOPICSTR": "A/2", "DESTCLAS": "MANAGED"}, principal=who)
    assert sec.qm.subs_by_name["SM"][0].user == "opr"
    assert sec.events() == []
