"""amqsevt's formatting of event messages (cli/events.py): the type, the reason and each field of
the event data by IBM's name, constants spelled out (spec C R-SEC-13, A-36)."""

from __future__ import annotations

import pytest

from mqlite import cmqc as C
from mqlite.cli.events import format_event
from mqlite.core.security.events import Caller, channel_blocked, event_message, refusal


def test_a_subscribe_refusal_prints_every_field_by_name() -> None:  # C:SC-SEC-FRUIT b
    params = refusal("QM1", C.MQRQ_SUB_NOT_AUTHORIZED, Caller("USER2", "subapp.py"),
                     sub_options=C.MQSO_CREATE | C.MQSO_MANAGED, topic_string="Price/Fruit",
                     admin_topics=["FRUIT", "SYSTEM.BASE.TOPIC"])
    text = format_event(event_message("QM1", params, 1_700_000_000.0), 1, "SYSTEM.ADMIN.QMGR.EVENT")
    lines = text.splitlines()
    assert lines[0].startswith("**** Message #1 (") and lines[0].endswith("on Queue SYSTEM.ADMIN.QMGR.EVENT ****")
    assert "Queue Manager Event [44]" in lines[1]
    assert "MQRC_NOT_AUTHORIZED [2035] Not Authorized (type 5)" in lines[2]
    assert "2023/11/14 22:13:20.00 GMT" in lines[3]
    fields = {line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip() for line in lines[4:] if ":" in line}
    assert fields["QMgrName"] == "QM1"
    assert fields["ReasonQualifier"] == "MQRQ_SUB_NOT_AUTHORIZED (17)"
    assert fields["Options"] == "MQSO_CREATE+MQSO_MANAGED (34)"
    assert fields["UserIdentifier"] == "USER2" and fields["ApplName"] == "subapp.py"
    assert fields["ApplType"] == "MQAT_UNIX (6)"
    assert fields["TopicString"] == "Price/Fruit"
    assert fields["AdminTopicNames"] == "FRUIT"
    assert lines[-1].strip() == "SYSTEM.BASE.TOPIC"  # the list goes on, one name a line


def test_an_open_refusal_names_the_open_options_and_object() -> None:  # C:SC-SEC-FRUIT l
    params = refusal("QM1", C.MQRQ_OPEN_NOT_AUTHORIZED, Caller("USER2", "pub.py"), open_options=C.MQOO_OUTPUT,
                     object_type=C.MQOT_TOPIC, topic_string="Price/Vegetables",
                     admin_topics=["VEG", "SYSTEM.BASE.TOPIC"])
    text = format_event(event_message("QM1", params, 1_700_000_000.0))
    assert "Not Authorized (type 2)" in text
    assert "MQOO_OUTPUT (16)" in text and "ObjectQMgrName" in text


def test_a_message_that_is_not_pcf_is_reported() -> None:
    message = event_message("QM1", [], 0.0)
    message.body = b"hello"
    assert "Not an event message" in format_event(message)


def test_a_command_refusal_names_the_command() -> None:  # C:R-SEC-13, IBM's Not Authorized (type 4)
    params = refusal("QM1", C.MQRQ_CMD_NOT_AUTHORIZED, Caller("bob", "runmqsc"), command=C.MQCMD_DELETE_Q)
    text = format_event(event_message("QM1", params, 1_700_000_000.0))
    assert "Not Authorized (type 4)" in text
    fields = {line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip() for line in text.splitlines()[4:]}
    assert fields == {"QMgrName": "QM1", "ReasonQualifier": "MQRQ_CMD_NOT_AUTHORIZED (4)",
                      "Command": "MQCMD_DELETE_Q (12)", "UserIdentifier": "bob"}


@pytest.mark.parametrize(("qualifier", "has_channel", "has_user"), [
    (C.MQRQ_CHANNEL_BLOCKED_ADDRESS, False, False),  # blocked before the channel name is known
    (C.MQRQ_CHANNEL_BLOCKED_USERID, True, True),
    (C.MQRQ_CHANNEL_BLOCKED_NOACCESS, True, False),
])
def test_channel_blocked_fields(qualifier: int, has_channel: bool, has_user: bool) -> None:  # IBM's Channel Blocked
    params = dict(channel_blocked("QM1", qualifier, "APP.SVRCONN", "10.1.2.3", "bob", "CN=bob", "bob"))
    assert params[C.MQCA_Q_MGR_NAME] == "QM1" and params[C.MQIACF_REASON_QUALIFIER] == qualifier
    assert (C.MQCACH_CHANNEL_NAME in params) is has_channel
    assert (C.MQCACF_USER_IDENTIFIER in params) is has_user
    assert params[C.MQCACH_CONNECTION_NAME] == "10.1.2.3" and params[C.MQCACH_SSL_PEER_NAME] == "CN=bob"
    text = format_event(event_message("QM1", list(params.items()), 0.0, C.MQRC_CHANNEL_BLOCKED, C.MQCMD_CHANNEL_EVENT))
    assert "Channel Event [46]" in text and "MQRC_CHANNEL_BLOCKED [2577]" in text
