"""MQGET's message properties through the queue manager (core/mqget.py over
core/properties_delivery.py): the PROPCTL of the queue or of the alias it was opened through, the
GMO's property options, a get with or without a message handle (the client says "without" with
protocol.native.GMO_NO_MSG_HANDLE, "with" GMO_MSG_HANDLE), checks before any message is taken,
DataLength counting the MQRFH2, waiting getters and read-ahead pushes shaped too, the stored message
never changed, the queue manager's own gets (neither bit) seeing messages as they were put. IBM's
documented MQGMO property options and PropertyControl; the MQRFH2 as spec D §2."""

from __future__ import annotations

from typing import Any

import pytest

from mqlite import cmqc as C
from mqlite.core.handles import TruncatedError
from mqlite.message import MessageDescriptor
from mqlite.protocol import rfh2 as R
from mqlite.protocol.native import GMO_MSG_HANDLE, GMO_NO_MSG_HANDLE
from mqlite.protocol.rfh2_folders import Element, Folder

NO_HANDLE = C.MQGMO_NO_SYNCPOINT | GMO_NO_MSG_HANDLE
HANDLE = C.MQGMO_NO_SYNCPOINT | GMO_MSG_HANDLE
PROPS = {"colour": "red", "n": 3}
USR = b"<usr><colour>red</colour><n dt='i8'>3</n></usr> "  # 47 bytes and one space of padding (R-RFH-P1)


def decoded(result: Any) -> R.Decoded:
    md = result.message.md
    return R.decode(result.body, md.Format, md.Encoding, md.CodedCharSetId)


def queue(mq: Any, name: str = "PROP.Q", **attrs: Any) -> Any:
    mq.define(name, **attrs)
    return mq.open(name)


def test_propctl_force_returns_an_mqrfh2_even_with_a_handle(mq: Any) -> None:
    q = queue(mq, PROPCTL="FORCE")
    mq.put(q, b"body", props=PROPS, Format="MQSTR")
    got = mq.get(q, HANDLE)
    assert got.message.properties == {} and got.message.md.Format == "MQHRF2"
    assert got.data_length == len(got.body) == 36 + 4 + len(USR) + len(b"body")
    assert got.body[40:40 + len(USR)] == USR
    assert (decoded(got).body, decoded(got).format) == (b"body", "MQSTR")


def test_default_compat_keeps_properties_in_the_handle_and_puts_them_in_an_mqrfh2_without_one(mq: Any) -> None:
    q = queue(mq)
    mq.put(q, b"a", props=PROPS)
    mq.put(q, b"b", props=PROPS)
    assert mq.get(q, HANDLE).message.properties == PROPS  # a handle (mqlite's own API, a GMO below version 4)
    without = mq.get(q, NO_HANDLE)
    assert without.message.properties == {} and decoded(without).headers[0].folder("usr") is not None


def test_a_gmo_below_version_4_gets_the_message_as_put_unless_propctl_forces(mq: Any) -> None:
    old = C.MQGMO_NO_SYNCPOINT | GMO_NO_MSG_HANDLE | GMO_MSG_HANDLE  # what the client sends for one
    compat, force, none = queue(mq), queue(mq, "PROP.F", PROPCTL="FORCE"), queue(mq, "PROP.N", PROPCTL="NONE")
    body, md = rfh2_message(Folder.of("mcd", ("Msd", "jms_text")), Folder.of("psc", ("Command", "Publish")))
    mq.put(compat, body, md)
    mq.put(compat, b"x", props=PROPS)
    for q in (force, none):
        mq.put(q, b"x", props=PROPS)
    assert mq.get(compat, old).body == body  # the MQRFH2 as put, mcd folder and all
    assert mq.get(compat, old).message.properties == PROPS
    assert mq.get(force, old).message.md.Format == "MQHRF2"
    assert mq.get(none, old).message.properties == {}
    with mq.raises(C.MQRC_HMSG_ERROR):
        mq.get(compat, old | C.MQGMO_PROPERTIES_IN_HANDLE)


