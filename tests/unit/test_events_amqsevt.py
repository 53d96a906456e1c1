"""``mqlite amqsevt`` prints the performance, channel and configuration events readably, as IBM's
amqsevt sample does: the event type, the reason by name with the event's name, each field."""

from __future__ import annotations

from mqlite import cmqc as C
from mqlite.cli.events import format_event
from mqlite.core.events import channel, config, performance
from mqlite.core.security.events import event_message


def test_queue_depth_high() -> None:
    message = event_message("QM1", performance.event_data("QM1", "DEEP", 3, 8, 8, 0), 0.0,
                            C.MQRC_Q_DEPTH_HIGH, C.MQCMD_PERFM_EVENT)
    text = format_event(message, 1, "SYSTEM.ADMIN.PERFM.EVENT")
    assert "Event Type                       : Performance Event [45]" in text
    assert "Reason                           : MQRC_Q_DEPTH_HIGH [2224] Queue Depth High" in text
    for line in ("QName                          : DEEP", "HighQDepth                     : 8",
                 "MsgEnqCount                    : 8", "TimeSinceReset                 : 3"):
        assert f"  {line}" in text


def test_channel_stopped_names_its_qualifier() -> None:
    data = channel.stopped("QM1", "TO.QM2", C.MQRQ_CHANNEL_STOPPED_RETRY, "QM2", "localhost(1414)", 2009)
    text = format_event(event_message("QM1", data, 0.0, C.MQRC_CHANNEL_STOPPED, C.MQCMD_CHANNEL_EVENT))
    assert "MQRC_CHANNEL_STOPPED [2283] Channel Stopped" in text
    assert "ReasonQualifier                : MQRQ_CHANNEL_STOPPED_RETRY (9)" in text
    assert "XmitQName                      : QM2" in text and "ErrorIdentifier                : 2009" in text


def test_change_object_before_and_after_and_the_attributes_by_name() -> None:
    data = config.event_data("QM1", "alice", "QLOCAL", "Q1", {"TYPE": "QLOCAL", "MAXDEPTH": 7})
    before = event_message("QM1", data, 0.0, C.MQRC_CONFIG_CHANGE_OBJECT, C.MQCMD_CONFIG_EVENT,
                           control=C.MQCFC_NOT_LAST)
    text = format_event(before)
    assert "MQRC_CONFIG_CHANGE_OBJECT [2368] Change object (before)" in text
    assert "ObjectType                     : MQOT_Q (1)" in text
    assert "EventOrigin                    : MQEVO_CONSOLE (1)" in text
    assert "MQIA_MAX_Q_DEPTH               : 7" in text and "MQIA_Q_TYPE                    : MQQT_LOCAL (1)" in text