def test_compat_without_a_handle_drops_properties_outside_mcd_jms_usr_mqext(mq: Any) -> None:
    q = queue(mq)
    mq.put(q, b"pub", props={"MQTopicString": "sport/tennis"}, Format="MQSTR")
    got = mq.get(q, NO_HANDLE)
    assert (got.body, got.message.md.Format, got.message.properties) == (b"pub", "MQSTR", {})


@pytest.mark.parametrize(("propctl", "handle_props", "no_handle_rfh2"), [
    ("ALL", PROPS, True), ("NONE", PROPS, False), ("V6COMPAT", PROPS, True), ("COMPAT", PROPS, True),
])
def test_each_propctl_with_and_without_a_handle(mq: Any, propctl: str, handle_props: dict[str, Any],
                                                no_handle_rfh2: bool) -> None:
    q = queue(mq, PROPCTL=propctl)
    mq.put(q, b"x", props=PROPS)
    mq.put(q, b"y", props=PROPS)
    assert mq.get(q, HANDLE).message.properties == handle_props
    without = mq.get(q, NO_HANDLE)
    assert without.message.properties == {}
    assert (without.message.md.Format == "MQHRF2") is no_handle_rfh2
    assert without.body.endswith(b"y")


def test_gmo_options_win_over_propctl(mq: Any) -> None:
    q = queue(mq, PROPCTL="NONE")
    for _ in range(3):
        mq.put(q, b"x", props=PROPS)
    assert mq.get(q, C.MQGMO_PROPERTIES_FORCE_MQRFH2).message.md.Format == "MQHRF2"
    assert mq.get(q, C.MQGMO_PROPERTIES_IN_HANDLE).message.properties == PROPS
    assert mq.get(q, C.MQGMO_NO_PROPERTIES).message.properties == {}


def test_bad_property_options_fail_before_a_message_is_taken(mq: Any) -> None:
    q = queue(mq)
    mq.put(q, b"x", props=PROPS)
    with mq.raises(C.MQRC_OPTIONS_ERROR):
        mq.get(q, C.MQGMO_PROPERTIES_FORCE_MQRFH2 | C.MQGMO_NO_PROPERTIES)
    with mq.raises(C.MQRC_HMSG_ERROR):
        mq.get(q, NO_HANDLE | C.MQGMO_PROPERTIES_IN_HANDLE)
    assert mq.depth("PROP.Q") == 1
    empty = queue(mq, "APP.EMPTY")
    with mq.raises(C.MQRC_OPTIONS_ERROR):  # on an empty queue too: the options are checked first
        mq.get(empty, C.MQGMO_PROPERTIES_COMPATIBILITY | C.MQGMO_PROPERTIES_IN_HANDLE)


def test_the_alias_propctl_applies_through_the_alias(mq: Any) -> None:
    q = queue(mq, PROPCTL="ALL")
    mq.define("PROP.ALIAS", "QALIAS", TARGET="PROP.Q", PROPCTL="NONE")
    alias = mq.open("PROP.ALIAS")
    mq.put(q, b"x", props=PROPS)
    mq.put(q, b"y", props=PROPS)
    assert mq.get(alias, NO_HANDLE).message.md.Format != "MQHRF2"  # NONE: dropped
    assert mq.get(q, NO_HANDLE).message.md.Format == "MQHRF2"  # ALL: an MQRFH2


def test_the_stored_message_keeps_its_properties(mq: Any) -> None:
    q = queue(mq, PROPCTL="FORCE")
    mq.put(q, b"x", props=PROPS)
    assert mq.get(q, C.MQGMO_BROWSE_FIRST | HANDLE).message.md.Format == "MQHRF2"
    got = mq.get(q, C.MQGMO_PROPERTIES_IN_HANDLE | C.MQGMO_NO_SYNCPOINT)
    assert (got.message.properties, got.body) == (PROPS, b"x")


def test_truncation_counts_the_mqrfh2(mq: Any) -> None:
    q = queue(mq, PROPCTL="FORCE")
    mq.put(q, b"0123456789", props=PROPS)
    with pytest.raises(TruncatedError) as info:
        mq.get(q, HANDLE, max_length=20)
    assert info.value.data_length == 36 + 4 + len(USR) + 10
    got = mq.get(q, C.MQGMO_ACCEPT_TRUNCATED_MSG | HANDLE, max_length=36)
    assert got.body == got.body[:36] and got.body[:4] == b"RFH " and got.reason == C.MQRC_TRUNCATED_MSG_ACCEPTED


def rfh2_message(*folders: Folder) -> tuple[bytes, MessageDescriptor]:
    body = R.encode([R.Rfh2Header(folders, 546, 1208, "MQSTR")], b"payload")
    return body, MessageDescriptor(Format="MQHRF2")


def test_an_mqrfh2_put_in_the_body_is_got_as_properties_with_a_handle(mq: Any) -> None:
    q = queue(mq)
    usr = Folder("usr", (Element("colour", "blue"), Element("n", "7", "i4")))
    psc = Folder.of("psc", ("Command", "Publish"))
    for folders in ((usr,), (usr,), (usr, psc)):
        body, md = rfh2_message(*folders)
        mq.put(q, body, md)
    got = mq.get(q, C.MQGMO_PROPERTIES_IN_HANDLE | C.MQGMO_NO_SYNCPOINT)
    assert got.message.properties == {"colour": "blue", "n": 7}
    assert (got.body, got.message.md.Format) == (b"payload", "MQSTR")
    body, _ = rfh2_message(usr)
    assert mq.get(q, NO_HANDLE).body == body  # COMPAT without a handle: the MQRFH2 as put
    kept = mq.get(q, HANDLE)  # with a handle (AS_Q_DEF, COMPAT): the psc folder stays
    assert kept.message.properties == {"colour": "blue", "n": 7}
    assert [f.name for f in decoded(kept).headers[0].folders] == ["psc"]


def test_a_malformed_mqrfh2_is_put_and_got_as_bytes(mq: Any) -> None:
    q = queue(mq)
    mq.put(q, b"RFH \x02 not really", MessageDescriptor(Format="MQHRF2"))  # no error at MQPUT
    got = mq.get(q, C.MQGMO_PROPERTIES_IN_HANDLE | C.MQGMO_NO_SYNCPOINT)
    assert (got.body, got.message.md.Format, got.message.properties) == (b"RFH \x02 not really", "MQHRF2", {})


def test_a_waiting_getter_gets_the_shaped_message(mq: Any) -> None:
    q = queue(mq, PROPCTL="FORCE")
    waiter = mq.wait(q, HANDLE)
    mq.put(q, b"late", props=PROPS)
    completions = mq.qm.take_deliveries()[0]
    results = [result for done, result in completions if done is waiter]
    assert results and results[0].message.md.Format == "MQHRF2" and results[0].body.endswith(b"late")


def test_read_ahead_pushes_are_shaped_as_for_a_handle(mq: Any) -> None:
    mq.define("RA.FORCE", DEFREADA="YES", PROPCTL="FORCE")
    mq.define("RA.COMPAT", DEFREADA="YES")
    for name in ("RA.FORCE", "RA.COMPAT"):
        handle = mq.open(name, C.MQOO_INPUT_SHARED)
        mq.qm.grant_credit(mq.conn, handle.hobj, 10)
        mq.put(mq.open(name, C.MQOO_OUTPUT), b"ahead", props=PROPS, Persistence=C.MQPER_NOT_PERSISTENT)
    pushed = [message for _, _, message in mq.qm.take_deliveries()[1]]
    assert [m.md.Format for m in pushed] == ["MQHRF2", ""]
    assert [m.properties for m in pushed] == [{}, PROPS]


def test_the_queue_managers_own_gets_see_messages_as_put(mq: Any) -> None:
    # Its servers (command server, queued publish/subscribe), channel agents and MQTT: no bit.
    q = queue(mq, PROPCTL="FORCE")
    mq.put(q, b"x", props=PROPS)
    body, md = rfh2_message(Folder("usr", (Element("colour", "blue"),)))
    mq.put(q, body, md)
    got = mq.get(q)
    assert (got.body, got.message.properties) == (b"x", PROPS)
    got = mq.get(q)
    assert (got.body, got.message.md.Format, got.message.properties) == (body, "MQHRF2", {})
